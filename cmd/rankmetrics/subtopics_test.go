package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
)

// TestEvalDiversityAndCWL: eval computes ir_measures' diversity measures
// (reading the qrels again as subtopic qrels) and C/W/L measures in one
// call; the diversity values are those the real ir_measures recorded in
// testdata/irmeasures/ndeval_seed1.jsonl.gz, to the bit, and RBP has a
// value for every query the diversity measures have.
func TestEvalDiversityAndCWL(t *testing.T) {
	cases := golden.All[golden.IRCase](t, []string{"../../testdata/irmeasures/ndeval_seed1.jsonl.gz"})
	if len(cases) == 0 {
		t.Fatal("empty golden file")
	}
	g := cases[0]
	dir := t.TempDir()
	qp, rp := filepath.Join(dir, "div.qrels"), filepath.Join(dir, "run")
	if err := os.WriteFile(qp, []byte(strings.Join(g.Qrels, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rp, []byte(strings.Join(g.Run, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{} // "measure qid" -> value
	for _, r := range g.Results {
		if r.Measure == "alpha_nDCG@20" || r.Measure == "AP_IA" {
			for _, x := range r.PerQ {
				want[r.Measure+" "+x[0].(string)] = x[1].(float64)
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no golden values")
	}
	var out, errb bytes.Buffer
	args := []string{"eval", qp, rp, "-m", "alpha_nDCG@20,AP_IA,RBP(rel=1)", "-q", "--qrels-only", "keep", "--dedupe", "first", "--format", "tsv"}
	if err := run(context.Background(), args, nil, &out, &errb); err != nil {
		t.Fatalf("eval: %v (%s)", err, errb.String())
	}
	got := map[string]float64{}
	for _, l := range strings.Split(out.String(), "\n") {
		f := strings.Split(l, "\t")
		if len(f) != 3 {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
		if err != nil {
			continue
		}
		got[strings.TrimSpace(f[0])+" "+strings.TrimSpace(f[1])] = v
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g != w {
			t.Errorf("%s = %v (%v), ir_measures %v", k, g, ok, w)
		}
		if qid, ok := strings.CutPrefix(k, "AP_IA "); ok {
			if _, has := got["RBP(rel=1) "+qid]; !has {
				t.Errorf("no RBP(rel=1) value for query %s", qid)
			}
		}
	}
	// Without subtopic qrels in a TREC pair, the error names the measure.
	out.Reset()
	errb.Reset()
	err := run(context.Background(), []string{"eval", rp, "-m", "alpha_nDCG@20"}, nil, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "alpha_nDCG@20") {
		t.Errorf("eval of one file: %v, want an error naming alpha_nDCG@20", err)
	}
	t.Logf("one file: %v", err)
}
