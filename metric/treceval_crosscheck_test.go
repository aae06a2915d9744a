package metric_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/cases"
)

// crossCase is a line of a cross-check file written by
// parity/generate_family.py: a compute case and the value another tool
// gave for it.
type crossCase struct {
	cases.Case
	cases.Family
	Expect struct {
		Result float64 `json:"result"`
		Tool   string  `json:"tool"`
	} `json:"expect"`
}

// runCrossCheck runs every case of path and fails unless each result is
// within tol of the tool's; it logs "N passed, 0 failed".
func runCrossCheck(t *testing.T, path string, min int, tol float64) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	passed, failed := 0, 0
	for sc.Scan() {
		var c crossCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		a := cases.RunFamily(&c.Case, c.Family)
		if a.Error != "" {
			t.Errorf("%s: %s", c.ID, a.Error)
			failed++
			continue
		}
		if math.Abs(a.Result-c.Expect.Result) > tol {
			t.Errorf("%s: %v, %s gives %v", c.ID, a.Result, c.Expect.Tool, c.Expect.Result)
			failed++
			continue
		}
		passed++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d passed, %d failed", path, passed, failed)
	if passed < min {
		t.Fatalf("only %d cases passed, want at least %d", passed, min)
	}
}

// TestFamilyCrossCheckTrecEval checks map (treceval convention), map_cut_10,
// ndcg_cut_10 (identity gain), recip_rank and P_10 against trec_eval's own
// values (pytrec_eval) on queries with ties, which trec_eval breaks by
// descending document id: the items are given in that order under the
// Stable policy, and the judged documents the run missed with weight 0.
func TestFamilyCrossCheckTrecEval(t *testing.T) {
	runCrossCheck(t, "../testdata/parity/family_treceval.jsonl.gz", 1000, 1e-12)
}

// TestFamilyCrossCheckTorchmetrics checks MAP under the retrieved
// convention and NDCG with the identity gain against torchmetrics'
// retrieval_average_precision and retrieval_normalized_dcg, at cutoffs
// none, 5 and 10. torchmetrics computes AP's precisions in float32, hence
// the tolerance.
func TestFamilyCrossCheckTorchmetrics(t *testing.T) {
	runCrossCheck(t, "../testdata/parity/family_torchmetrics.jsonl.gz", 1000, 1e-6)
}
