package evaluate

import (
	"context"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

func TestParseMeasureConvention(t *testing.T) {
	tests := []struct {
		in   string
		name string
		topn int
		conv metric.Convention
		err  string
	}{
		{"map:treceval", "map:treceval", metric.NoTopN, metric.TrecEval, ""},
		{" map@10:minrk ", "map@10:minrk", 10, metric.MinRK, ""},
		{"MAP@10:minrk", "", 0, 0, "a convention follows map or map@K"},
		{"map@5:xgboost-", "map@5:xgboost-", 5, metric.XGBoostMinus, ""},
		{"map@5:trec", "", 0, 0, `convention "trec" is not one of`},
		{"ndcg@5:treceval", "", 0, 0, "a convention follows map or map@K"},
		{"map@x:treceval", "", 0, 0, "the cutoff after @ must be an integer"},
	}
	for _, tc := range tests {
		m, err := measure.Parse(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("measure.Parse(%q): error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || m.Name != tc.name || m.TopN != tc.topn || m.Family == nil || m.Family.Kind != metric.KindMAP || m.Family.Convention != tc.conv {
			t.Errorf("measure.Parse(%q) = %+v, %v; want %s, topn %d, MAP under %s", tc.in, m, err, tc.name, tc.topn, tc.conv)
		}
	}
}

// TestRunConventionTREC evaluates MAP under trec_eval's convention on the
// TREC fixture (see evaluate_test.go), by hand: the denominator counts
// every judged relevant document, retrieved or not, whatever the cutoff.
//
//	q1: relevant at ranks 1 and 3, R = 2: map 5/6, map@2 (1/1)/2 = 1/2.
//	q2: relevant at rank 2, d9 missed, R = 2: map (1/2)/2 = 1/4, map@2 1/4.
func TestRunConventionTREC(t *testing.T) {
	o := options(t, "float64", "stable", "map:treceval", "map@2:treceval", "map_cut_2")
	res, pq := run(t, trecDocsReader(t, fixtureQrels, fixtureRun), o)
	want := map[string][]float64{"q1": {5.0 / 6, 0.5, 0.5}, "q2": {0.25, 0.25, 0.25}}
	for q, w := range want {
		for m := range w {
			if math.Abs(pq.values[q][m]-w[m]) > 1e-15 {
				t.Errorf("%s %s = %v, want %v", q, o.Measures[m].Name, pq.values[q][m], w[m])
			}
		}
	}
	for m := range o.Measures {
		if mean := (want["q1"][m] + want["q2"][m]) / 2; math.Abs(res.Values[m]-mean) > 1e-15 {
			t.Errorf("%s = %v, want %v", o.Measures[m].Name, res.Values[m], mean)
		}
	}
}

// trecDocsReader is trecReader keeping document ids, which trec_eval's
// measures need.
func trecDocsReader(t *testing.T, qrels, run string) runio.Reader {
	t.Helper()
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{KeepDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// planQueries reads the queries of a TREC pair with document ids, as eval
// reads them for trec_eval's measures.
func planQueries(t *testing.T, qrels, run string) []runio.Query {
	t.Helper()
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{KeepDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []runio.Query
	for {
		var q runio.Query
		if err := r.Next(&q); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		if q.Match == runio.MatchBoth {
			out = append(out, q)
		}
	}
}

// TestPlanExactTotalsOrderFree evaluates random TREC queries one per batch
// (as the Beam pipeline does), adds them to exact totals split at random
// and merged in random orders, and checks the values against an
// independent big.Rat reference from the per-query values: Σ v·w / Σ w for
// a TF-Ranking measure (v·w rounded to the dtype first) rounded once to
// the dtype, and for a trec_eval mean Σ v / n rounded once to float64.
func TestPlanExactTotalsOrderFree(t *testing.T) {
	qrels, runText, _ := randomTREC(17, 150, -1)
	qs := planQueries(t, qrels, runText)
	for _, d := range []metric.DType{metric.Float64, metric.Float32} {
		t.Run(d.String(), func(t *testing.T) {
			var ms []Measure
			for _, n := range []string{"map", "ndcg@5", "map@3:treceval", "mrr", "P_5", "ndcg_cut_10", "num_rel_ret"} {
				m, err := measure.Parse(n)
				if err != nil {
					t.Fatal(err)
				}
				ms = append(ms, m)
			}
			cfg := metric.DefaultConfig(metric.KindMAP)
			cfg.DType, cfg.Ties, cfg.Ragged, cfg.Accumulation = d, metric.Stable, true, metric.Exact
			p, err := NewPlan(ms, PlanOptions{Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			b := p.NewBatch()
			vals := make([][]float64, len(qs)) // per query, value per measure
			wts := make([][]float64, len(qs))
			for i := range qs {
				b.Reset()
				if err := b.Add(&qs[i]); err != nil {
					t.Fatal(err)
				}
				if err := b.Compute(uint64(i)); err != nil {
					t.Fatal(err)
				}
				for m := range ms {
					vals[i] = append(vals[i], b.Value(m, 0))
					wts[i] = append(wts[i], b.Weight(m, 0))
				}
			}
			want := make([]float64, len(ms))
			for m, x := range ms {
				total, count := new(big.Rat), new(big.Rat)
				for i := range qs {
					v, w := vals[i][m], wts[i][m]
					p := v * w
					if d == metric.Float32 && !x.IsTrecEval() {
						p = float64(float32(v) * float32(w))
					}
					total.Add(total, new(big.Rat).SetFloat64(p))
					count.Add(count, new(big.Rat).SetFloat64(w))
				}
				switch {
				case x.Name == "num_rel_ret": // trec_eval sums it
					want[m], _ = total.Float64()
				case x.IsTrecEval() || d == metric.Float64:
					want[m], _ = new(big.Rat).Quo(total, count).Float64()
				default:
					w32, _ := new(big.Rat).Quo(total, count).Float32()
					want[m] = float64(w32)
				}
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for trial := range 10 {
				parts := make([]*Totals, 1+rng.IntN(7))
				for k := range parts {
					if parts[k], err = p.NewTotals(); err != nil {
						t.Fatal(err)
					}
				}
				for _, i := range rng.Perm(len(qs)) {
					tt := parts[rng.IntN(len(parts))]
					for m := range ms {
						if err := tt.AddValue(m, vals[i][m], wts[i][m]); err != nil {
							t.Fatal(err)
						}
					}
				}
				for len(parts) > 1 {
					k := rng.IntN(len(parts) - 1)
					if rng.IntN(2) == 0 { // a trip through the wire form
						st, err := parts[k].States()
						if err != nil {
							t.Fatal(err)
						}
						for m, x := range ms {
							want := cfg.DType
							if x.IsTrecEval() {
								want = metric.Float64
							}
							if st[m].Config.DType != want {
								t.Fatalf("state of %s records dtype %v, want %v", x.Name, st[m].Config.DType, want)
							}
						}
						fresh, _ := p.NewTotals()
						if err := fresh.SetStates(st); err != nil {
							t.Fatal(err)
						}
						parts[k] = fresh
					}
					if err := parts[k].Merge(parts[k+1]); err != nil {
						t.Fatal(err)
					}
					parts = append(parts[:k+1], parts[k+2:]...)
				}
				got := parts[0].Values()
				for m := range ms {
					if got[m] != want[m] {
						t.Fatalf("trial %d: %s = %v (%#x), reference %v (%#x)", trial, ms[m].Name, got[m], math.Float64bits(got[m]), want[m], math.Float64bits(want[m]))
					}
				}
			}

			// Run with --batch 1 and exact accumulation gives the same bits,
			// overall and per query.
			o := Options{Measures: ms, Config: cfg, Batch: 1, Workers: 3}
			res, pq := run(t, trecDocsReader(t, qrels, runText), o)
			for m := range ms {
				if res.Values[m] != want[m] {
					t.Errorf("Run: %s = %v, reference %v", ms[m].Name, res.Values[m], want[m])
				}
			}
			for i, q := range qs {
				for m := range ms {
					if g := pq.values[q.QID][m]; g != vals[i][m] {
						t.Errorf("Run: %s %s = %v, batch of one %v", q.QID, ms[m].Name, g, vals[i][m])
					}
				}
			}
		})
	}
}

func TestPlanErrors(t *testing.T) {
	cfg := metric.DefaultConfig(metric.KindMAP)
	if _, err := NewPlan(nil, PlanOptions{Config: cfg}); err == nil || !strings.Contains(err.Error(), "no measure") {
		t.Errorf("no measure: %v", err)
	}
	p, err := NewPlan([]Measure{measure.MAP()}, PlanOptions{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.NewBatch().Compute(0); err == nil {
		t.Error("Compute on an empty batch: no error")
	}
	tt, _ := p.NewTotals()
	if err := tt.Merge(tt); err == nil {
		t.Error("Merge of sequential totals: no error")
	}
	if err := tt.AddValue(0, 1, 1); err == nil {
		t.Error("AddValue on sequential totals: no error")
	}
	cfg.Accumulation = metric.Exact
	q, _ := NewPlan([]Measure{measure.MAP()}, PlanOptions{Config: cfg})
	qt, _ := q.NewTotals()
	pt, _ := p.NewTotals()
	if err := qt.Merge(pt); err == nil {
		t.Error("Merge of totals of another plan: no error")
	}
	if err := qt.AddValue(1, 1, 1); err == nil {
		t.Error("AddValue of measure 1 of 1: no error")
	}
}

// TestBatchAddComputeAllocs checks that a steady-state update of a batch
// allocates nothing per query once its buffers have grown.
func TestBatchAddComputeAllocs(t *testing.T) {
	qs := randomQueries(8, 50, false)
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.Ties, cfg.Ragged, cfg.Accumulation = metric.Stable, true, metric.Exact
	ms := []Measure{measure.MAP(), measure.MAPAt(5)}
	p, err := NewPlan(ms, PlanOptions{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	b := p.NewBatch()
	tt, _ := p.NewTotals()
	step := func() {
		for i := range qs {
			b.Reset()
			if err := b.Add(&qs[i]); err != nil {
				t.Fatal(err)
			}
			if err := b.Compute(1); err != nil {
				t.Fatal(err)
			}
			if err := tt.Add(b); err != nil {
				t.Fatal(err)
			}
		}
	}
	step()
	if n := testing.AllocsPerRun(5, step) / float64(len(qs)); n > 0 {
		t.Errorf("%v allocations per query", n)
	}
}

// TestTrecEvalGrouping: trec_eval measures share one evaluator, the cutoffs
// of one measure joined, in time linear in their number (4000 P_k names
// took 4.7 s when each new name was tried against every group); a measure
// with gain parameters takes one of its own, since trec_eval reads one
// set of parameters per measure.
func TestTrecEvalGrouping(t *testing.T) {
	var names []string
	for k := 1; k <= 4000; k++ {
		names = append(names, fmt.Sprintf("P_%d", k))
	}
	names = append(names, "ndcg_cut_5", "recip_rank", "ndcg", "P_10")
	var ms []Measure
	for _, n := range names {
		m, err := measure.Parse(n)
		if err != nil {
			t.Fatal(err)
		}
		ms = measure.Append(ms, m)
	}
	spec, err := measure.ParseList("ndcg.0=0,1=1,2=3")
	if err != nil {
		t.Fatal(err)
	}
	ms = append(ms, spec...)
	p, err := NewPlan(ms, PlanOptions{Config: metric.DefaultConfig(metric.KindMAP)})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(p.trec.evs); got != 2 {
		t.Fatalf("%d evaluators, want 2 (one shared, one for ndcg's gains): %v", got, p.trec.specs)
	}
	for s, m := range ms {
		r := p.trec.refs[s]
		if got := p.trec.evs[r.ev].Names()[r.val]; got != m.Name && !(m.TrecEval == "ndcg.0=0,1=1,2=3" && got == "ndcg") {
			t.Fatalf("measure %s reads value %s", m.Name, got)
		}
	}
	if p.trec.refs[len(ms)-1].ev != 1 || p.trec.refs[len(ms)-2].ev != 0 {
		t.Errorf("ndcg with gains and ndcg without share an evaluator")
	}
}
