package metric_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/cases"
)

// familyGolden is a line of testdata/parity/family_tfr-0.5.5.jsonl.gz: a
// random tie-free batch run through the real TF-Ranking 0.5.5 Keras metric
// class by parity/generate_family.py, with TF's result and its per-list
// values and list weights from compute().
type familyGolden struct {
	cases.Case
	cases.Family
	Expect struct {
		Result      cases.Num     `json:"result"`
		PerList     [][]cases.Num `json:"per_list"`
		ListWeights [][]cases.Num `json:"list_weights"`
	} `json:"expect"`
}

func readFamilyGolden(t *testing.T) []familyGolden {
	t.Helper()
	f, err := os.Open("../testdata/parity/family_tfr-0.5.5.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []familyGolden
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var g familyGolden
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// bits32 is the float32 bit pattern of x.
func bits32(x float64) uint32 { return math.Float32bits(float32(x)) }

// sameOrNear reports whether got has the float32 bits of want, or, when
// loose, is within 2e-6 relative of it.
func sameOrNear(got float64, want cases.Num, loose bool) bool {
	if bits32(got) == bits32(float64(want)) {
		return true
	}
	return loose && math.Abs(got-float64(want)) <= 2e-6*math.Max(1, math.Abs(float64(want)))
}

// TestFamilyParityTF checks every golden case, float32 bit for bit against
// TF: the result and every per-list value and list weight. The one
// exception is alpha-DCG with an alpha other than TF's default 0.5, whose
// powers (1-alpha)^c TF's vectorised pow does not round correctly: its
// values are checked to 2e-6 relative, and counted.
func TestFamilyParityTF(t *testing.T) {
	golden := readFamilyGolden(t)
	if len(golden) < 1000 {
		t.Fatalf("read %d golden cases, want at least 1000", len(golden))
	}
	perKind := map[string]int{}
	values, loose, inexact := 0, 0, 0
	for _, g := range golden {
		lax := g.Metric == "alpha_dcg" && g.Alpha != nil && *g.Alpha != 0.5
		if lax {
			loose++
		}
		a := cases.RunFamily(&g.Case, g.Family)
		if a.Error != "" {
			t.Fatalf("%s: %s", g.ID, a.Error)
		}
		where := fmt.Sprintf("%s (%s, topn %v, ragged %v, gain %q, discount %q)", g.ID, g.Metric, g.TopN, g.Ragged, g.Gain, g.Discount)
		if !sameOrNear(a.Result, g.Expect.Result, lax) {
			t.Fatalf("%s: result %v, TF %v", where, float32(a.Result), float32(g.Expect.Result))
		}
		for u := range g.Expect.PerList {
			for b := range g.Expect.PerList[u] {
				if bits32(a.PerList[u][b]) != bits32(float64(g.Expect.PerList[u][b])) {
					inexact++
				}
				if !sameOrNear(a.PerList[u][b], g.Expect.PerList[u][b], lax) {
					t.Fatalf("%s: update %d list %d: value %v, TF %v", where, u, b, float32(a.PerList[u][b]), float32(g.Expect.PerList[u][b]))
				}
				if bits32(a.ListWeights[u][b]) != bits32(float64(g.Expect.ListWeights[u][b])) {
					t.Fatalf("%s: update %d list %d: list weight %v, TF %v", where, u, b, float32(a.ListWeights[u][b]), float32(g.Expect.ListWeights[u][b]))
				}
				values++
			}
		}
		perKind[g.Metric]++
	}
	for _, k := range []string{"map", "mrr", "hits", "arp", "precision", "recall", "ndcg", "dcg", "ordered_pair_accuracy", "precision_ia", "alpha_dcg"} {
		if perKind[k] < 100 {
			t.Fatalf("only %d golden cases of %s", perKind[k], k)
		}
	}
	t.Logf("%d cases (%v), %d per-list values and weights: all bit-equal to TF but %d values of the %d alpha-DCG cases with alpha != 0.5",
		len(golden), perKind, values, inexact, loose)
}

// TestFamilyTiesMatchTF checks the Expected tie policy against TF's random
// tie-break: for each tied list of testdata/parity/family_ties_tfr-0.5.5,
// TF ranked n copies of it, each in its own random order, and the exact
// expectation must lie within 5 standard errors of their mean value (plus
// float32 rounding).
func TestFamilyTiesMatchTF(t *testing.T) {
	f, err := os.Open("../testdata/parity/family_ties_tfr-0.5.5.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	perKind := map[string]int{}
	tied := 0
	for sc.Scan() {
		var c struct {
			cases.Case
			cases.Family
			Expect struct {
				Mean, Std float64
				N         int
			} `json:"expect"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		a := cases.RunFamily(&c.Case, c.Family)
		if a.Error != "" {
			t.Fatalf("%s: %s", c.ID, a.Error)
		}
		e := c.Expect
		tol := 5*e.Std/math.Sqrt(float64(e.N)) + 1e-6*math.Max(1, math.Abs(e.Mean))
		if math.Abs(a.Result-e.Mean) > tol {
			t.Fatalf("%s (%s, topn %v): expected %v, TF's mean over %d random tie orders %v (sd %v)", c.ID, c.Metric, c.TopN, a.Result, e.N, e.Mean, e.Std)
		}
		perKind[c.Metric]++
		if e.Std > 0 {
			tied++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(perKind) < 10 || tied < 100 {
		t.Fatalf("cases per metric %v, %d whose value depends on the tie order", perKind, tied)
	}
	t.Logf("%v; %d cases depend on the tie order", perKind, tied)
}
