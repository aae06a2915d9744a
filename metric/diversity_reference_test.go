package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// divCase is a batch of lists with t subtopic labels per item: labels[b]
// holds len(preds[b])*t values.
type divCase struct {
	labels, preds [][]float64
	weights       [][]float64 // per item, nil for none
	perList       []float64
	ragged        bool
	topn          int
	t             int
}

// randomDivBatches returns count random batches with subtopic labels in
// {-1, 0, 1, 2} (and NaN), weights 0, negative or positive, and ties.
func randomDivBatches(count int, seed uint64) []divCase {
	rng := rand.New(rand.NewPCG(seed, 7))
	labelSet := []float64{-1, 0, 0, 1, 1, 2, math.NaN()}
	weightSet := []float64{0, -0.5, 0.3, 1, 1, 2.5}
	out := make([]divCase, 0, count)
	for range count {
		dc := divCase{ragged: rng.IntN(2) == 0, t: 1 + rng.IntN(3)}
		n := rng.IntN(9)
		dc.topn = []int{NoTopN, 0, 1, 3, n, n + 2}[rng.IntN(6)]
		distinct := 1 + rng.IntN(2*n+2)
		weighted := rng.IntN(3)
		for range 1 + rng.IntN(4) {
			m := n
			if dc.ragged {
				m = rng.IntN(n + 1)
			}
			lab, sc, w := make([]float64, m*dc.t), make([]float64, m), make([]float64, m)
			for i := range lab {
				lab[i] = labelSet[rng.IntN(len(labelSet))]
			}
			for i := range m {
				sc[i] = float64(rng.IntN(distinct)) / 4
				w[i] = weightSet[rng.IntN(len(weightSet))]
			}
			dc.labels, dc.preds = append(dc.labels, lab), append(dc.preds, sc)
			switch weighted {
			case 1:
				dc.weights = append(dc.weights, w)
			case 2:
				dc.perList = append(dc.perList, weightSet[rng.IntN(len(weightSet))])
			}
		}
		out = append(out, dc)
	}
	return out
}

// inputs returns the tensors of dc, float32 storage.
func (dc divCase) inputs(t testing.TB) (labels, preds tensor.Lists, w tensor.Weights) {
	labels, preds = lists(t, dc.labels, dc.ragged, true), lists(t, dc.preds, dc.ragged, true)
	switch {
	case dc.weights != nil:
		w = tensor.PerItem(lists(t, dc.weights, dc.ragged, true))
	case dc.perList != nil:
		w = tensor.PerList(dc.perList)
	}
	return labels, preds, w
}

// refDivList is one list of a reference batch, padded to n slots, with its
// labels masked as TF's _DivRankingMetric masks them.
type refDivList[T float32 | float64] struct {
	w, sc  []T
	y      [][]T // [n][t], zero when masked
	valid  []bool
	nvalid int
}

func refDivLists[T float32 | float64](dc divCase) []refDivList[T] {
	n := 0
	for _, r := range dc.preds {
		n = max(n, len(r))
	}
	out := make([]refDivList[T], len(dc.preds))
	for b := range dc.preds {
		m := len(dc.preds[b])
		l := refDivList[T]{w: make([]T, n), sc: make([]T, n), y: make([][]T, n), valid: make([]bool, n)}
		for i := range n {
			l.y[i] = make([]T, dc.t)
			switch {
			case dc.perList != nil:
				l.w[i] = refFTZ(T(dc.perList[b]))
			case dc.weights != nil && i < m:
				l.w[i] = refFTZ(T(float32(dc.weights[b][i])))
			case dc.weights == nil:
				l.w[i] = 1
			}
			if i >= m {
				continue
			}
			l.sc[i] = refFTZ(T(float32(dc.preds[b][i])))
			valid := dc.ragged
			for t := range dc.t {
				if y := refFTZ(T(float32(dc.labels[b][i*dc.t+t]))); y >= 0 {
					valid = true
				}
			}
			if valid {
				for t := range dc.t {
					l.y[i][t] = refFTZ(T(float32(dc.labels[b][i*dc.t+t])))
				}
				l.valid[i] = true
				l.nvalid++
			}
		}
		out[b] = l
	}
	return out
}

func (l refDivList[T]) rel(i int) bool {
	return l.valid[i] && slices.ContainsFunc(l.y[i], func(y T) bool { return y >= 1 })
}

// refDivOrder sorts the slots: valid by score, descending, ties by the
// policy over relevance, then masked slots in slot order.
func refDivOrder[T float32 | float64](l refDivList[T], ties TiePolicy) []int {
	order := make([]int, len(l.w))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, z int) bool {
		a, c := order[x], order[z]
		if l.valid[a] != l.valid[c] {
			return l.valid[a]
		}
		if !l.valid[a] || l.sc[a] == l.sc[c] {
			switch {
			case ties == Pessimistic && l.valid[a]:
				return !l.rel(a) && l.rel(c)
			case ties == Optimistic && l.valid[a]:
				return l.rel(a) && !l.rel(c)
			}
			return false
		}
		return l.sc[a] > l.sc[c]
	})
	return order
}

// refDivValue returns the spec's value of l under order ord, op for op as
// TF computes it (AlphaDCG before its division by the list weight).
func refDivValue[T float32 | float64](kind Kind, topn int, alpha float64, l refDivList[T], ord []int, nt int) T {
	f := refFTZ[T]
	n := len(l.w)
	k := n
	if topn >= 0 && topn < n {
		k = topn
	}
	switch kind {
	case KindPrecisionIA:
		rel := make([]T, k)
		for j := range k {
			for _, y := range l.y[ord[j]] {
				if y >= 1 {
					rel[j]++
				}
			}
		}
		nsub := 0
		for t := range nt {
			for i := range n {
				if l.y[i][t] >= 1 {
					nsub++
					break
				}
			}
		}
		tn := n
		if topn >= 0 {
			tn = topn
		}
		den := T(min(tn, l.nvalid)) * T(nsub)
		if den == 0 {
			return 0
		}
		return f(refSum(rel) / den)
	default:
		base := T(1 - alpha)
		cum := make([]T, nt)
		d := refDisc[T](Discount{}, k)
		terms := make([]T, k)
		for j := range k {
			i := ord[j]
			gt := make([]T, nt)
			for t, y := range l.y[i] {
				gt[t] = f(y * f(T(math.Pow(float64(base), float64(cum[t])))))
				cum[t] = f(cum[t] + y)
			}
			terms[j] = f(f(l.w[i]*refSum(gt)) * d[j])
		}
		return refSum(terms)
	}
}

// refDivFamily returns the per-list values and list weights of dc under
// the given orders.
func refDivFamily[T float32 | float64](dc divCase, kind Kind, alpha float64, ords [][]int) PerList {
	ls := refDivLists[T](dc)
	bsz := len(ls)
	val, sw, r, pw := make([]T, bsz), make([]T, bsz), make([]T, bsz), make([]T, bsz)
	for b, l := range ls {
		val[b] = refDivValue(kind, dc.topn, alpha, l, ords[b], dc.t)
		n := len(l.w)
		rel, wr := make([]T, n), make([]T, n)
		for i := range n {
			if l.rel(i) {
				rel[i] = 1
			}
			wr[i] = refFTZ(l.w[i] * rel[i])
		}
		sw[b], r[b] = refSum(l.w), refSum(rel)
		if r[b] != 0 {
			pw[b] = refFTZ(refSum(wr) / r[b])
		}
	}
	nzr := make([]T, bsz)
	for b := range bsz {
		if sw[b] > 0 && r[b] > 0 {
			nzr[b] = 1
		}
	}
	c, sum := refSum(nzr), refSum(pw)
	avg := T(1)
	if c > 0 {
		avg = refFTZ(sum / c)
	}
	out := PerList{Values: make([]float64, bsz), Weights: make([]float64, bsz)}
	for b := range bsz {
		var lw T
		if sw[b] > 0 {
			lw = avg
			if r[b] > 0 {
				lw = pw[b]
			}
		}
		v := val[b]
		if kind == KindAlphaDCG {
			v = 0
			if lw != 0 {
				v = refFTZ(val[b] / lw)
			}
		}
		out.Values[b], out.Weights[b] = float64(v), float64(lw)
	}
	return out
}

// checkDivReference checks PrecisionIA and AlphaDCG in dtype d against the
// naive reference on random batches: bit for bit under the deterministic
// tie policies, one of the tie orders under Random, and for PrecisionIA
// the mean over the tie orders under Expected.
func checkDivReference[T float32 | float64](t *testing.T, d DType, tol float64) {
	n := 0
	for ci, dc := range randomDivBatches(300, 5+uint64(d)) {
		for _, kind := range []Kind{KindPrecisionIA, KindAlphaDCG} {
			for _, alpha := range []float64{0.5, 0.3} {
				if kind == KindPrecisionIA && alpha != 0.5 {
					continue
				}
				for _, ties := range []TiePolicy{Stable, Pessimistic, Optimistic, Random, Expected} {
					if ties == Expected && kind == KindAlphaDCG {
						continue
					}
					s := DefaultConfig(kind)
					s.Subtopics, s.TopN, s.Ragged, s.DType, s.Ties, s.Seed = dc.t, dc.topn, dc.ragged, d, ties, uint64(ci)
					if kind == KindAlphaDCG {
						s.Alpha = alpha
					}
					m, err := New(s)
					if err != nil {
						t.Fatal(err)
					}
					labels, preds, w := dc.inputs(t)
					got, err := m.Compute(labels, preds, w)
					if err != nil {
						t.Fatalf("case %d %s: %v", ci, kind, err)
					}
					ls := refDivLists[T](dc)
					ords := make([][]int, len(ls))
					for b, l := range ls {
						ords[b] = refDivOrder(l, ties)
					}
					want := refDivFamily[T](dc, kind, alpha, ords)
					name := fmt.Sprintf("case %d %s alpha %v %s %s", ci, kind, alpha, d, ties)
					for b := range want.Values {
						if !sameBits(got.Weights[b], want.Weights[b]) {
							t.Fatalf("%s list %d: list weight %v, reference %v\n%+v", name, b, got.Weights[b], want.Weights[b], dc)
						}
						if ties != Random && ties != Expected {
							if !sameBits(got.Values[b], want.Values[b]) {
								t.Fatalf("%s list %d: %v, reference %v\n%+v", name, b, got.Values[b], want.Values[b], dc)
							}
							continue
						}
						checkDivTieOrders(t, name, b, ls[b], kind, dc.topn, alpha, dc.t, ties, got.Values[b], want.Weights[b], tol)
					}
					n++
				}
			}
		}
	}
	if n < 2000 {
		t.Fatalf("only %d comparisons ran", n)
	}
}

// checkDivTieOrders checks one list's value under Random (one of the tie
// orders) or Expected (their mean).
func checkDivTieOrders[T float32 | float64](t *testing.T, name string, b int, l refDivList[T], kind Kind, topn int, alpha float64, nt int, ties TiePolicy, got, lw, tol float64) {
	base := refDivOrder(l, Stable)
	var vals []float64
	var groups [][2]int
	count := 1
	for g := 0; g < l.nvalid; {
		e := g + 1
		for e < l.nvalid && l.sc[base[e]] == l.sc[base[g]] {
			e++
		}
		for j := 2; j <= e-g; j++ {
			count *= j
		}
		groups = append(groups, [2]int{g, e})
		g = e
	}
	if count > 720 {
		return
	}
	ord := slices.Clone(base)
	var rec func(gi int)
	rec = func(gi int) {
		if gi == len(groups) {
			v := float64(refDivValue(kind, topn, alpha, l, ord, nt))
			if kind == KindAlphaDCG {
				dcg := T(v)
				v = 0
				if lw != 0 {
					v = float64(refFTZ(dcg / T(lw)))
				}
			}
			vals = append(vals, v)
			return
		}
		permute(ord[groups[gi][0]:groups[gi][1]], func() { rec(gi + 1) })
	}
	rec(0)
	if ties == Random {
		if !slices.ContainsFunc(vals, func(v float64) bool { return sameBits(v, got) }) {
			t.Fatalf("%s list %d: %v is the value of no tie order (%v)\n%+v", name, b, got, vals, l)
		}
		return
	}
	var mean float64
	for _, v := range vals {
		mean += v
	}
	mean /= float64(len(vals))
	if math.Abs(got-mean) > tol*math.Max(1, math.Abs(mean)) {
		t.Fatalf("%s list %d: %v, mean over %d tie orders %v", name, b, got, len(vals), mean)
	}
}
