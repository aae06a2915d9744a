package evaluate

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/runio"
)

// irGolden is one case of testdata/irmeasures: a qrels and run pair, and
// what ir_measures 0.4.3 (python -m ir_measures QRELS RUN M -q) gave for
// each measure (parity/irmeasures/generate.py).
type irGolden struct {
	Case    int      `json:"case"`
	Seed    int      `json:"seed"`
	Qrels   []string `json:"qrels"`
	Run     []string `json:"run"`
	Results []struct {
		Measure string  `json:"measure"`
		Error   string  `json:"error"`
		PerQ    [][]any `json:"perq"`
		All     float64 `json:"all"`
		// AllNaN is set when ir_measures' summary is NaN (its mean of
		// no value), which JSON does not write.
		AllNaN bool `json:"all_nan"`
	} `json:"results"`
}

// readIRGolden reads every case of the golden files.
func readIRGolden(t *testing.T) []irGolden {
	t.Helper()
	// RANKMETRICS_IRMEASURES_GOLDEN: parity/irmeasures/check.sh's files,
	// drawn with a fresh seed.
	return golden.All[irGolden](t, golden.Files(t, "RANKMETRICS_IRMEASURES_GOLDEN",
		"../testdata/irmeasures/golden_*.jsonl.gz", "../testdata/irmeasures/providers_*.jsonl.gz", "../testdata/irmeasures/cwl_*.jsonl.gz"))
}

// irGoldenNum reads a recorded per-query value: a JSON number, or one of
// the strings "NaN", "Infinity" and "-Infinity", which generate.py writes
// for the values JSON cannot hold (IPrec(judged_only=True) of a query
// without a judged document ranked is NaN in pytrec_eval).
func irGoldenNum(x any) (float64, error) {
	if f, ok := golden.Num(x); ok {
		return f, nil
	}
	return 0, fmt.Errorf("value %v (%T): neither a number nor NaN, Infinity or -Infinity", x, x)
}

// TestIRMeasuresGolden checks every ir_measures measure rankmetrics names
// against the values the real ir_measures 0.4.3 computed: each per-query
// value to the bit, the same set of queries (the judged queries, those
// the run lacks at 0: eval's --qrels-only keep), and the summary, which
// ir_measures adds up in the order it yields the queries: our correctly
// rounded mean prints as ir_measures prints it (4 decimals) and differs
// from it by a few ulps at most. Measures the registry does not name yet
// are counted and listed, not failed.
func TestIRMeasuresGolden(t *testing.T) {
	passed, near, failed, skipped, ulpOff := 0, 0, 0, map[string]bool{}, map[string]bool{}
	for _, g := range readIRGolden(t) {
		qrels := strings.Join(g.Qrels, "\n") + "\n"
		runText := strings.Join(g.Run, "\n") + "\n"
		for _, r := range g.Results {
			// As ir_measures reads it: its aliases (MAP), bare Rprec.
			m, err := measure.ParseIRMeasures(r.Measure)
			if err != nil {
				if r.Error == "" {
					skipped[r.Measure] = true
				} else if strings.HasPrefix(r.Error, "AssertionError: invalid param") {
					// An int for a float (BPM(T=2,max_rel=3)@5), which
					// ir_measures parses and refuses: refused here too.
					var pe *measure.ParamError
					if errors.As(err, &pe) && strings.HasSuffix(r.Error, "invalid param "+pe.Param+"="+pe.Value) {
						passed++
					} else {
						t.Errorf("seed %d case %d %s: %v, ir_measures %s", g.Seed, g.Case, r.Measure, err, r.Error)
						failed++
					}
				}
				continue // refused here as by ir_measures (RBP without rel)
			}
			name := fmt.Sprintf("seed %d case %d %s", g.Seed, g.Case, r.Measure)
			if r.Error != "" {
				if strings.HasPrefix(r.Error, "ZeroDivisionError") && m.IR.Provider == "accuracy" {
					// The accuracy provider divides 0 by 0 on a query whose
					// top K is all relevant: eval stops with an error there.
					if err := runIRError(t, qrels, runText, m); err == nil {
						t.Errorf("%s: ir_measures fails (%s), eval gave values", name, r.Error)
						failed++
					} else {
						passed++
					}
				}
				continue
			}
			o := options(t, "float64", "stable")
			o.Measures = []Measure{m}
			o.QrelsOnly = Keep
			rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(runText), "qrels", "run",
				runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup})
			if err != nil {
				t.Fatal(err)
			}
			pq := &perQuery{values: map[string][]float64{}}
			o.PerQuery = func(b *Batch) error {
				// A query without a value (weight 0: Accuracy's without a
				// relevant document ranked) is not reported, as in
				// ir_measures.
				for i := range b.Len() {
					if b.Weight(0, i) != 0 {
						pq.values[b.QID(i)] = []float64{b.Value(0, i)}
					}
				}
				return nil
			}
			res, err := Run(context.Background(), rd, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			rd.Close()
			want := map[string]float64{}
			naive := 0.0
			for _, x := range r.PerQ {
				v, err := irGoldenNum(x[1])
				if err != nil {
					t.Fatalf("%s: query %v: %v", name, x[0], err)
				}
				want[x[0].(string)] = v
				naive += v
			}
			if len(pq.values) != len(want) {
				t.Errorf("%s: %d queries, ir_measures %d", name, len(pq.values), len(want))
			}
			ok, exact := true, true
			for qid, w := range want {
				got, has := pq.values[qid]
				if has && got[0] != w && m.IR.Provider == "cwl_eval" && ulps(got[0], w) <= 4 {
					// cwl_eval squares with glibc's pow(x, 2.0), which is not
					// always the correctly rounded x*x of metric/cwl, and its
					// last step is numpy's BLAS dot product, whose order of
					// additions depends on the processor (metric/cwl adds
					// as the AVX-512 kernel does): 1 ulp measured.
					ulpOff[r.Measure] = true
					exact = false
					continue
				}
				if !has || got[0] != w && !(math.IsNaN(got[0]) && math.IsNaN(w)) {
					t.Errorf("%s: query %s = %v, ir_measures %v", name, qid, got, w)
					ok = false
				}
			}
			if m.IR.Sum {
				naive = math.Round(naive)
			} else {
				naive /= float64(len(r.PerQ))
			}
			if r.AllNaN {
				r.All = math.NaN()
			}
			if naive != r.All && !(math.IsNaN(naive) && math.IsNaN(r.All)) {
				t.Errorf("%s: the golden summary %v is not the mean of its values in order (%v)", name, r.All, naive)
			}
			got := res.Values[0]
			if math.IsNaN(r.All) && math.IsNaN(got) {
				// ir_measures' mean of no value (Accuracy on no query).
			} else if fmt.Sprintf("%.4f", got) != fmt.Sprintf("%.4f", r.All) && m.IR.Provider != "gdeval" && m.IR.Provider != "cwl_eval" || math.Abs(got-r.All) > 4e-16*math.Max(1, math.Abs(r.All)) {
				// gdeval's values are on a grid of 1e-5, and some of
				// cwl_eval's are fractions of small integers (BPM(T=0.5,
				// max_rel=2)@20: thirds and fifths), so that a mean may lie
				// on a 4-decimal half-way point, where the last bit of the
				// sum (in ir_measures' order, or correctly rounded here)
				// decides the print: within the ulps only (live check seed
				// 1796188729: 0.22375 here, 0.22374999999999998 there).
				// rankmetrics ir_measures adds them in ir_measures' order.
				t.Errorf("%s: summary %v, ir_measures %v", name, got, r.All)
				ok = false
			}
			switch {
			case ok && exact:
				passed++
			case ok:
				near++
			default:
				failed++
			}
		}
	}
	t.Logf("golden cases passed to the bit: %d, within 4 ulps (cwl_eval): %d (%s); not named yet: %s", passed, near,
		strings.Join(sortedKeys(ulpOff), " "), strings.Join(sortedKeys(skipped), " "))
	t.Logf("%d passed, %d failed", passed+near, failed)
}

// runIRError runs measure m on a qrels and run pair and returns Run's
// error.
func runIRError(t *testing.T, qrels, runText string, m Measure) error {
	t.Helper()
	o := options(t, "float64", "stable")
	o.Measures = []Measure{m}
	o.QrelsOnly = Keep
	rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(runText), "qrels", "run",
		runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	_, err = Run(context.Background(), rd, o)
	return err
}

// ulps returns how many float64 values lie between a and b, both positive.
func ulps(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	return slices.Sorted(maps.Keys(m))
}
