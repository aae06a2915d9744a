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
