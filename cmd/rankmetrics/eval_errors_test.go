package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// evalAll runs "rankmetrics eval" with args as the process would: it
// returns stdout, stderr (with the line main prints for an error) and the
// exit status.
func evalAll(t *testing.T, ctx context.Context, stdout io.Writer, args ...string) (string, int) {
	t.Helper()
	var errb bytes.Buffer
	err := run(ctx, append([]string{"eval", "--quiet"}, args...), strings.NewReader(""), stdout, &errb)
	status := exitStatus(&errb, err)
	return errb.String(), status
}

// TestEvalNothingMatches: a TREC pair without a query in both files is an
// error (trec_eval exits 7 there), not "map 0"; the message shows a sample
// of the qids of each side.
func TestEvalNothingMatches(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "1 0 d1 1\n2 0 d2 1\n3 0 d3 1\n4 0 d4 1\n")
	run := writeTemp(t, dir, "run", "q1 Q0 d1 1 1 t\nq2 Q0 d2 1 1 t\nq3 Q0 d3 1 1 t\nq4 Q0 d4 1 1 t\n")
	empty := writeTemp(t, dir, "empty", "")
	blank := writeTemp(t, dir, "blank", "\n\n")
	headerOnly := writeTemp(t, dir, "h.tsv", "qid\tlabel\tscore\n")
	prefix := "rankmetrics: no query is in both QRELS and RUN, so there is nothing to evaluate: "
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"q1 vs 1", []string{qrels, run}, prefix +
			`QRELS (` + qrels + `) has 4 queries, e.g. "1", "2", "3"; RUN (` + run + `) has 4 queries, e.g. "q1", "q2", "q3". ` +
			`Qids must be equal strings in both files ("q1" is not "1").`},
		{"q1 vs 1, one-sided queries kept", []string{"--run-only", "keep", "--qrels-only", "keep", qrels, run}, prefix +
			`QRELS (` + qrels + `) has 4 queries, e.g. "1", "2", "3"; RUN (` + run + `) has 4 queries`},
		{"empty qrels", []string{empty, run}, prefix + `QRELS (` + empty + `) has no judgment; RUN (` + run + `) has 4 queries, e.g. "q1", "q2", "q3".` + "\n"},
		{"empty run", []string{qrels, blank}, prefix + `QRELS (` + qrels + `) has 4 queries, e.g. "1", "2", "3"; RUN (` + blank + `) has no line.` + "\n"},
		{"both empty", []string{empty, empty}, prefix + `QRELS (` + empty + `) has no judgment; RUN (` + empty + `) has no line.` + "\n"},
		{"header only", []string{headerOnly}, "rankmetrics: " + headerOnly + ": no query to evaluate: the input has no data rows\n"},
	}
	for _, tc := range tests {
		for _, format := range []string{"table", "json", "tsv"} {
			t.Run(tc.name+" "+format, func(t *testing.T) {
				var out bytes.Buffer
				stderr, status := evalAll(t, context.Background(), &out, append([]string{"--format", format}, tc.args...)...)
				if status != 1 || !strings.Contains(stderr, tc.want) {
					t.Errorf("exit status %d, stderr\n%s\nwant status 1 and\n%s", status, stderr, tc.want)
				}
				if out.Len() != 0 && format != "json" {
					t.Errorf("output %q, want none", out.String())
				}
				if out.Len() != 0 && !json.Valid(out.Bytes()) {
					t.Errorf("output is not valid JSON:\n%s", out.String())
				}
			})
		}
	}
	// Kept one-sided queries (the qrels' by default, the run's with
	// --run-only keep) are printed under -q before the error, in qid
	// order: the JSON document stays valid and holds them, with the error.
	var out bytes.Buffer
	_, status := evalAll(t, context.Background(), &out, "--format", "json", "-q", "--run-only", "keep", qrels, run)
	var doc struct {
		PerQuery []map[string]any `json:"per_query"`
		Error    string           `json:"error"`
		Measures map[string]any   `json:"measures"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || status != 1 {
		t.Fatalf("status %d, output is not JSON (%v):\n%s", status, err, out.String())
	}
	if len(doc.PerQuery) != 8 || doc.PerQuery[0]["qid"] != "1" || doc.PerQuery[4]["qid"] != "q1" || !strings.HasPrefix(doc.Error, "no query is in both") || doc.Measures != nil {
		t.Errorf("document %+v: want the 4 qrels and 4 run queries, the error and no measures", doc)
	}
}

// TestEvalOneSidedWarning: most queries of one file missing from the
// other gives a warning with the share and a sample, and the result.
func TestEvalOneSidedWarning(t *testing.T) {
	dir := t.TempDir()
	// The run has 1 (judged) and q2..q4 (not judged); the qrels judge 1,
	// and 5..9 that the run misses.
	qrels := writeTemp(t, dir, "qrels", "1 0 d1 1\n5 0 d 1\n6 0 d 1\n7 0 d 1\n8 0 d 1\n9 0 d 1\n")
	run := writeTemp(t, dir, "run", "1 Q0 d1 1 1 t\nq2 Q0 d 1 1 t\nq3 Q0 d 1 1 t\nq4 Q0 d 1 1 t\n")
	tests := []struct {
		args []string
		want []string
	}{
		{nil, []string{
			`eval: warning: 3 of the 4 queries (75%) of RUN (` + run + `) have no judgment in QRELS (` + qrels + `), e.g. "q2", "q3", "q4", while the queries in both look like "1"; they are skipped (--run-only keep counts them with value 0)` + "\n",
			`eval: warning: 5 of the 6 judged queries (83%) of QRELS (` + qrels + `) are not in RUN (` + run + `), e.g. "5", "6", "7", while the queries in both look like "1"; they count with value 0 (--qrels-only keep)` + "\n",
		}},
		{[]string{"--qrels-only", "skip"}, []string{
			`eval: warning: 5 of the 6 judged queries (83%) of QRELS (` + qrels + `) are not in RUN (` + run + `), e.g. "5", "6", "7", while the queries in both look like "1"; they are skipped (--qrels-only keep counts them with value 0, as trec_eval -c does)` + "\n",
		}},
		{[]string{"--run-only", "keep", "--qrels-only", "keep"}, []string{
			`3 of the 4 queries (75%) of RUN`, `they count with value 0 (--run-only keep)`,
			`5 of the 6 judged queries (83%) of QRELS`, `they count with value 0 (--qrels-only keep)`,
		}},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		stderr, status := evalAll(t, context.Background(), &out, append(tc.args, "--format", "json", "--dtype", "float64", qrels, run)...)
		if status != 0 {
			t.Fatalf("%v: status %d: %s", tc.args, status, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr\n%s\nlacks\n%s", tc.args, stderr, w)
			}
		}
		var r evalJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Counts["queries_evaluated"] == 0 {
			t.Errorf("%v: no result: %v\n%s", tc.args, err, out.String())
		}
	}
	// Half or less on one side only: no warning.
	half := writeTemp(t, dir, "half", "1 Q0 d1 1 1 t\nq2 Q0 d 1 1 t\n")
	q1 := writeTemp(t, dir, "q1", "1 0 d1 1\n")
	if stderr, status := evalAll(t, context.Background(), io.Discard, q1, half); status != 0 || stderr != "" {
		t.Errorf("half the run judged: status %d, stderr %q; want no warning", status, stderr)
	}
}

// TestEvalSwappedFiles: a run given as QRELS and qrels as RUN are named.
func TestEvalSwappedFiles(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels.txt", "1 0 d1 1\n1 0 d2 0\n")
	run := writeTemp(t, dir, "run.txt", "1 Q0 d1 1 2 t\n1 Q0 d2 2 1 t\n")
	for _, unsorted := range []string{"error", "group"} {
		stderr, status := evalAll(t, context.Background(), io.Discard, "--unsorted", unsorted, run, qrels)
		if status != 1 || !strings.Contains(stderr, "did you swap QRELS and RUN? trec_eval's order is QRELS RUN") {
			t.Errorf("--unsorted %s: status %d, stderr %q", unsorted, status, stderr)
		}
		// The error names the file and line where it was found.
		if !strings.Contains(stderr, run+`:1: line "1 Q0 d1 1 2 t": a qrels line has 4 fields`) &&
			!strings.Contains(stderr, qrels+`:1: line "1 0 d1 1": a run line has 6 fields`) {
			t.Errorf("--unsorted %s: stderr %q names no file and line", unsorted, stderr)
		}
	}
}

// cancelOnWrite cancels a context at its first write, as an interrupt
// arriving while -q output is under way.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel()
	return w.Buffer.Write(p)
}

// TestEvalPartialOutput: an error (or an interrupt) after -q output has
// begun leaves whole records only, every update before the failing one,
// and a JSON output stays a valid document carrying the error.
func TestEvalPartialOutput(t *testing.T) {
	dir := t.TempDir()
	const nq, bad, batch = 12000, 10000, 64
	var b strings.Builder
	b.WriteString("qid\tlabel\tscore\n")
	for q := range nq {
		score := "1"
		if q == bad {
			score = "x"
		}
		// One relevant item ranked first: AP 1.
		fmt.Fprintf(&b, "%05d\t1\t%s\n", q, score)
	}
	in := writeTemp(t, dir, "in.tsv", b.String())
	// Queries go in updates of 64: the update with the bad line is lost,
	// every one before it is printed.
	const printed = bad / batch * batch
	wantErr := in + `:10002: field score: value "x": not a number`
	for _, format := range []string{"json", "tsv", "table"} {
		t.Run(format, func(t *testing.T) {
			var out bytes.Buffer
			// --unsorted error streams from the first row (auto reads
			// 16384 rows ahead, more than this input).
			stderr, status := evalAll(t, context.Background(), &out, "-q", "--format", format, "--batch", strconv.Itoa(batch), "--workers", "2", "--unsorted", "error", in)
			if status != 1 || !strings.Contains(stderr, wantErr) {
				t.Fatalf("status %d, stderr %q; want 1 and %q", status, stderr, wantErr)
			}
			if out.Len() < 1<<16 {
				t.Fatalf("only %d bytes of output: the test needs more than the output buffer", out.Len())
			}
			checkPartial(t, format, out.Bytes(), printed, "not a number")
		})
	}
	// An interrupt: the context ends at the first write of output.
	for _, format := range []string{"json", "tsv", "table"} {
		t.Run("interrupt "+format, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			out := &cancelOnWrite{cancel: cancel}
			good := writeTemp(t, t.TempDir(), "good.tsv", strings.Replace(b.String(), "\tx\n", "\t1\n", 1))
			stderr, status := evalAll(t, ctx, out, "-q", "--format", format, "--batch", "8", "--workers", "2", good)
			if status != 1 || !strings.Contains(stderr, "rankmetrics: interrupted") {
				t.Fatalf("status %d, stderr %q; want 1 and an interrupt", status, stderr)
			}
			checkPartial(t, format, out.Bytes(), -1, "interrupted")
		})
	}
}

// checkPartial checks the -q output of TestEvalPartialOutput: whole
// records of queries 0, 1, 2... each of AP 1, want of them (any number
// when want < 0), and for JSON a valid document with the error.
func checkPartial(t *testing.T, format string, out []byte, want int, errText string) {
	t.Helper()
	var qids []string
	switch format {
	case "json":
		var doc struct {
			PerQuery []map[string]any `json:"per_query"`
			Error    string           `json:"error"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("output is not valid JSON (%v); it ends %q", err, out[max(0, len(out)-80):])
		}
		if !strings.Contains(doc.Error, errText) {
			t.Errorf("JSON error %q, want %q", doc.Error, errText)
		}
		for _, r := range doc.PerQuery {
			if r["map"] != 1.0 || len(r) != 2 {
				t.Errorf("record %v, want map 1", r)
			}
			qids = append(qids, r["qid"].(string))
		}
	default:
		if len(out) > 0 && out[len(out)-1] != '\n' {
			t.Fatalf("output ends mid-line: %q", out[max(0, len(out)-80):])
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if format == "tsv" && len(lines) > 0 {
			if lines[0] != "measure\tqid\tvalue" {
				t.Errorf("tsv header %q", lines[0])
			}
			lines = lines[1:]
		}
		for _, l := range lines {
			f := strings.Split(l, "\t")
			if len(f) != 3 || strings.TrimSpace(f[0]) != "map" || f[2] != "1" {
				t.Fatalf("line %q is not a whole record", l)
			}
			qids = append(qids, f[1])
		}
	}
	if want >= 0 && len(qids) != want {
		t.Errorf("%d records, want %d", len(qids), want)
	}
	for i, q := range qids {
		if q != fmt.Sprintf("%05d", i) {
			t.Fatalf("record %d has qid %s, want the queries in input order", i, q)
		}
	}
}

// TestEvalBadCommandLine: a bad flag or value prints one line naming it
// and a pointer to -h, not the whole help; exit status 2.
func TestEvalBadCommandLine(t *testing.T) {
	dir := t.TempDir()
	in := writeTemp(t, dir, "in.tsv", "qid\tlabel\tscore\n1\t1\t1\n")
	pointer := `run "rankmetrics eval -h" for the flags and formats` + "\n"
	tests := []struct {
		args []string
		line string
	}{
		{[]string{"-m", "ndgc", in}, `eval: invalid value "ndgc" for flag -m: unknown measure "ndgc" (names are case-sensitive); did you mean ndcg_metric (TF-Ranking:`},
		{[]string{"--bogus", in}, "eval: unknown flag --bogus\n"},
		{[]string{"--colums", "qid,label,score", in}, "eval: unknown flag --colums: did you mean --columns?\n"},
		{[]string{in, "-qrels-onyl", "keep"}, "eval: unknown flag --qrels-onyl: did you mean --qrels-only?\n"},
		{[]string{"--seed", "3", in}, "eval: unknown flag --seed: the seed of the random tie order is --ties-seed (--seed is the seed of resampling, as in rankmetrics compare; eval has none)\n"},
		{[]string{"--batch", "x", in}, `eval: invalid value "x" for flag -batch: parse error`},
		{[]string{"--workers", "0", in}, "eval: --workers 0: want 1 to 256"},
		{[]string{"--workers", "257", in}, "eval: --workers 257: want 1 to 256 (results do not depend on it; more workers than the "},
		{[]string{"--plot-k", "0", in}, "eval: --plot-k 0: want 1 to 1000"},
		{[]string{"--plot-k", "1001", in}, "eval: --plot-k 1001: want 1 to 1000 (each k is one more MAP@k computed over the whole input)"},
		{[]string{"--format", "xml", in}, `eval: --format "xml": want table, json or tsv`},
		{nil, "eval: want FILE, or QRELS RUN; got 0 paths"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		stderr, status := evalAll(t, context.Background(), &out, tc.args...)
		lines := strings.SplitAfter(stderr, "\n")
		if status != 2 || len(lines) != 3 || !strings.HasPrefix(lines[0], tc.line) || lines[1] != pointer || out.Len() != 0 {
			t.Errorf("eval %v: status %d, stdout %q, stderr\n%s\nwant status 2 and 2 lines: %q..., %q", tc.args, status, out.String(), stderr, tc.line, pointer)
		}
	}
	// The bounds themselves are accepted.
	for _, args := range [][]string{{"--workers", "256"}, {"--plot-k", "1000", "--plot", filepath.Join(dir, "p.png")}} {
		if stderr, status := evalAll(t, context.Background(), io.Discard, append(args, in)...); status != 0 {
			t.Errorf("eval %v: status %d: %s", args, status, stderr)
		}
	}
	// -h prints the whole help on stdout, with status 0.
	var errb, help bytes.Buffer
	if err := run(context.Background(), []string{"eval", "-h"}, nil, &help, &errb); err != nil || strings.Count(help.String(), "\n") < 50 || errb.Len() != 0 {
		t.Errorf("-h: %v, %d lines of help, stderr %q", err, strings.Count(help.String(), "\n"), errb.String())
	}
	// --format is the output's format, and the help says so.
	for _, want := range []string{"--format is the format of the OUTPUT", "FORMAT of the output: table, json or tsv (the input's is --input-format)",
		"FORMAT of the input: auto (from the extension), trec, tsv, csv, jsonl, parquet or rkm1"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("-h lacks %q", want)
		}
	}
	// compute's flags get the same treatment.
	errb.Reset()
	if err := run(context.Background(), []string{"compute", "--nope"}, nil, io.Discard, &errb); exitStatus(io.Discard, err) != 2 ||
		errb.String() != "compute: unknown flag --nope\nrun \"rankmetrics compute -h\" for the flags and formats\n" {
		t.Errorf("compute --nope: %v, stderr %q", err, errb.String())
	}
}

// TestEvalDocumentedExamples: the one-line input examples of eval -h and
// of the README are there, and evaluate as documented. Each is one
// relevant item ranked first, AP 1.
func TestEvalDocumentedExamples(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tests := []struct {
		name     string
		help     []string // as eval -h shows them (<TAB> for a tab)
		readme   []string // as the README shows them
		file     string   // the file made of them
		contents string
	}{
		{"tsv", []string{"qid<TAB>label<TAB>score", "q1<TAB>1<TAB>0.93"}, nil, "a.tsv", "qid\tlabel\tscore\nq1\t1\t0.93\n"},
		{"csv", nil, []string{"`qid,label,score` then `q1,1,0.93`"}, "a.csv", "qid,label,score\nq1,1,0.93\n"},
		{"jsonl items", []string{`{"qid":"q1","doc":"d1","label":1,"score":0.93}`}, []string{`{"qid":"q1","doc":"d1","label":1,"score":0.93}`},
			"items.jsonl", `{"qid":"q1","doc":"d1","label":1,"score":0.93}` + "\n"},
		{"jsonl lists", []string{`{"qid":"q1","labels":[1,0],"scores":[0.93,0.2],"docs":["d1","d2"]}`}, nil,
			"lists.jsonl", `{"qid":"q1","labels":[1,0],"scores":[0.93,0.2],"docs":["d1","d2"]}` + "\n"},
		{"jsonl lists, README", nil, []string{`{"qid":"q1","labels":[1,0],"scores":[0.93,0.2]}`},
			"lists2.jsonl", `{"qid":"q1","labels":[1,0],"scores":[0.93,0.2]}` + "\n"},
	}
	for _, tc := range tests {
		for _, h := range tc.help {
			if !strings.Contains(evalUsage, h) {
				t.Errorf("%s: eval -h lacks %q", tc.name, h)
			}
		}
		for _, r := range tc.readme {
			if !bytes.Contains(readme, []byte(r)) {
				t.Errorf("%s: README lacks %q", tc.name, r)
			}
		}
		p := writeTemp(t, dir, tc.file, tc.contents)
		if r := evalJSONOf(t, p); r.Measures["map"] != 1 || r.Counts["queries_evaluated"] != 1 {
			t.Errorf("%s: %v %v, want map 1 over 1 query", tc.name, r.Measures, r.Counts)
		}
	}
	qrelsLine, runLine := "401 0 FBIS3-10 1", "401 Q0 FBIS3-10 1 12.5 myrun"
	for _, l := range []string{qrelsLine, runLine} {
		if !strings.Contains(evalUsage, l) || !bytes.Contains(readme, []byte(l)) {
			t.Errorf("eval -h or the README lacks the TREC example %q", l)
		}
	}
	qrels, run := writeTemp(t, dir, "qrels", qrelsLine+"\n"), writeTemp(t, dir, "run", runLine+"\n")
	if r := evalJSONOf(t, qrels, run); r.Measures["map"] != 1 {
		t.Errorf("TREC example: %v, want map 1", r.Measures)
	}
}

// TestEvalOddQIDs: qids with a tab, a line break, a quote or a control
// character (JSON Lines can hold them) keep every output a record per
// line, and JSON valid with the qid as read.
func TestEvalOddQIDs(t *testing.T) {
	dir := t.TempDir()
	qids := []string{"a\tb", "c\nd", `e"f`, "g\x01h", "i\\j"}
	var b strings.Builder
	for _, q := range qids {
		enc, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, `{"qid":%s,"labels":[1,0],"scores":[2,1]}`+"\n", enc)
	}
	in := writeTemp(t, dir, "odd.jsonl", b.String())
	r := evalJSONOf(t, "-q", "--unsorted", "group", in)
	var got []string
	for _, row := range r.PerQuery {
		got = append(got, row["qid"].(string))
	}
	if fmt.Sprint(got) != fmt.Sprint(qids) {
		t.Errorf("JSON qids %q, want %q", got, qids)
	}
	for _, format := range []string{"tsv", "table"} {
		out := mustEval(t, "-q", "--format", format, "--unsorted", "group", in)
		lines := strings.Split(out, "\n")
		if format == "tsv" {
			lines = lines[1:]
		}
		for i, q := range qids {
			f := strings.Split(lines[i], "\t")
			want := q
			if strings.ContainsAny(q, "\t\n\x01") {
				want = strconv.Quote(q) // eval -h: a Go string
			}
			if len(f) != 3 || f[1] != want || f[2] != "1" {
				t.Errorf("%s: line %q, want qid %q and AP 1", format, lines[i], want)
			}
		}
	}
}
