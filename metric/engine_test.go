package metric

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// famTestSpecs returns the metrics the kernel tests run, with cutoff topn
// where the metric takes one.
func famTestSpecs(t testing.TB, topn int) []Config {
	plus1, err := NewGain("plus1", func(l float64) float64 { return l + 1 })
	if err != nil {
		t.Fatal(err)
	}
	sqrtDisc, err := NewDiscount("invsqrt", func(r float64) float64 { return 1 / math.Sqrt(r) })
	if err != nil {
		t.Fatal(err)
	}
	var out []Config
	add := func(k Kind, opts ...Option) {
		s := DefaultConfig(k)
		if k.takesTopN() {
			s.TopN = topn
		}
		for _, o := range opts {
			if err := o(&s); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, s)
	}
	add(KindMAP)
	for c := TrecEval; c < conventionCount; c++ {
		add(KindMAP, WithConvention(c))
	}
	add(KindMAP, WithConvention(MinRK), WithRelevance(2))
	add(KindMAP, WithEmpty(EmptyOne))
	add(KindMAP, WithEmpty(EmptySkip))
	add(KindMRR)
	add(KindHits)
	add(KindPrecision)
	add(KindRecall)
	add(KindNDCG)
	add(KindNDCG, WithGain(IdentityGain()), WithDiscount(InverseDiscount()))
	add(KindNDCG, WithGain(plus1))
	add(KindDCG)
	add(KindDCG, WithGain(plus1), WithDiscount(sqrtDisc))
	add(KindARP)
	add(KindOPA)
	return out
}

// refSpecOf returns what the reference needs of s.
func refSpecOf(s Config) refSpec {
	return refSpec{kind: s.Kind, topn: s.TopN, conv: s.Convention, empty: s.Empty.resolve(s.Convention),
		gain: s.Gain, disc: s.Discount, thr: s.threshold()}
}

// binaryWeights returns tc with per-item weights made 0 or 1, as the
// conventions other than TFRanking take them.
func binaryWeights(tc refCase) refCase {
	if tc.weights == nil {
		return tc
	}
	out := tc
	out.weights = make([][]float64, len(tc.weights))
	for b, row := range tc.weights {
		out.weights[b] = make([]float64, len(row))
		for i, x := range row {
			if x > 0 {
				out.weights[b][i] = 1
			}
		}
	}
	return out
}

// famCompute runs a fresh metric with settings s on tc.
func famCompute(t testing.TB, tc refCase, s Config) (PerList, error) {
	t.Helper()
	s.Ragged = tc.ragged
	m, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	labels, preds, w := caseInputs(t, tc)
	return m.Compute(labels, preds, w)
}

// sameBits reports whether a and b are the same float, NaN included.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b
}

// checkFamilyReference checks every metric of the family, in dtype d,
// against the naive reference on random batches: bit for bit under the
// deterministic tie policies, against the mean over every tie order under
// Expected, and as one of the possible tie orders under Random.
func checkFamilyReference[T float32 | float64](t *testing.T, d DType, tol float64) {
	n := 0
	for ci, tc0 := range randomBatches(150, 11+int64(d)) {
		for _, s := range famTestSpecs(t, tc0.topn) {
			tc := tc0
			if s.Kind == KindMAP && s.Convention != TFRanking {
				tc = binaryWeights(tc)
			}
			s.DType = d
			rs := refSpecOf(s)
			for _, ties := range []TiePolicy{Stable, Pessimistic, Optimistic, Expected, Random} {
				if ties == Expected && s.Kind == KindMAP && s.Convention == RetrievedRelevant {
					continue
				}
				s.Ties, s.Seed = ties, uint64(ci)
				name := fmt.Sprintf("case %d %s %s %s", ci, s.Name, s.describe(), ties)
				got, err := famCompute(t, tc, s)
				var want PerList
				var bad bool
				switch ties {
				case Stable, Pessimistic, Optimistic:
					want, bad = refFamily[T](tc, rs, refOrders[T](tc, ties, rs.thr))
				default:
					want, bad = refFamily[T](tc, rs, refOrders[T](tc, Stable, rs.thr))
				}
				if bad != (err != nil) {
					t.Fatalf("%s: error %v, reference says error %v\n%+v", name, err, bad, tc)
				}
				if bad {
					continue
				}
				n++
				for b := range want.Values {
					if s.Kind == KindARP && ties == Random {
						// ARP's list weight adds in rank order: a random order may round differently.
						if math.Abs(got.Weights[b]-want.Weights[b]) > tol*math.Max(1, math.Abs(want.Weights[b])) {
							t.Fatalf("%s list %d: list weight %v, reference %v\n%+v", name, b, got.Weights[b], want.Weights[b], tc)
						}
						continue
					}
					if !sameBits(got.Weights[b], want.Weights[b]) {
						t.Fatalf("%s list %d: list weight %v, reference %v\n%+v", name, b, got.Weights[b], want.Weights[b], tc)
					}
				}
				switch ties {
				case Stable, Pessimistic, Optimistic:
					for b := range want.Values {
						if !sameBits(got.Values[b], want.Values[b]) {
							t.Fatalf("%s list %d: %v, reference %v\n%+v", name, b, got.Values[b], want.Values[b], tc)
						}
					}
				default:
					checkTieOrders[T](t, name, tc, rs, ties, got, want, tol)
				}
			}
		}
	}
	if n < 10000 {
		t.Fatalf("only %d comparisons ran", n)
	}
}

// checkTieOrders checks each list's value under Expected against the mean
// of the reference over every order of its ties, and under Random that it
// is the value of one of those orders. Lists with too many orders are
// skipped.
func checkTieOrders[T float32 | float64](t *testing.T, name string, tc refCase, s refSpec, ties TiePolicy, got, stable PerList, tol float64) {
	ls := refLists[T](tc)
	for b, l := range ls {
		var vals []float64
		ok := tieOrders(l, 720, func(ord []int) {
			v, _, _, _, _, _, _, _ := refValue(s, l, ord, 1)
			x := float64(v)
			if s.kind == KindDCG {
				x = 0
				if lw := stable.Weights[b]; lw != 0 {
					x = float64(refFTZ(v / T(lw)))
				}
			}
			vals = append(vals, x)
		})
		if !ok {
			continue
		}
		if ties == Random {
			if !slices.ContainsFunc(vals, func(v float64) bool { return sameBits(v, got.Values[b]) }) {
				t.Fatalf("%s list %d: %v is the value of no tie order (%v)\n%+v", name, b, got.Values[b], vals, tc)
			}
			continue
		}
		var mean float64
		for _, v := range vals {
			mean += v
		}
		mean /= float64(len(vals))
		if math.IsInf(mean, 0) || mean != mean {
			if !sameBits(mean, got.Values[b]) {
				t.Fatalf("%s list %d: %v, mean over tie orders %v\n%+v", name, b, got.Values[b], mean, tc)
			}
			continue
		}
		if math.Abs(got.Values[b]-mean) > tol*math.Max(1, math.Abs(mean)) {
			t.Fatalf("%s list %d: %v, mean over %d tie orders %v\n%+v", name, b, got.Values[b], len(vals), mean, tc)
		}
	}
}

// tieOrders calls f with every order of the slots of l that ranks valid
// items by score, descending, in any order within a tie, then the masked
// slots in slot order. It returns false, calling nothing, when there are
// more than limit orders.
func tieOrders[T float32 | float64](l refList[T], limit int, f func([]int)) bool {
	base := refOrder(l, Stable, 1)
	var groups [][2]int
	count := 1
	for g := 0; g < l.nvalid; {
		e := g + 1
		for e < l.nvalid && l.sc[base[e]] == l.sc[base[g]] {
			e++
		}
		for j := 2; j <= e-g; j++ {
			count *= j
			if count > limit {
				return false
			}
		}
		groups = append(groups, [2]int{g, e})
		g = e
	}
	ord := slices.Clone(base)
	var rec func(gi int)
	rec = func(gi int) {
		if gi == len(groups) {
			f(ord)
			return
		}
		g, e := groups[gi][0], groups[gi][1]
		permute(ord[g:e], func() { rec(gi + 1) })
	}
	rec(0)
	return true
}

// permute calls f with xs in every order (Heap's algorithm), leaving xs
// as it was.
func permute(xs []int, f func()) {
	orig := slices.Clone(xs)
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			f()
			return
		}
		for i := range k - 1 {
			gen(k - 1)
			if k%2 == 0 {
				xs[i], xs[k-1] = xs[k-1], xs[i]
			} else {
				xs[0], xs[k-1] = xs[k-1], xs[0]
			}
		}
		gen(k - 1)
	}
	gen(len(xs))
	copy(xs, orig)
}

// checkFamilyAllocs fails when a steady-state Update of a suite of every
// metric allocates.
func checkFamilyAllocs(t *testing.T, d DType) {
	tcs := randomBatches(30, 7)
	for _, ties := range []TiePolicy{Random, Stable, Pessimistic, Optimistic, Expected} {
		for i, tc := range tcs {
			var sets []Config
			for _, s := range famTestSpecs(t, tc.topn) {
				if s.Kind == KindMAP && (s.Convention != TFRanking || s.Empty != EmptyDefault) {
					continue // they need 0/1 item weights or change the tie rules
				}
				s.DType, s.Ties, s.Ragged = d, ties, tc.ragged
				sets = append(sets, s)
			}
			var f family
			if err := f.init(sets); err != nil {
				t.Fatal(err)
			}
			labels, preds, w := caseInputs(t, tc)
			if err := f.Update(labels, preds, w); err != nil {
				continue // a NaN gain
			}
			allocs := testing.AllocsPerRun(10, func() {
				if err := f.Update(labels, preds, w); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Fatalf("%s ties %s case %d: %v allocations per update, want 0", d, ties, i, allocs)
			}
		}
		for i, dc := range randomDivBatches(20, 3) {
			var sets []Config
			for _, k := range []Kind{KindPrecisionIA, KindAlphaDCG} {
				if k == KindAlphaDCG && ties == Expected {
					continue
				}
				s := DefaultConfig(k)
				s.Subtopics, s.TopN, s.DType, s.Ties, s.Ragged = dc.t, dc.topn, d, ties, dc.ragged
				sets = append(sets, s)
			}
			var f family
			if err := f.init(sets); err != nil {
				t.Fatal(err)
			}
			labels, preds, w := dc.inputs(t)
			if err := f.Update(labels, preds, w); err != nil {
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(10, func() {
				if err := f.Update(labels, preds, w); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Fatalf("%s ties %s subtopic case %d: %v allocations per update, want 0", d, ties, i, allocs)
			}
		}
	}
}
