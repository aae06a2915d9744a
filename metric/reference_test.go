package metric

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// This file holds a naive reference implementation of TF-Ranking's MAP,
// written from the pseudocode of tfr_map_semantics.md, op for op: every slot
// of the padded list takes part, the order is a comparison sort of all
// slots, and every position adds its term, zero or not. The kernels share
// none of its code.

// refCase is one batch of lists with its metric options.
type refCase struct {
	labels, preds [][]float64
	weights       [][]float64 // per item, nil for none
	perList       []float64   // per list, nil for none
	ragged        bool
	topn          int
	f32Storage    bool
}

func (tc refCase) width() int {
	n := 0
	for _, r := range tc.labels {
		n = max(n, len(r))
	}
	return n
}

// stored returns x as the tensor holds it: rounded to float32 when the
// storage is float32.
func stored(x float64, f32 bool) float64 {
	if f32 {
		return float64(float32(x))
	}
	return x
}

// refSlotWeight returns the weight of slot i of list b as TF broadcasts it.
func refSlotWeight[T float32 | float64](tc refCase, b, i int) T {
	switch {
	case tc.perList != nil:
		return T(tc.perList[b])
	case tc.weights != nil:
		if i < len(tc.weights[b]) {
			return T(stored(tc.weights[b][i], tc.f32Storage))
		}
		return 0 // ragged weights are padded with 0
	}
	return 1
}

// refSum is TF's reduce_sum of xs in T: for float32, Eigen's 8-lane order
// with flush-to-zero, transcribed from parity/SUMMATION.md as one dense
// pass (lists here are shorter than 8192); for float64, left to right.
func refSum[T float32 | float64](xs []T) T {
	if _, ok := any(xs).([]float32); !ok {
		var s T
		for _, x := range xs {
			s += x
		}
		return s
	}
	add := func(a, b T) T { return refFTZ(refFTZ(a) + refFTZ(b)) }
	n := len(xs)
	if n == 1 {
		return refFTZ(xs[0])
	}
	var acc [4][8]T
	start := 0
	if n >= 32 {
		v4 := n / 32 * 32
		for j := 0; j < v4; j += 32 {
			for q := range 4 {
				for l := range 8 {
					acc[q][l] = add(acc[q][l], xs[j+8*q+l])
				}
			}
		}
		for q := 1; q < 4; q++ {
			for l := range 8 {
				acc[0][l] = add(acc[0][l], acc[q][l])
			}
		}
		start = v4
	}
	v := n / 8 * 8
	for j := start; j < v; j += 8 {
		for l := range 8 {
			acc[0][l] = add(acc[0][l], xs[j+l])
		}
	}
	var tail T
	for j := v; j < n; j++ {
		tail = add(tail, xs[j])
	}
	a := acc[0]
	return add(tail, add(add(add(a[0], a[4]), add(a[2], a[6])), add(add(a[1], a[5]), add(a[3], a[7]))))
}

// refFTZ flushes a subnormal float32 to zero, as TF's CPU kernels do; it
// leaves float64 values alone.
func refFTZ[T float32 | float64](x T) T {
	if _, ok := any(x).(float32); ok && x != 0 && math.Abs(float64(x)) < 0x1p-126 {
		return T(math.Copysign(0, float64(x)))
	}
	return x
}

// referenceCompute returns the AP and list weight of every list of tc in T
// under tie policy ties (not Random).
func referenceCompute[T float32 | float64](tc refCase, ties TiePolicy) PerList {
	n := tc.width()
	bsz := len(tc.labels)
	ap := make([]T, bsz)
	pw := make([]T, bsz)
	sw := make([]T, bsz)
	nrel := make([]T, bsz)
	for b := range bsz {
		m := len(tc.labels[b])
		w := make([]T, n)
		lab := make([]T, n)
		sc := make([]T, n)
		valid := make([]bool, n)
		rel := make([]T, n)
		for i := range n {
			w[i] = refSlotWeight[T](tc, b, i)
			if i < m {
				lab[i], sc[i] = T(stored(tc.labels[b][i], tc.f32Storage)), T(stored(tc.preds[b][i], !tc.f32Storage))
				valid[i] = (tc.ragged || lab[i] >= 0) && w[i] > 0
			}
			if valid[i] && lab[i] >= 1 {
				rel[i] = 1
			}
		}
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(x, y int) bool {
			a, c := order[x], order[y]
			if valid[a] != valid[c] {
				return valid[a]
			}
			if !valid[a] {
				return false
			}
			if sc[a] != sc[c] {
				return sc[a] > sc[c]
			}
			switch ties {
			case Pessimistic:
				return rel[a] < rel[c]
			case Optimistic:
				return rel[a] > rel[c]
			}
			return false
		})
		k := n
		if tc.topn >= 0 && tc.topn < n {
			k = tc.topn
		}
		wr := make([]T, n)
		for i := range n {
			wr[i] = T(w[i] * rel[i])
		}
		tr := refSum(wr)
		if ties == Expected {
			if tr != 0 {
				ap[b] = T(refExpected(sc, w, rel, valid, k) / float64(tr))
			}
		} else {
			terms := make([]T, k)
			var cnt T
			for j := range k {
				i := order[j]
				cnt = T(cnt + rel[i])
				p := T(cnt / T(j+1))
				terms[j] = T(T(p*w[i]) * rel[i])
			}
			if tr != 0 {
				ap[b] = T(refSum(terms) / tr)
			}
		}
		sw[b] = refSum(w)
		nrel[b] = refSum(rel)
		if nrel[b] != 0 {
			pw[b] = T(tr / nrel[b])
		}
	}
	// _per_example_weights_to_per_list_weights
	nzr := make([]T, bsz)
	for b := range bsz {
		if sw[b] > 0 && nrel[b] > 0 {
			nzr[b] = 1
		}
	}
	c, s := refSum(nzr), refSum(pw)
	avg := T(1)
	if c > 0 {
		avg = T(s / c)
	}
	out := PerList{Values: make([]float64, bsz), Weights: make([]float64, bsz)}
	for b := range bsz {
		var lw T
		if sw[b] > 0 {
			if nrel[b] > 0 {
				lw = pw[b]
			} else {
				lw = avg
			}
		}
		out.Values[b], out.Weights[b] = float64(ap[b]), float64(lw)
	}
	return out
}

// refExpected returns the expected AP numerator of one list, item by item,
// from the closed form of tie_expectation.md.
func refExpected[T float32 | float64](sc, w, rel []T, valid []bool, k int) float64 {
	var sum float64
	for i := range sc {
		if !valid[i] || rel[i] == 0 {
			continue
		}
		n, r, a, c := 0, 0, 0, 0
		for j := range sc {
			if !valid[j] {
				continue
			}
			switch {
			case sc[j] == sc[i]:
				n++
				r += int(rel[j])
			case sc[j] > sc[i]:
				a++
				c += int(rel[j])
			}
		}
		var s float64
		for j := 1; j <= n && a+j <= k; j++ {
			ahead := float64(c)
			if n > 1 {
				ahead += float64(j-1) * float64(r-1) / float64(n-1)
			}
			s += (ahead + 1) / float64(a+j)
		}
		sum += float64(w[i]) * s / float64(n)
	}
	return sum
}

// randomBatches returns count random batches drawn from seed: dense and
// ragged, float32 and float64 storage, every weight kind, cutoffs, invalid
// and NaN labels, zero and negative weights, ±Inf scores and many ties.
func randomBatches(count int, seed int64) []refCase {
	rng := rand.New(rand.NewPCG(uint64(seed), 99))
	labelSet := []float64{-1, 0, 0, 0, 0.5, 1, 2, 3, 4, math.NaN()}
	weightSet := []float64{0, -0.5, 0.3, 1, 1, 2.5, 0.1}
	out := make([]refCase, 0, count)
	for range count {
		tc := refCase{ragged: rng.IntN(2) == 0, f32Storage: rng.IntN(2) == 0}
		bsz := 1 + rng.IntN(6)
		n := rng.IntN(12)
		if rng.IntN(8) == 0 {
			n = 20 + rng.IntN(80)
		}
		tc.topn = []int{NoTopN, 0, 1, 3, 5, n, n + 3}[rng.IntN(7)]
		distinct := 1 + rng.IntN(2*n+2) // few distinct scores make ties
		weighted := rng.IntN(3)
		for range bsz {
			m := n
			if tc.ragged {
				m = rng.IntN(n + 1)
			}
			lab, sc, w := make([]float64, m), make([]float64, m), make([]float64, m)
			for i := range m {
				lab[i] = labelSet[rng.IntN(len(labelSet))]
				sc[i] = float64(rng.IntN(distinct)) / 4
				switch rng.IntN(20) {
				case 0:
					sc[i] = math.Inf(1)
				case 1:
					sc[i] = math.Inf(-1)
				case 2:
					sc[i] += 1e-9 // a tie in float32, not in float64
				}
				w[i] = weightSet[rng.IntN(len(weightSet))]
			}
			tc.labels, tc.preds = append(tc.labels, lab), append(tc.preds, sc)
			switch weighted {
			case 1:
				tc.weights = append(tc.weights, w)
			case 2:
				tc.perList = append(tc.perList, weightSet[rng.IntN(len(weightSet))])
			}
		}
		out = append(out, tc)
	}
	return out
}

// lists builds the tensor form of rows.
func lists(t testing.TB, rows [][]float64, ragged, f32 bool) tensor.Lists {
	t.Helper()
	var l tensor.Lists
	var err error
	switch {
	case ragged && f32:
		l, err = tensor.RaggedRows(to32(rows))
	case ragged:
		l, err = tensor.RaggedRows(rows)
	case f32:
		l, err = tensor.DenseRows(to32(rows))
	default:
		l, err = tensor.DenseRows(rows)
	}
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func to32(rows [][]float64) [][]float32 {
	out := make([][]float32, len(rows))
	for b, r := range rows {
		out[b] = make([]float32, len(r))
		for i, x := range r {
			out[b][i] = float32(x)
		}
	}
	return out
}

// caseInputs returns the tensor inputs of tc.
func caseInputs(t testing.TB, tc refCase) (labels, preds tensor.Lists, w tensor.Weights) {
	labels = lists(t, tc.labels, tc.ragged, tc.f32Storage)
	preds = lists(t, tc.preds, tc.ragged, !tc.f32Storage)
	switch {
	case tc.weights != nil:
		w = tensor.PerItem(lists(t, tc.weights, tc.ragged, tc.f32Storage))
	case tc.perList != nil:
		w = tensor.PerList(tc.perList)
	}
	return labels, preds, w
}

// computeCase runs the metric's Compute on tc.
func computeCase(t testing.TB, tc refCase, d DType, ties TiePolicy) PerList {
	t.Helper()
	opts := []Option{WithDType(d), WithTies(ties), WithRagged(tc.ragged)}
	if tc.topn != NoTopN {
		opts = append(opts, WithTopN(tc.topn))
	}
	m, err := NewMeanAveragePrecision(opts...)
	if err != nil {
		t.Fatal(err)
	}
	labels, preds, w := caseInputs(t, tc)
	got, err := m.Compute(labels, preds, w)
	if err != nil {
		t.Fatalf("Compute: %v", err)
	}
	return got
}

// comparePerList fails unless got equals want bit for bit; under Expected,
// whose sums run in another order, within tol relative.
func comparePerList(t testing.TB, tc refCase, ties TiePolicy, got, want PerList, tol float64) {
	t.Helper()
	if len(got.Values) != len(want.Values) || len(got.Weights) != len(want.Weights) {
		t.Fatalf("lengths: got %d/%d, want %d/%d", len(got.Values), len(got.Weights), len(want.Values), len(want.Weights))
	}
	for b := range want.Values {
		same := math.Float64bits(got.Values[b]) == math.Float64bits(want.Values[b])
		if ties == Expected {
			same = math.Abs(got.Values[b]-want.Values[b]) <= tol*math.Abs(want.Values[b])
		}
		if !same || math.Float64bits(got.Weights[b]) != math.Float64bits(want.Weights[b]) {
			t.Fatalf("ties %s, list %d: got (ap %v, lw %v), want (ap %v, lw %v)\ncase %+v",
				ties, b, got.Values[b], got.Weights[b], want.Values[b], want.Weights[b], tc)
		}
	}
}

// checkUpdateAllocs fails when a steady-state Update allocates.
func checkUpdateAllocs(t *testing.T, d DType) {
	tcs := randomBatches(40, 7)
	for _, ties := range []TiePolicy{Random, Stable, Pessimistic, Optimistic, Expected} {
		for i, tc := range tcs {
			opts := []Option{WithDType(d), WithTies(ties), WithRagged(tc.ragged)}
			m, err := NewMeanAveragePrecision(opts...)
			if err != nil {
				t.Fatal(err)
			}
			labels, preds, w := caseInputs(t, tc)
			if err := m.Update(labels, preds, w); err != nil {
				t.Fatal(err)
			}
			allocs := testing.AllocsPerRun(20, func() {
				if err := m.Update(labels, preds, w); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Fatalf("%s ties %s case %d: %v allocations per update, want 0", d, ties, i, allocs)
			}
		}
	}
}

// listCase is one list as the kernels take it.
type listCase[T float32 | float64] struct {
	lab, sc []T
	w       []T // slot weights, padding included
	items   []T // item weights, or nil when every slot weighs wc
	wc      T
	ragged  bool
	topn    int
}

// randomLists returns count random single lists for the kernel tests,
// with NaN scores now and then.
func randomLists[T float32 | float64](count int) []listCase[T] {
	out := make([]listCase[T], 0, count)
	for _, tc := range randomBatches(count/3+1, 17) {
		for b := range tc.labels {
			n := tc.width()
			lc := listCase[T]{ragged: tc.ragged, topn: tc.topn, wc: 1, w: make([]T, n)}
			for i, l := range tc.labels[b] {
				lc.lab = append(lc.lab, T(l))
				lc.sc = append(lc.sc, T(tc.preds[b][i]))
			}
			if len(lc.sc) > 0 && len(out)%50 == 0 {
				lc.sc[len(out)%len(lc.sc)] = T(math.NaN())
			}
			for i := range n {
				lc.w[i] = refSlotWeight[T](tc, b, i)
			}
			switch {
			case tc.weights != nil:
				lc.items = lc.w[:len(lc.lab)]
			case tc.perList != nil:
				lc.wc = T(tc.perList[b])
			}
			out = append(out, lc)
		}
	}
	return out
}
