package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// asRead writes to dst the lines of the TREC file src as trec_eval
// version v reads them, for eval's stricter reader: without the comment
// lines 10.0 skips, with the qrels judgment as C's atol reads it ("ab" is
// 0) and the run score as atof reads it ("a" is 0). The golden data holds
// such lines on purpose; trec_eval sees the same values either way.
func asRead(t *testing.T, src, dst, v string, run bool) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || v == "10.0" && strings.HasPrefix(f[0], "#") {
			continue
		}
		if run && len(f) >= 6 {
			f[4] = strconv.FormatFloat(treceval.Atof(f[4]), 'g', -1, 64)
			f = f[:6]
		} else if !run && len(f) == 4 {
			f[3] = strconv.FormatInt(treceval.Atol(f[3]), 10)
		}
		out.WriteString(strings.Join(f, " ") + "\n")
	}
	if err := os.WriteFile(dst, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// goldenValues parses trec_eval's output into per-query values
// (name, qid) -> printed value, and the "all" values name -> value.
func goldenValues(out []byte) (perQuery map[[2]string]string, all map[string]string) {
	perQuery, all = map[[2]string]string{}, map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		name, qid, v := strings.TrimSpace(f[0]), f[1], strings.TrimSpace(f[2])
		if qid == "all" {
			all[name] = v
		} else {
			perQuery[[2]string{name, qid}] = v
		}
	}
	return perQuery, all
}

// asTrecEval prints a value of eval's tsv output as trec_eval prints it
// (want tells an integer measure from a real one).
func asTrecEval(t *testing.T, s, want string) string {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("value %q: %v", s, err)
	}
	if !strings.Contains(want, ".") {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// TestEvalTrecEvalNamesGolden: for every trec_eval name eval accepts (the
// per-topic values of all_trec, and specifications with parameters),
// eval's per-query and overall values are the real trec_eval's, as
// recorded in testdata/treceval/golden.gz for both versions (and so equal
// to rankmetrics trec_eval's, which TestTrecEvalGolden checks there):
// with -c under eval's defaults, without -c under --qrels-only skip.
func TestEvalTrecEvalNamesGolden(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "treceval")
	cases := readGolden(t, filepath.Join(dir, "golden.gz"))
	params := "-q -m P.5,10 -m ndcg_cut.3 -m success.1 -m map_cut.7,2 -m recall.3 -m relative_P.4 -m iprec_at_recall.0.25,0.75 -m Rprec_mult.0.5,1.5 -m 11pt_avg.0.2,0.5,0.8 -m set_F.0.5 -m utility.2,-1,0,0 -m relstring.20 -m yaap"
	gains := "-q -m ndcg.1=0.5,2=3 -m G.2=5 -m ndcg_rel.3=10 -m Rndcg.0=1 -m binG -m infAP -m gm_bpref"
	checked := map[string]int{}
	for _, c := range cases {
		if c.data != "blocks" && c.data != "shuffled" {
			continue
		}
		complete := false
		switch c.flags {
		case "-q -c -m all_trec":
			complete = true
		case "-q -m all_trec", params, gains:
		default:
			continue
		}
		t.Run(c.version+"/"+c.data+"/"+c.flags, func(t *testing.T) {
			want, wantAll := goldenValues(c.out)
			args := []string{"--compat", c.version, "--unsorted", "group", "--format", "tsv", "-q", "--quiet"}
			if !complete {
				args = append(args, "--qrels-only", "skip")
			}
			if strings.Contains(c.flags, "all_trec") {
				// Every value trec_eval prints per topic, by its name;
				// map is TF-Ranking's name in eval.
				var names []string
				for k := range want {
					if k[0] != "relstring" && k[0] != "map" && !slices.Contains(names, k[0]) {
						names = append(names, k[0])
					}
				}
				slices.Sort(names)
				for _, n := range names {
					args = append(args, "-m", n)
				}
			} else {
				// The specifications, as trec_eval's -m takes them.
				f := strings.Fields(c.flags)
				for i := 0; i+1 < len(f); i++ {
					if f[i] == "-m" && !strings.HasPrefix(f[i+1], "relstring") && f[i+1] != "gm_bpref" {
						args = append(args, "-m", f[i+1])
					}
				}
			}
			tmp := t.TempDir()
			args = append(args, asRead(t, filepath.Join(dir, c.data+".qrels"), filepath.Join(tmp, "q"), c.version, false),
				asRead(t, filepath.Join(dir, c.data+".run"), filepath.Join(tmp, "r"), c.version, true))
			out := mustEval(t, args...)
			got := map[[2]string]string{}
			gotAll := map[string]string{}
			for _, line := range strings.Split(out, "\n")[1:] {
				f := strings.Split(line, "\t")
				if len(f) != 3 {
					continue
				}
				if f[1] == "all" {
					gotAll[f[0]] = f[2]
				} else {
					got[[2]string{f[0], f[1]}] = f[2]
				}
			}
			n := 0
			for k, w := range want {
				if strings.HasPrefix(k[0], "relstring") || k[0] == "map" || k[0] == "gm_bpref" {
					continue
				}
				g, ok := got[k]
				if !ok {
					t.Errorf("%s query %s: no value from eval (trec_eval %s)", k[0], k[1], w)
					continue
				}
				if g := asTrecEval(t, g, w); g != w {
					t.Errorf("%s query %s: eval %s, trec_eval %s %s", k[0], k[1], g, c.version, w)
				}
				n++
			}
			for k := range got {
				if _, ok := want[k]; !ok && c.exit == 0 && !(complete && c.version == "9.0.8") {
					// trec_eval 10.0 stops (exit 4) at a judged topic
					// the run lacks, without -c; 9.0.8 -c -q does not
					// print those topics, and eval prints them (0).
					t.Errorf("%s query %s: eval prints a value trec_eval does not", k[0], k[1])
				}
			}
			for name, w := range wantAll {
				g, ok := gotAll[name]
				if !ok {
					continue // map, summary-only values
				}
				if g := asTrecEval(t, g, w); g != w {
					t.Errorf("%s all: eval %s, trec_eval %s %s", name, g, c.version, w)
				}
				n++
			}
			if n < 10 {
				t.Errorf("only %d values compared", n)
			}
			checked[c.version]++
		})
	}
	for _, v := range []string{"10.0", "9.0.8"} {
		if checked[v] < 3 {
			t.Errorf("trec_eval %s: %d golden outputs compared, want at least 3", v, checked[v])
		}
	}
}

// TestEvalTrecEvalNeedsDocIDs: a trec_eval measure on an input without
// document ids says that trec_eval's tie order needs them and how to
// give them; with a doc column (or --columns) it is computed.
func TestEvalTrecEvalNeedsDocIDs(t *testing.T) {
	dir := t.TempDir()
	noDoc := writeTemp(t, dir, "a.tsv", "qid\tlabel\tscore\nq\t1\t0.5\nq\t0\t0.5\n")
	_, err := evalRun(t, "--quiet", "-m", "P_1", noDoc)
	want := `query "q" (line 2): measure P_1: trec_eval's measures break score ties by document id, and this input has none: add a document id column (named doc, or --doc-col NAME; headerless TSV/CSV: --columns qid,doc,label,score), or use TF-Ranking's measures (precision@10, ndcg@10, mrr...)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	// d2 (label 0) ranks before d1 (label 1) at equal scores: P_1 = 0.
	headerless := writeTemp(t, dir, "b.tsv", "q\td1\t1\t0.5\nq\td2\t0\t0.5\n")
	out := mustEval(t, "--quiet", "--format", "tsv", "--columns", "qid,doc,label,score", "-m", "P_1", "--compat", "9.0.8", headerless)
	if !strings.Contains(out, "P_1\tall\t0\n") {
		t.Errorf("output\n%s\nwant P_1 0", out)
	}
	var stderr bytes.Buffer
	err = runEval(context.Background(), []string{"--compat", "9.1", "-m", "P_1", headerless}, strings.NewReader(""), io.Discard, &stderr)
	if !errors.Is(err, errUsage) || !strings.Contains(stderr.String(), `eval: --compat: treceval: unknown compat version "9.1" (want 10.0 or 9.0.8)`) {
		t.Errorf("--compat 9.1: error %v, stderr %q", err, stderr.String())
	}
}

// TestCompareTrecEvalNames: compare takes trec_eval's names as eval does
// (document ids kept, --compat): run A ranks the relevant d1 first, run B
// ties d1 and d2 at one score, which trec_eval orders d2 (nonrelevant)
// first by docno.
func TestCompareTrecEvalNames(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq2 0 d2 0\n")
	a := writeTemp(t, dir, "a.run", "q1 Q0 d1 1 2 a\nq1 Q0 d2 2 1 a\nq2 Q0 d1 1 2 a\nq2 Q0 d2 2 1 a\n")
	b := writeTemp(t, dir, "b.run", "q1 Q0 d1 1 1 b\nq1 Q0 d2 2 1 b\nq2 Q0 d1 1 1 b\nq2 Q0 d2 2 1 b\n")
	out, _, err := compareRun(t, "--format", "tsv", "--compat", "9.0.8", "-m", "P_1", "--test", "t", qrels, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "P_1\ta.run\tb.run\t2\t1\t0\t-1\t") {
		t.Errorf("output\n%s\nwant P_1 a.run b.run with difference -1", out)
	}
}
