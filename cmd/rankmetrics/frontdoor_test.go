package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// frontDoorPair writes a qrels and a run of 30 topics that real files
// have and eval used to refuse: layout "shuffled" shuffles the qrels lines;
// "natural" names the topics q1..q30 in natural order (q9 before q10);
// "bytewise" lists integer topics as sort(1) orders them (19 before 2);
// "wide" writes run lines of 8 tab-separated fields with CRLF. Topics 5 and
// 17 are judged and missing from the run; topic 31 is in the run only.
func frontDoorPair(t *testing.T, dir, layout string) (qrels, run string) {
	rng := rand.New(rand.NewPCG(19, uint64(len(layout))))
	qid := func(i int) string {
		if layout == "natural" {
			return "q" + strconv.Itoa(i)
		}
		return strconv.Itoa(i)
	}
	topics := make([]int, 31)
	for i := range topics {
		topics[i] = i + 1
	}
	if layout == "bytewise" {
		slices.SortFunc(topics, func(a, b int) int { return strings.Compare(strconv.Itoa(a), strconv.Itoa(b)) })
	}
	var ql, rl []string
	for _, i := range topics {
		n := 3 + rng.IntN(15)
		for d := range n {
			doc := fmt.Sprintf("DOC-%d-%d", i, d)
			if i != 31 && rng.IntN(3) != 0 {
				ql = append(ql, fmt.Sprintf("%s 0 %s %d", qid(i), doc, rng.IntN(3)))
			}
			if i == 5 || i == 17 {
				continue
			}
			// Scores with ties, so that the tie order matters.
			score := strconv.Itoa(rng.IntN(6))
			if layout == "wide" {
				rl = append(rl, strings.Join([]string{qid(i), "Q0", doc, strconv.Itoa(d + 1), score, "idsRun", "extra-col", "42"}, "\t")+"\r")
			} else {
				rl = append(rl, strings.Join([]string{qid(i), "Q0", doc, strconv.Itoa(d + 1), score, "r"}, " "))
			}
		}
	}
	if layout == "shuffled" {
		rng.Shuffle(len(ql), func(i, j int) { ql[i], ql[j] = ql[j], ql[i] })
	}
	return writeTemp(t, dir, layout+".qrels", strings.Join(ql, "\n")+"\n"),
		writeTemp(t, dir, layout+".run", strings.Join(rl, "\n")+"\n")
}

// TestOneFrontDoor is issue 19's acceptance test. Without any flag, on
// shuffled qrels, natural-order qids, integer qids in sort(1) order and run
// lines of 8 fields: eval -q and compare give the same per-query values and
// the same overall value for the same measure and run; eval's P_10 per
// query and overall is what rankmetrics trec_eval -c -q -m P.10 prints (the
// reference: byte-identical with the real trec_eval); and compare with a
// run whose qids match nothing exits non-zero naming that run.
func TestOneFrontDoor(t *testing.T) {
	dir := t.TempDir()
	for _, layout := range []string{"shuffled", "natural", "bytewise", "wide"} {
		t.Run(layout, func(t *testing.T) {
			qrels, runf := frontDoorPair(t, dir, layout)
			// eval -q, float64 so that values compare exactly.
			ev := evalJSONOf(t, "-q", "--dtype", "float64", "-m", "map", "-m", "P_10", qrels, runf)
			if len(ev.PerQuery) != 30 {
				t.Fatalf("eval: %d queries, want the 30 judged ones", len(ev.PerQuery))
			}
			evalQ := map[string][2]float64{}
			for _, pq := range ev.PerQuery {
				evalQ[pq["qid"].(string)] = [2]float64{pq["map"].(float64), pq["P_10"].(float64)}
			}
			if _, ok := evalQ[strconv.Itoa(31)]; ok {
				t.Errorf("eval evaluated the run-only topic 31")
			}

			// compare: the per-query values of each run, and its report.
			args := []string{"--dtype", "float64", "-m", "map", "-m", "P_10", "--format", "json", qrels, runf, runf}
			var stderr bytes.Buffer
			o, _, err := parseCompareArgs(args, io.Discard, &stderr)
			if err != nil {
				t.Fatal(err)
			}
			o.stderr = &stderr
			runs, err := o.evaluateRuns(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			rv := runs[0]
			if rv.numQueries() != len(evalQ) {
				t.Errorf("compare: %d queries, eval %d", rv.numQueries(), len(evalQ))
			}
			for k := range rv.numQueries() {
				q := rv.qid(k)
				want, ok := evalQ[q]
				if !ok || rv.values[0][k] != want[0] || rv.values[1][k] != want[1] {
					t.Errorf("query %s: compare map, P_10 = %v, %v; eval %v", q, rv.values[0][k], rv.values[1][k], want)
				}
			}
			if rv.means[0] != ev.Measures["map"] || rv.means[1] != ev.Measures["P_10"] {
				t.Errorf("compare means %v, eval map %v P_10 %v", rv.means, ev.Measures["map"], ev.Measures["P_10"])
			}
			out, _, err := compareRun(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			var cj compareJSON
			if err := json.Unmarshal([]byte(out), &cj); err != nil {
				t.Fatal(err)
			}
			if got := cj.Runs[0].Mean["map"]; got != ev.Measures["map"] {
				t.Errorf("compare report: map %v, eval %v", got, ev.Measures["map"])
			}

			// trec_eval -c -q -m P.10, the reference.
			var teOut, teErr bytes.Buffer
			if err := run(context.Background(), []string{"trec_eval", "-c", "-q", "-m", "P.10", qrels, runf}, strings.NewReader(""), &teOut, &teErr); err != nil {
				t.Fatalf("trec_eval: %v: %s", err, teErr.String())
			}
			seen := 0
			for _, line := range strings.Split(strings.TrimSpace(teOut.String()), "\n") {
				f := strings.Split(line, "\t")
				if len(f) != 3 || strings.TrimSpace(f[0]) != "P_10" {
					t.Fatalf("trec_eval line %q", line)
				}
				var got float64
				if f[1] == "all" {
					got = ev.Measures["P_10"]
				} else {
					v, ok := evalQ[f[1]]
					if !ok {
						t.Errorf("trec_eval -c evaluates topic %s, eval does not", f[1])
						continue
					}
					got = v[1]
					seen++
				}
				if s := strconv.FormatFloat(got, 'f', 4, 64); s != f[2] {
					t.Errorf("P_10 topic %s: eval %s, trec_eval -c %s", f[1], s, f[2])
				}
			}
			if seen != len(evalQ) {
				t.Errorf("trec_eval -c printed %d topics, eval %d", seen, len(evalQ))
			}
		})
	}
	// A run whose qids match nothing in the qrels: an error naming it.
	// (Sorted files: compare used to score such a run 0 everywhere and
	// exit 0.)
	qrels := writeTemp(t, dir, "301.qrels", "301 0 d1 1\n301 0 d2 0\n302 0 d3 1\n")
	good := writeTemp(t, dir, "good.run", "301 Q0 d1 1 2 r\n301 Q0 d2 2 1 r\n302 Q0 d3 1 1 r\n")
	bad := writeTemp(t, dir, "bad.run", "q301 Q0 d1 1 1 r\nq302 Q0 d3 1 1 r\n")
	for _, args := range [][]string{{qrels, good, bad}, {qrels, bad, good}} {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"compare"}, args...), strings.NewReader(""), &out, &errb)
		status := exitStatus(&errb, err)
		if status == 0 || !strings.Contains(errb.String(), "run "+bad+": no query is in both QRELS and RUN") || !strings.Contains(errb.String(), "RUN ("+bad+")") {
			t.Errorf("compare %v: status %d, stderr %q; want an error naming %s", args, status, errb.String(), bad)
		}
	}
}

// TestCompareMinorityWarning: a run that covers fewer than half of the
// judged queries gets a warning naming it, with the counts.
func TestCompareMinorityWarning(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "1 0 a 1\n2 0 b 1\n3 0 c 1\n4 0 d 1\n5 0 e 1\n")
	full := writeTemp(t, dir, "full", "1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n3 Q0 c 1 1 r\n4 Q0 d 1 1 r\n5 Q0 e 1 1 r\n")
	part := writeTemp(t, dir, "part", "1 Q0 a 1 1 r\n2 Q0 x 1 1 r\n")
	_, stderr, err := compareRun(t, qrels, full, part)
	if err != nil {
		t.Fatal(err)
	}
	want := "compare: warning: run part: 3 of the 5 judged queries (60%) of QRELS (" + qrels + ") are not in RUN (" + part + ")"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "run full:") {
		t.Errorf("stderr %q, want %q and nothing about the full run", stderr, want)
	}
}
