package metric

import (
	"math"
	"sort"
)

// This file holds a naive reference of TF-Ranking's metric family, written
// op for op from metrics_impl.py: every slot of the padded [B, L] batch
// takes part, the order is a comparison sort of all slots, and every
// position of a sorted [B, K] tensor adds its term, zero or not, with the
// float32 sums in Eigen's order (refSum) and subnormals flushed (refFTZ).
// The kernels share none of its code, except the discount table (checked
// against TF by TestDiscountTableMatchesTF) and the gain functions.

// refList is one list of a reference batch, padded to n slots.
type refList[T float32 | float64] struct {
	w, lab, sc []T // lab is the label after masking (0 when masked)
	raw        []T // the label as given, NaN on padding
	valid      []bool
	nvalid     int
}

// refLists pads and masks every list of tc as TF does.
func refLists[T float32 | float64](tc refCase) []refList[T] {
	n := tc.width()
	out := make([]refList[T], len(tc.labels))
	for b := range tc.labels {
		m := len(tc.labels[b])
		l := refList[T]{w: make([]T, n), lab: make([]T, n), sc: make([]T, n), raw: make([]T, n), valid: make([]bool, n)}
		for i := range n {
			l.w[i] = refFTZ(refSlotWeight[T](tc, b, i))
			l.raw[i] = T(math.NaN())
			if i < m {
				lab := refFTZ(T(stored(tc.labels[b][i], tc.f32Storage)))
				l.raw[i] = lab
				l.sc[i] = refFTZ(T(stored(tc.preds[b][i], !tc.f32Storage)))
				l.valid[i] = (tc.ragged || lab >= 0) && l.w[i] > 0
				if l.valid[i] {
					l.lab[i] = lab
					l.nvalid++
				}
			}
		}
		out[b] = l
	}
	return out
}

// refOrder returns the slots of l sorted as TF ranks them: valid items by
// score, descending, ties by the policy (relevance = label >= thr), then
// the masked slots in slot order.
func refOrder[T float32 | float64](l refList[T], ties TiePolicy, thr T) []int {
	order := make([]int, len(l.w))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, c := order[x], order[y]
		if l.valid[a] != l.valid[c] {
			return l.valid[a]
		}
		if !l.valid[a] || l.sc[a] == l.sc[c] {
			ra, rc := l.valid[a] && l.lab[a] >= thr, l.valid[c] && l.lab[c] >= thr
			switch {
			case ties == Pessimistic && l.valid[a]:
				return !ra && rc
			case ties == Optimistic && l.valid[a]:
				return ra && !rc
			}
			return false
		}
		return l.sc[a] > l.sc[c]
	})
	return order
}

// refSpec is what the reference computes for one metric.
type refSpec struct {
	kind  Kind
	topn  int
	conv  Convention
	empty EmptyPolicy // resolved
	gain  Gain
	disc  Discount
	thr   float64
}

func (s refSpec) cutoff(n int) int {
	if s.topn >= 0 && s.topn < n {
		return s.topn
	}
	return n
}

// refGain returns the gain of label l in T.
func refGain[T float32 | float64](g Gain, l T) T {
	e := newGainEval(g)
	if _, ok := any(l).(float32); ok {
		return T(e.slow32(float32(l)))
	}
	return T(e.slow64(float64(l)))
}

// refDisc returns the discounts of positions 1..k in T.
func refDisc[T float32 | float64](d Discount, k int) []T {
	out := make([]T, k)
	var z T
	if _, ok := any(z).(float32); ok {
		for i, x := range discountTable32(d, k, nil) {
			out[i] = T(x)
		}
		return out
	}
	for i, x := range discountTable64(d, k, nil) {
		out[i] = T(x)
	}
	return out
}

// refValue returns spec s's per-list value of l under the order ord and,
// for the metrics whose list weight is TF's derived one, the parts of it
// (sw, r, pw); direct is the list weight of the others. bad is true when a
// valid item's gain is NaN.
func refValue[T float32 | float64](s refSpec, l refList[T], ord []int, wl T) (val, sw, r, pw, direct T, skip, empty, bad bool) {
	f := refFTZ[T]
	n := len(l.w)
	k := s.cutoff(n)
	thr := T(s.thr)
	rel := make([]T, n)
	for i := range n {
		if l.lab[i] >= thr {
			rel[i] = 1
		}
	}
	sw = refSum(l.w)
	relTerms := make([]T, n)
	for i := range n {
		relTerms[i] = f(l.w[i] * rel[i])
	}
	tr := refSum(relTerms)
	nrel := refSum(rel)
	relWeights := func() {
		r = nrel
		if nrel != 0 {
			pw = f(tr / nrel)
		}
	}
	hits := func() T {
		xs := make([]T, k)
		for j := range k {
			xs[j] = rel[ord[j]]
		}
		return refSum(xs)
	}
	switch s.kind {
	case KindMAP:
		terms := make([]T, k)
		var cnt T
		for j := range k {
			i := ord[j]
			cnt += rel[i]
			p := f(cnt / T(j+1))
			wt := l.w[i]
			if s.conv != TFRanking {
				wt = 1
			}
			terms[j] = f(f(p*wt) * rel[i])
		}
		tp := refSum(terms)
		switch s.conv {
		case TFRanking:
			if tr != 0 {
				val = f(tp / tr)
			}
			relWeights()
			empty = nrel == 0
		default:
			// Every relevant item counts, weight 0 (judged, not retrieved) or not.
			all := int(nrel) + l.outRelevant(thr)
			empty = all == 0
			var den T
			switch s.conv {
			case TrecEval:
				den = T(all)
			case MinRK, XGBoost, XGBoostMinus:
				t := n
				if s.topn >= 0 {
					t = s.topn
				}
				den = T(min(all, t))
			case RetrievedRelevant:
				den = hits()
			}
			if den != 0 {
				val = f(tp / den)
			}
			direct = wl
		}
		if empty {
			switch s.empty {
			case EmptyOne:
				val = 1
			case EmptySkip:
				skip = true
			}
		}
	case KindMRR, KindHits:
		if k == 0 {
			val = T(math.Inf(-1))
		}
		for j := range k {
			x := rel[ord[j]]
			if s.kind == KindMRR {
				x = f(x * f(1/T(j+1)))
			}
			if j == 0 || x > val {
				val = x
			}
		}
		relWeights()
	case KindPrecision, KindRecall:
		den := nrel
		if s.kind == KindPrecision {
			t := n
			if s.topn >= 0 {
				t = s.topn
			}
			den = T(min(t, l.nvalid))
		}
		if den != 0 {
			val = f(hits() / den)
		}
		relWeights()
	case KindNDCG, KindDCG:
		g := make([]T, n)
		wg := make([]T, n)
		for i := range n {
			g[i] = refGain(s.gain, l.lab[i])
			if g[i] != g[i] && l.valid[i] {
				bad = true
			}
			wg[i] = f(l.w[i] * g[i])
		}
		d := refDisc[T](s.disc, k)
		dcgOf := func(ord []int) T {
			terms := make([]T, k)
			for j := range k {
				i := ord[j]
				terms[j] = f(f(l.w[i]*g[i]) * d[j])
			}
			return refSum(terms)
		}
		dcg := dcgOf(ord)
		val = dcg
		if s.kind == KindNDCG {
			ideal := make([]int, n)
			for i := range ideal {
				ideal[i] = i
			}
			sort.SliceStable(ideal, func(x, y int) bool {
				a, c := ideal[x], ideal[y]
				if l.valid[a] != l.valid[c] {
					return l.valid[a]
				}
				return l.valid[a] && wg[a] > wg[c]
			})
			val = 0
			if idcg := dcgOf(ideal); idcg != 0 {
				val = f(dcg / idcg)
			}
		}
		r = refSum(g)
		if r != 0 {
			pw = f(refSum(wg) / r)
		}
	case KindARP:
		wlab := make([]T, n)
		pos := make([]T, n)
		for j := range n {
			i := ord[j]
			wlab[j] = f(l.lab[i] * l.w[i])
			pos[j] = f(T(j+1) * wlab[j])
		}
		direct = refSum(wlab)
		if direct != 0 {
			val = f(refSum(pos) / direct)
		}
	case KindOPA:
		pw := make([]T, n*n)
		cp := make([]T, n*n)
		for i := range n {
			for j := range n {
				if l.valid[i] && l.valid[j] && l.lab[i] > l.lab[j] {
					pw[i*n+j] = l.w[i]
					if l.sc[i] > l.sc[j] {
						cp[i*n+j] = l.w[i]
					}
				}
			}
		}
		direct = refSum(pw)
		if direct != 0 {
			val = f(refSum(cp) / direct)
		}
	}
	return val, sw, r, pw, direct, skip, empty, bad
}

// outRelevant counts the relevant items of l that are masked by their
// weight alone: judged, not retrieved, under the non-TF conventions.
func (l refList[T]) outRelevant(thr T) int {
	c := 0
	for i := range l.w {
		if !l.valid[i] && l.raw[i] >= thr {
			c++
		}
	}
	return c
}

// refFamily returns spec s's per-list values and list weights of batch tc
// under the orders ords (one per list, as refOrder gives), and whether a
// NaN gain or an empty list under EmptyError makes the batch an error.
func refFamily[T float32 | float64](tc refCase, s refSpec, ords [][]int) (PerList, bool) {
	ls := refLists[T](tc)
	bsz := len(ls)
	val, sw, r, pw, lw := make([]T, bsz), make([]T, bsz), make([]T, bsz), make([]T, bsz), make([]T, bsz)
	skip := make([]bool, bsz)
	for b, l := range ls {
		wl := T(1)
		if tc.perList != nil {
			wl = T(tc.perList[b])
		}
		var empty, bad bool
		val[b], sw[b], r[b], pw[b], lw[b], skip[b], empty, bad = refValue(s, l, ords[b], wl)
		if bad || empty && s.empty == EmptyError {
			return PerList{}, true
		}
	}
	direct := s.kind == KindARP || s.kind == KindOPA || s.kind == KindMAP && s.conv != TFRanking
	if !direct {
		// _per_example_weights_to_per_list_weights
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
		for b := range bsz {
			lw[b] = 0
			if sw[b] > 0 {
				lw[b] = avg
				if r[b] > 0 {
					lw[b] = pw[b]
				}
			}
		}
	}
	out := PerList{Values: make([]float64, bsz), Weights: make([]float64, bsz)}
	for b := range bsz {
		if s.kind == KindDCG {
			v := T(0)
			if lw[b] != 0 {
				v = refFTZ(val[b] / lw[b])
			}
			val[b] = v
		}
		if skip[b] {
			lw[b] = 0
		}
		out.Values[b], out.Weights[b] = float64(val[b]), float64(lw[b])
	}
	return out, false
}

// refOrders returns the order of every list of tc under a deterministic
// tie policy.
func refOrders[T float32 | float64](tc refCase, ties TiePolicy, thr float64) [][]int {
	ls := refLists[T](tc)
	out := make([][]int, len(ls))
	for b, l := range ls {
		out[b] = refOrder(l, ties, T(thr))
	}
	return out
}
