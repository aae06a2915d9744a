package beam

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// ratReference is the overall value computed with big.Rat, independently of
// the exact accumulator: Σ AP·w / Σ w, where AP·w is rounded to the
// measure's dtype as the metric's update does, rounded once to float64.
func ratReference(values []QueryValue, i int, d metric.DType) float64 {
	total, count := new(big.Rat), new(big.Rat)
	for _, v := range values {
		p := v.Value[i] * v.Weight[i]
		if d == metric.Float32 {
			p = float64(float32(v.Value[i]) * float32(v.Weight[i]))
		}
		total.Add(total, new(big.Rat).SetFloat64(p))
		count.Add(count, new(big.Rat).SetFloat64(v.Weight[i]))
	}
	if count.Sign() == 0 {
		return 0
	}
	q := new(big.Rat).Quo(total, count)
	if d == metric.Float32 {
		// A float32 measure's value is the exact mean rounded once to
		// float32, as the metric's own Result under Exact accumulation.
		f, _ := q.Float32()
		return float64(f)
	}
	f, _ := q.Float64()
	return f
}

// combineRandomly adds values to a random number of accumulators in a
// random order, passes some accumulators through the coder, and merges
// them in a random tree.
func combineRandomly(t *testing.T, fn *OverallFn, values []QueryValue, rng *rand.Rand) Report {
	t.Helper()
	k := 1 + rng.IntN(40)
	accs := make([]Accumulator, k)
	for i := range accs {
		accs[i] = fn.CreateAccumulator()
	}
	for _, i := range rng.Perm(len(values)) {
		j := rng.IntN(k)
		var err error
		if accs[j], err = fn.AddInput(accs[j], values[i]); err != nil {
			t.Fatal(err)
		}
	}
	for len(accs) > 1 {
		i, j := rng.IntN(len(accs)), rng.IntN(len(accs)-1)
		if j >= i {
			j++
		}
		a, b := accs[i], accs[j]
		if rng.IntN(3) == 0 { // a trip through Beam's coder
			enc, err := encodeAccumulator(a)
			if err != nil {
				t.Fatal(err)
			}
			if a, err = decodeAccumulator(enc); err != nil {
				t.Fatal(err)
			}
		}
		m, err := fn.MergeAccumulators(a, b)
		if err != nil {
			t.Fatal(err)
		}
		accs[i] = m
		accs = append(accs[:j], accs[j+1:]...)
	}
	r, err := fn.ExtractOutput(accs[0])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMergeOrderFree checks that the overall value is the same, to the bit,
// for random splits of the queries over accumulators and random merge
// orders, and equals the big.Rat reference, with weights spanning many
// orders of magnitude so that a floating-point sum would depend on the
// order.
func TestMergeOrderFree(t *testing.T) {
	for _, d := range []metric.DType{metric.Float64, metric.Float32} {
		t.Run(d.String(), func(t *testing.T) { testMergeOrderFree(t, d) })
	}
}

func testMergeOrderFree(t *testing.T, d metric.DType) {
	ms := []metric.Config{cfg("map", metric.NoTopN, d, metric.Stable, true), cfg("map@5", 5, d, metric.Stable, true)}
	fn, err := NewOverallFn(ms)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]QueryValue, 3000)
	var items int64
	for i := range values {
		ap, ap5 := rng.Float64(), rng.Float64()
		w := math.Ldexp(1+rng.Float64(), rng.IntN(80)-40)
		if d == metric.Float32 {
			ap, ap5, w = float64(float32(ap)), float64(float32(ap5)), float64(float32(w))
		}
		values[i] = QueryValue{QID: fmt.Sprint(i), Value: []float64{ap, ap5}, Weight: []float64{w, w},
			Counts: Counts{Queries: 1, Items: int64(i % 7)}}
		items += int64(i % 7)
	}
	want := []float64{ratReference(values, 0, d), ratReference(values, 1, d)}
	for trial := range 30 {
		r := combineRandomly(t, fn, values, rng)
		for i := range ms {
			if r.Measures[i].Value != want[i] {
				t.Fatalf("trial %d: %s = %v (%x), want %v (%x)", trial, ms[i].Name, r.Measures[i].Value,
					math.Float64bits(r.Measures[i].Value), want[i], math.Float64bits(want[i]))
			}
		}
		if r.Counts.Queries != int64(len(values)) || r.Counts.Items != items {
			t.Fatalf("trial %d: counts %+v", trial, r.Counts)
		}
	}
	// Commutativity of a single merge.
	a, b := fn.CreateAccumulator(), fn.CreateAccumulator()
	for i, v := range values {
		if i%2 == 0 {
			a, _ = fn.AddInput(a, v)
		} else {
			b, _ = fn.AddInput(b, v)
		}
	}
	// The exact sums only: the moments of the intervals merge
	// commutatively up to rounding (TestIntervalMergeOrder).
	ab, ba := mustMerge(t, fn, clone(t, a), clone(t, b)), mustMerge(t, fn, clone(t, b), clone(t, a))
	ab.ivs, ba.ivs = nil, nil
	eab, _ := encodeAccumulator(ab)
	eba, _ := encodeAccumulator(ba)
	if string(eab) != string(eba) {
		t.Error("merge(a, b) and merge(b, a) encode differently")
	}
}

func clone(t *testing.T, a Accumulator) Accumulator {
	t.Helper()
	b, err := encodeAccumulator(a)
	if err != nil {
		t.Fatal(err)
	}
	c, err := decodeAccumulator(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustMerge(t *testing.T, fn *OverallFn, a, b Accumulator) Accumulator {
	t.Helper()
	m, err := fn.MergeAccumulators(a, b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOverallEqualsMetric checks the CombineFn against the metric itself:
// metric.MeanAveragePrecision with Exact accumulation, one Update per
// query, over generated weighted lists, in both dtypes and for several tie
// policies and cutoffs.
func TestOverallEqualsMetric(t *testing.T) {
	for _, d := range []metric.DType{metric.Float32, metric.Float64} {
		for _, ties := range []metric.TiePolicy{metric.Stable, metric.Expected, metric.Pessimistic} {
			t.Run(fmt.Sprintf("%s/%s", d, ties), func(t *testing.T) {
				testOverallEqualsMetric(t, []metric.Config{cfg("map", metric.NoTopN, d, ties, false), cfg("map@3", 3, d, ties, false)})
			})
		}
	}
}

func testOverallEqualsMetric(t *testing.T, ms []metric.Config) {
	rng := rand.New(rand.NewPCG(5, 6))
	lists := make([]List, 400)
	for i := range lists {
		n := 1 + rng.IntN(12) // empty lists are a special case of the Evaluator, tested apart
		l := List{Query: Query{QID: fmt.Sprint(i), Labels: make([]float64, n), Scores: make([]float64, n), Weights: make([]float64, n)}}
		for j := range n {
			l.Labels[j] = float64(rng.IntN(3))
			l.Scores[j] = float64(rng.IntN(5)) // ties
			l.Weights[j] = float64(rng.IntN(9)) / 4
		}
		lists[i] = l
	}
	ev, err := NewEvaluator(ms)
	if err != nil {
		t.Fatal(err)
	}
	values := make([]QueryValue, len(lists))
	for i := range lists {
		if values[i], err = ev.Eval(&lists[i]); err != nil {
			t.Fatal(err)
		}
	}
	fn, err := NewOverallFn(ms)
	if err != nil {
		t.Fatal(err)
	}
	got := combineRandomly(t, fn, values, rng)
	for i, c := range ms {
		c.Accumulation = metric.Exact
		m, err := metric.New(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lists {
			n := len(l.Scores)
			lab, _ := tensor.Dense(append(make([]float64, 0, n), l.Labels...), 1, n)
			sc, _ := tensor.Dense(append(make([]float64, 0, n), l.Scores...), 1, n)
			w, _ := tensor.Dense(append(make([]float64, 0, n), l.Weights...), 1, n)
			if err := m.Update(lab, sc, tensor.PerItem(w)); err != nil {
				t.Fatal(err)
			}
		}
		if want := m.Result(); got.Measures[i].Value != want {
			t.Errorf("%s: CombineFn %v, metric %v", c.Name, got.Measures[i].Value, want)
		}
		// The state in the report restores the same value in a metric.
		m2, err := metric.New(got.Measures[i].State.Config)
		if err != nil {
			t.Fatal(err)
		}
		if err := m2.SetState(got.Measures[i].State); err != nil {
			t.Fatal(err)
		}
		if m2.Result() != got.Measures[i].Value {
			t.Errorf("%s: state gives %v, report %v", c.Name, m2.Result(), got.Measures[i].Value)
		}
	}
}

func TestOverallEmptyAndErrors(t *testing.T) {
	fn, err := NewOverallFn([]metric.Config{cfg("map", metric.NoTopN, metric.Float64, metric.Stable, true)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := fn.ExtractOutput(fn.CreateAccumulator())
	if err != nil || r.Measures[0].Value != 0 || r.Measures[0].Name != "map" {
		t.Errorf("empty: %+v, %v; want map = 0", r, err)
	}
	if _, err := fn.AddInput(fn.CreateAccumulator(), QueryValue{QID: "q", Value: []float64{1, 2}, Weight: []float64{1, 1}}); err == nil {
		t.Error("AddInput with 2 values for 1 measure: no error")
	}
	if _, err := decodeAccumulator([]byte(`{"measures":[{"exact_total":"xyz","exact_count":"0"}],"intervals":[{"n":0,"mean":"0","m2":"0"}]}`)); err == nil {
		t.Error("decoding a bad total: no error")
	}
	if _, err := decodeAccumulator([]byte(`{"measures":[{"exact_total":"0","exact_count":"0"}]}`)); err == nil {
		t.Error("decoding no interval state: no error")
	}
	if _, err := decodeAccumulator([]byte(`{"measures":[{"exact_total":"0","exact_count":"0"}],"intervals":[{"n":2,"mean":"x","m2":"0"}]}`)); err == nil {
		t.Error("decoding a bad mean: no error")
	}
	if _, err := decodeAccumulator([]byte(`{"measures":[{"exact_total":"0","exact_count":"0"}],"intervals":[{"n":0,"mean":"0","m2":"0"}]}`)); err != nil {
		t.Errorf("decoding an empty accumulator: %v", err)
	}
}

func TestCountsCheck(t *testing.T) {
	ok := Counts{Records: 10, Rows: 8, ParseErrors: 2, Items: 5, DuplicatesDropped: 1, DeadGroupRows: 2, DeadLetters: 4}
	if err := ok.Check(false); err != nil {
		t.Errorf("consistent counts: %v", err)
	}
	for _, bad := range []Counts{
		{Records: 10, Rows: 8},
		{Records: 8, Rows: 8, Items: 7},
		{Records: 8, Rows: 8, Items: 8, DeadLetters: 1},
	} {
		if err := bad.Check(false); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	trec := Counts{Records: 9, Rows: 4, QrelsRows: 5, Items: 4, UnjudgedItems: 1, UnrankedJudged: 2}
	if err := trec.Check(true); err != nil {
		t.Errorf("TREC counts: %v", err)
	}
	trec.UnrankedJudged = 1
	if err := trec.Check(true); err == nil {
		t.Error("TREC counts off by one: no error")
	}
}
