package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestEvalProvider: eval --provider computes RR by msmarco (ties by docno
// ascending) instead of pytrec_eval (trec_eval's ties, by docno
// descending), and refuses a provider that does not compute a measure.
// Query 1 ranks b (2.0, judged 0), then a (1.0, judged 1) and z (1.0,
// unjudged); query 2 ties y (unjudged) and x (judged 1).
func TestEvalProvider(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n")
	runf := writeTemp(t, dir, "run", "1 Q0 b 1 2.0 t\n1 Q0 a 2 1.0 t\n1 Q0 z 3 1.0 t\n2 Q0 y 1 1 t\n2 Q0 x 2 1 t\n")
	for provider, want := range map[string]string{
		"":            "RR\tall\t0.41666666666666663", // (1/3 + 1/2) / 2: b z a, y x
		"pytrec_eval": "RR\tall\t0.41666666666666663",
		"msmarco":     "RR\tall\t0.75", // (1/2 + 1) / 2: b a z, x y
	} {
		args := []string{"eval", qrels, runf, "-m", "RR", "--format", "tsv", "--quiet"}
		if provider != "" {
			args = append(args, "--provider", provider)
		}
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, nil, &out, &errb); err != nil {
			t.Fatalf("--provider %q: %v (%s)", provider, err, errb.String())
		}
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("--provider %q: got\n%s\nwant a line %q", provider, out.String(), want)
		}
	}
	for _, bad := range [][]string{{"-m", "Judged@2", "--provider", "gdeval"}, {"-m", "Judged@2", "--provider", "nope"}, {"-m", "P_10", "--provider", "judged"}} {
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"eval", qrels, runf}, bad...), nil, &out, &errb)
		if exitStatus(&errb, err) != 2 || !strings.Contains(errb.String(), "--provider") {
			t.Errorf("%v: status %d, stderr %s", bad, exitStatus(&bytes.Buffer{}, err), errb.String())
		}
	}
}

// TestNoValueQueries: ir_measures' Accuracy gives no value to a query
// without a relevant document in its top K (python -m ir_measures QRELS
// RUN 'Accuracy@3' -q prints no line for it). eval -q prints none either
// (null in JSON), and compare pairs, for that measure, only the queries
// with a value in every run. Worked by hand with the accuracy provider's
// rule (1 - the mean count of non-relevant documents above each relevant
// one, over the non-relevant ones in the top K): run A ranks, for query
// 1, a (rel) b z: 1; query 2, d x: no relevant document, no value; query
// 3, f e (rel): 0. Run B: query 1, b a (rel) z: 1/2; query 2, c (rel) d:
// 1; query 3: 0. Accuracy@3 is compared on queries 1 and 3: means 0.5
// and 0.25; P@1 on all three.
func TestNoValueQueries(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "1 0 a 1\n1 0 b 0\n2 0 c 1\n2 0 d 0\n3 0 e 1\n3 0 f 0\n")
	runA := writeTemp(t, dir, "a.run", "1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 z 3 1 t\n2 Q0 d 1 3 t\n2 Q0 x 2 2 t\n3 Q0 f 1 3 t\n3 Q0 e 2 2 t\n")
	runB := writeTemp(t, dir, "b.run", "1 Q0 b 1 3 t\n1 Q0 a 2 2 t\n1 Q0 z 3 1 t\n2 Q0 c 1 3 t\n2 Q0 d 2 2 t\n3 Q0 f 1 3 t\n3 Q0 e 2 2 t\n")
	call := func(args ...string) (string, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), args, nil, &out, &errb); err != nil {
			t.Fatalf("%v: %v (%s)", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	out, _ := call("eval", qrels, runA, "-m", "Accuracy@3,P@1", "-q", "--format", "tsv", "--quiet")
	for _, want := range []string{"Accuracy@3\t1\t1\n", "Accuracy@3\t3\t0\n", "P@1\t2\t0\n", "Accuracy@3\tall\t0.5\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval -q tsv: no line %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Accuracy@3\t2\t") {
		t.Errorf("eval -q tsv: a value of Accuracy@3 for query 2, which has none:\n%s", out)
	}
	out, _ = call("eval", qrels, runA, "-m", "Accuracy@3,P@1", "-q", "--quiet")
	if strings.Contains(out, "Accuracy@3\t2\t") || !strings.Contains(out, "Accuracy@3\t3\t0") {
		t.Errorf("eval -q table: want no Accuracy@3 line for query 2 and one for query 3:\n%s", out)
	}
	out, _ = call("eval", qrels, runA, "-m", "Accuracy@3,P@1", "-q", "--format", "json", "--quiet")
	if !strings.Contains(out, `{"qid":"2","Accuracy@3":null,"P@1":0}`) {
		t.Errorf("eval -q json: want null for query 2's Accuracy@3:\n%s", out)
	}
	out, errs := call("compare", "-m", "Accuracy@3,P@1", "--format", "tsv", qrels, runA, runB)
	if !strings.Contains(errs, "Accuracy@3: 1 of the 3 queries have no value in some run") {
		t.Errorf("compare: stderr %q, want the queries left out of Accuracy@3 counted", errs)
	}
	for _, want := range []string{"0.5", "0.25", "-0.25"} {
		if !strings.Contains(out, "\t"+want+"\t") && !strings.Contains(out, "\t"+want+"\n") {
			t.Errorf("compare: no value %s in\n%s", want, out)
		}
	}
}
