package metric

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// The kernels of the keras-rs and torchmetrics profiles. They share the
// family's inputs, outputs and accumulation; what differs is the library's
// arithmetic, which they follow operation by operation in the metric's
// dtype:
//
//   - torchmetrics (CPU torch): per query, in float32; sums as torch's CPU
//     sum kernel adds (torchSum); the discounts of NDCG as torch's float32
//     log2 (correctly rounded) and cumsum (in float64, rounded per entry).
//   - keras-rs (JAX on CPU, XLA): per list, in float32; row sums and the
//     batch sums in XLA's order (xlaSum: up to 32 values in index order,
//     longer rows in windows of 32); the discount with XLA's float32 log
//     (xlaLog32).

// profWS is the scratch of the profile kernels, reused across batches.
type profWS[T float32 | float64] struct {
	lab, sc, w  []T
	u           []float32 // keras-rs' uniform shuffle values of one list
	ord, ideal  []int
	terms, disc []T
	cum         []float64
	nzw, nzr    []bool
	vals        []T
	xs          []T // the summands of one XLA reduction
	kdisc       []T // keras-rs' discounts of ranks 1, 2, ...
}

// profileWS holds a profile workspace of each dtype.
type profileWS struct {
	// draws counts the draws of keras-rs' seed generator since the last
	// Reset: each update draws once per sort (NDCG twice).
	draws uint32
	ws32  profWS[float32]
	ws64  profWS[float64]
	o32   []profOut[float32]
	o64   []profOut[float64]
}

// profileBatch computes every metric of the plan on one batch under the
// profile of the family's configurations, into the outputs of the dtype's
// workspace. The caller holds f.mu.
func (f *family) profileBatch(labels, predictions tensor.Lists, weights tensor.Weights) error {
	var err error
	if f.sets[0].DType == Float64 {
		f.prof.o64 = f.ws64.outs(f.prof.o64, len(f.sets), labels.Len())
		err = profileRun(&f.prof.ws64, f.prof.o64, f.sets, labels, predictions, weights, f.rng, f.prof.draws)
	} else {
		f.prof.o32 = f.ws32.outs(f.prof.o32, len(f.sets), labels.Len())
		err = profileRun(&f.prof.ws32, f.prof.o32, f.sets, labels, predictions, weights, f.rng, f.prof.draws)
	}
	if err == nil && f.sets[0].Profile == ProfileKerasRS {
		f.prof.draws += kerasDraws(f.sets[0].Kind)
	}
	return err
}

// outs returns the per-list outputs of m metrics sized for bsz lists, in
// out, whose array it reuses.
func (ws *famFloat32) outs(out []profOut[float32], m, bsz int) []profOut[float32] {
	if len(ws.out) != m {
		ws.out = make([]famOutFloat32, m)
	}
	out = grow(out, m)
	for j := range ws.out {
		o := &ws.out[j]
		o.val, o.lw, o.v = grow(o.val, bsz), grow(o.lw, bsz), grow(o.v, bsz)
		out[j] = profOut[float32]{o.val, o.lw, o.v, grow(out[j].dcg, bsz)}
	}
	return out
}

// outs returns the per-list outputs of m metrics sized for bsz lists, in
// out, whose array it reuses.
func (ws *famFloat64) outs(out []profOut[float64], m, bsz int) []profOut[float64] {
	if len(ws.out) != m {
		ws.out = make([]famOutFloat64, m)
	}
	out = grow(out, m)
	for j := range ws.out {
		o := &ws.out[j]
		o.val, o.lw, o.v = grow(o.val, bsz), grow(o.lw, bsz), grow(o.v, bsz)
		out[j] = profOut[float64]{o.val, o.lw, o.v, grow(out[j].dcg, bsz)}
	}
	return out
}

// profOut is where a profile kernel writes one metric's per-list values,
// list weights and their products.
type profOut[T float32 | float64] struct{ val, lw, v, dcg []T }

// row reads row b of l into dst in T.
func row[T float32 | float64](l *tensor.Lists, b int, dst []T) []T {
	n := l.RowLen(b)
	dst = grow(dst, n)
	for i := range n {
		dst[i] = T(l.At(b, i))
	}
	return dst
}

// profileRun runs the kernel of the sets' profile on every list.
func profileRun[T float32 | float64](ws *profWS[T], outs []profOut[T], sets []Config, labels, predictions tensor.Lists, weights tensor.Weights, rng *rand.Rand, draws uint32) error {
	p := sets[0].Profile
	if p == ProfileTorchmetrics && weights.Kind() != tensor.NoWeights {
		return fmt.Errorf("metric: %s: torchmetrics' retrieval metrics take no weights: %w", sets[0].Name, ErrInput)
	}
	bsz := labels.Len()
	wv := weights.Values()
	ws.nzw, ws.nzr = grow(ws.nzw, bsz), grow(ws.nzr, bsz)
	for j := range sets {
		s := &sets[j]
		o := outs[j]
		for b := range bsz {
			ws.lab = row(&labels, b, ws.lab)
			ws.sc = row(&predictions, b, ws.sc)
			n := len(ws.lab)
			for i := range n {
				if math.IsNaN(float64(ws.sc[i])) {
					return fmt.Errorf("metric: %s: predictions[%d][%d] is NaN; the %s profile ranks numbers: %w", s.Name, b, i, p, ErrInput)
				}
			}
			ws.w = grow(ws.w, n)
			for i := range n {
				switch weights.Kind() {
				case tensor.NoWeights:
					ws.w[i] = 1
				case tensor.ListWeights:
					ws.w[i] = T(wv.At(b, 0))
				default:
					ws.w[i] = T(wv.At(b, i))
				}
			}
			if p == ProfileTorchmetrics {
				v, lw, err := torchList(ws, s, b, rng)
				if err != nil {
					return err
				}
				o.val[b], o.lw[b], o.v[b] = v, lw, v*lw
				continue
			}
			if s.Ties == Random {
				ws.u = kerasUniforms(ws.u, uint32(s.Seed), draws, b, labels.Width(), n)
			}
			v, nzw, nzr, plw := kerasList(ws, s, rng, labels.Width())
			o.val[b], o.lw[b] = v, plw
			ws.nzw[b], ws.nzr[b] = nzw, nzr
		}
		if p == ProfileKerasRS {
			kerasListWeights(ws, o, ws.nzw[:bsz], ws.nzr[:bsz], s.Kind == KindDCG)
		}
	}
	return nil
}

// rankItems writes into ws.ord the items of idx ordered by descending score,
// equal scores by the tie policy: input order (Stable), relevant last
// (Pessimistic) or first (Optimistic), or uniformly at random (Random).
func rankItems[T float32 | float64](ws *profWS[T], ties TiePolicy, rel func(i int) bool, rng *rand.Rand) {
	ord, sc := ws.ord, ws.sc
	tie := func(a, b int) int {
		switch ties {
		case Random:
			if rng == nil {
				// keras-rs: by its uniform shuffle values, then position.
				if ws.u[a] != ws.u[b] {
					if ws.u[a] < ws.u[b] {
						return -1
					}
					return 1
				}
			}
		case Pessimistic:
			if rel(a) != rel(b) {
				if rel(a) {
					return 1
				}
				return -1
			}
		case Optimistic:
			if rel(a) != rel(b) {
				if rel(a) {
					return -1
				}
				return 1
			}
		}
		return a - b
	}
	for i := 1; i < len(ord); i++ {
		v := ord[i]
		j := i - 1
		for j >= 0 && (sc[ord[j]] < sc[v] || sc[ord[j]] == sc[v] && tie(ord[j], v) > 0) {
			ord[j+1] = ord[j]
			j--
		}
		ord[j+1] = v
	}
	if ties != Random || rng == nil {
		return
	}
	for g := 0; g < len(ord); {
		e := g + 1
		for e < len(ord) && sc[ord[e]] == sc[ord[g]] {
			e++
		}
		for i := e - 1; i > g; i-- {
			k := g + rng.IntN(i-g+1)
			ord[i], ord[k] = ord[k], ord[i]
		}
		g = e
	}
}

// torchLanes is the width of torch's float vectors in its CPU sum kernel
// (8 floats, 4 doubles), measured on an AVX-512 machine whose sum kernel
// runs with 256-bit vectors.
func torchLanes[T float32 | float64]() int {
	var z T
	if any(z) == any(float32(0)) {
		return 8
	}
	return 4
}

// torchRows returns the four partial sums of torch's multi_row_sum over
// rows of `lanes` values: row r of group k holds xs[(r*4+k)*lanes :][:lanes],
// each lane summed alone, with torch's cascade every 16 rows and more.
func torchRows[T float32 | float64](xs []T, rows, lanes int, acc *[4][4][]T) {
	const levels = 4
	lp := 4
	if rows > 1 {
		if l := ceilLog2(rows) / levels; l > lp {
			lp = l
		}
	}
	step, mask := 1<<lp, (1<<lp)-1
	for l := range levels {
		for k := range 4 {
			clear(acc[l][k])
		}
	}
	add := func(dst, src []T) {
		for i := range dst {
			dst[i] += src[i]
		}
	}
	i := 0
	for i+step <= rows {
		for range step {
			for k := range 4 {
				add(acc[0][k], xs[(i*4+k)*lanes:][:lanes])
			}
			i++
		}
		for l := 1; l < levels; l++ {
			for k := range 4 {
				add(acc[l][k], acc[l-1][k])
				clear(acc[l-1][k])
			}
			if i&(mask<<(l*lp)) != 0 {
				break
			}
		}
	}
	for ; i < rows; i++ {
		for k := range 4 {
			add(acc[0][k], xs[(i*4+k)*lanes:][:lanes])
		}
	}
	for l := 1; l < levels; l++ {
		for k := range 4 {
			add(acc[0][k], acc[l][k])
		}
	}
}

// ceilLog2 returns the least e with 2^e >= n, for n >= 1.
func ceilLog2(n int) int {
	e := 0
	for 1<<e < n {
		e++
	}
	return e
}

// torchSum returns xs summed as torch's CPU sum of a contiguous tensor adds
// them: fewer values than a vector are summed in four interleaved partial
// sums (the values left over by groups of four go to the first), then the
// partials in order; longer ones in vectors the same way, the values past
// the last whole vector first, then the vector's lanes in order.
func torchSum[T float32 | float64](xs []T) T {
	V := torchLanes[T]()
	var buf [4][4][16]T
	var acc [4][4][]T
	if len(xs) < V {
		for l := range 4 {
			for k := range 4 {
				acc[l][k] = buf[l][k][:1]
			}
		}
		rows := len(xs) / 4
		torchRows(xs, rows, 1, &acc)
		p := [4]T{acc[0][0][0], acc[0][1][0], acc[0][2][0], acc[0][3][0]}
		for i := rows * 4; i < len(xs); i++ {
			p[0] += xs[i]
		}
		for k := 1; k < 4; k++ {
			p[0] += p[k]
		}
		return p[0]
	}
	for l := range 4 {
		for k := range 4 {
			acc[l][k] = buf[l][k][:V]
		}
	}
	nv := len(xs) / V
	rows := nv / 4
	torchRows(xs, rows, V, &acc)
	p := acc[0]
	for i := rows * 4; i < nv; i++ {
		for q := range V {
			p[0][q] += xs[i*V+q]
		}
	}
	for k := 1; k < 4; k++ {
		for q := range V {
			p[0][q] += p[k][q]
		}
	}
	var fin T
	for i := nv * V; i < len(xs); i++ {
		fin += xs[i]
	}
	for q := range V {
		fin += p[0][q]
	}
	return fin
}

// torchList computes one query of metric s under the torchmetrics profile:
// its value and weight (1, or 0 for a query that is skipped or has no
// items).
func torchList[T float32 | float64](ws *profWS[T], s *Config, b int, rng *rand.Rand) (T, T, error) {
	lab, sc := ws.lab, ws.sc
	ord := ws.ord[:0]
	pos, neg := 0, 0
	var lsum T
	for i, l := range lab {
		if math.IsNaN(float64(l)) {
			return 0, 0, fmt.Errorf("metric: %s: labels[%d][%d] is NaN: %w", s.Name, b, i, ErrInput)
		}
		if l < 0 {
			continue // dropped, as torchmetrics drops targets equal to ignore_index
		}
		if s.Kind != KindNDCG && l != 0 && l != 1 {
			return 0, 0, fmt.Errorf("metric: %s: labels[%d][%d] is %v; torchmetrics' %s takes binary targets (0 or 1; a negative label is dropped): %w",
				s.Name, b, i, l, ProfileTorchmetrics.LibraryName(s.Kind), ErrInput)
		}
		ord = append(ord, i)
		lsum += l
		if l > 0 {
			pos++
		} else {
			neg++
		}
	}
	ws.ord = ord
	n := len(ord)
	if n == 0 {
		return 0, 0, nil // no items: no query
	}
	if s.Kind == KindFallOut && neg == 0 || s.Kind != KindFallOut && lsum == 0 {
		switch s.Empty.resolve(s.Convention) {
		case EmptyOne:
			return 1, 1, nil
		case EmptySkip:
			return 0, 0, nil
		case EmptyError:
			return 0, 0, emptyError(b)
		}
		return 0, 1, nil
	}
	if s.Kind == KindNDCG {
		return torchNDCG(ws, s), 1, nil
	}
	rankItems(ws, s.Ties, func(i int) bool { return lab[i] > 0 }, rng)
	ord = ws.ord
	k := n
	if s.TopN != NoTopN {
		k = s.TopN
	}
	top := min(k, n)
	// MAP, MRR, precision and recall count an item relevant only when its
	// score is > 0.
	kept := func(i int) bool { return lab[i] > 0 && sc[i] > 0 }
	switch s.Kind {
	case KindMAP:
		terms := ws.terms[:0]
		for j, i := range ord[:top] {
			if kept(i) {
				terms = append(terms, T(len(terms)+1)/T(j+1))
			}
		}
		ws.terms = terms
		if len(terms) == 0 {
			return 0, 1, nil
		}
		return torchSum(terms) / T(len(terms)), 1, nil
	case KindMRR:
		for j, i := range ord[:top] {
			if kept(i) {
				return 1 / T(j+1), 1, nil
			}
		}
		return 0, 1, nil
	case KindPrecision:
		if s.TopN == NoTopN || s.AdaptiveK && k > n {
			k = n
		}
		c := 0
		for _, i := range ord[:min(k, n)] {
			if kept(i) {
				c++
			}
		}
		return T(c) / T(k), 1, nil
	case KindRecall:
		c := 0
		for _, i := range ord[:top] {
			if kept(i) {
				c++
			}
		}
		return T(c) / T(pos), 1, nil
	case KindHits:
		for _, i := range ord[:top] {
			if lab[i] > 0 {
				return 1, 1, nil
			}
		}
		return 0, 1, nil
	case KindRPrecision:
		c := 0
		for _, i := range ord[:pos] {
			if lab[i] > 0 {
				c++
			}
		}
		return T(c) / T(pos), 1, nil
	case KindFallOut:
		c := 0
		for _, i := range ord[:top] {
			if lab[i] == 0 {
				c++
			}
		}
		return T(c) / T(neg), 1, nil
	}
	return 0, 0, fmt.Errorf("metric: %s: torchmetrics has no %s: %w", s.Name, s.Kind, ErrConfig)
}

// torchNDCG is RetrievalNormalizedDCG of one query whose items are ws.ord:
// the gains (the labels) of tied items averaged over the discounts of
// their positions, over the ideal DCG.
func torchNDCG[T float32 | float64](ws *profWS[T], s *Config) T {
	lab, sc, ord := ws.lab, ws.sc, ws.ord
	n := len(ord)
	k := n
	if s.TopN != NoTopN {
		k = min(s.TopN, n)
	}
	disc := grow(ws.disc, n)
	cum := grow(ws.cum, n)
	ws.disc, ws.cum = disc, cum
	var c float64
	for i := range n {
		disc[i] = 0
		if i < k {
			disc[i] = 1 / T(math.Log2(float64(i)+2))
		}
		c += float64(disc[i])
		cum[i] = float64(T(c))
	}
	// Groups of equal scores, best first; within a group the labels add
	// in input order.
	rankItems(ws, Stable, func(int) bool { return false }, nil)
	ord = ws.ord
	terms := ws.terms[:0]
	prev := T(0)
	for g := 0; g < n; {
		e := g + 1
		for e < n && sc[ord[e]] == sc[ord[g]] {
			e++
		}
		var sum T
		// scatter_add adds in the query's input order.
		for _, i := range ws.sortedIdx(ord[g:e]) {
			sum += lab[i]
		}
		end := T(cum[e-1])
		d := end
		if g > 0 {
			d = end - prev
		}
		prev = end
		terms = append(terms, sum/T(e-g)*d)
		g = e
	}
	gain := torchSum(terms)
	// The ideal: labels sorted down, times the discounts.
	ideal := grow(ws.ideal, n)
	copy(ideal, ord)
	ws.ideal = ideal
	for i := 1; i < n; i++ {
		v := ideal[i]
		j := i - 1
		for j >= 0 && lab[ideal[j]] < lab[v] {
			ideal[j+1] = ideal[j]
			j--
		}
		ideal[j+1] = v
	}
	terms = terms[:0]
	for j, i := range ideal {
		terms = append(terms, disc[j]*lab[i])
	}
	ws.terms = terms
	norm := torchSum(terms)
	if norm == 0 {
		return 0
	}
	return gain / norm
}

// sortedIdx returns the item indexes of group in increasing order, in
// place (the group is reordered, which leaves its scores equal).
func (ws *profWS[T]) sortedIdx(group []int) []int {
	for i := 1; i < len(group); i++ {
		v := group[i]
		j := i - 1
		for j >= 0 && group[j] > v {
			group[j+1] = group[j]
			j--
		}
		group[j+1] = v
	}
	return group
}

// addQueries adds metric j's queries of the last batch to its totals as
// torchmetrics' mean takes them: the values of the queries that count, in
// order, summed as torch sums them, and their number.
func (f *family) addQueries(a *meanAcc, j, bsz int, exactly bool) {
	if f.sets[0].DType == Float64 {
		o := &f.ws64.out[j]
		ws := &f.prof.ws64
		ws.vals = ws.vals[:0]
		for b := range bsz {
			if o.lw[b] != 0 {
				ws.vals = append(ws.vals, o.val[b])
			}
		}
		if exactly {
			for _, v := range ws.vals {
				a.ex.addProduct(v, 1)
			}
			return
		}
		a.total64 += torchSum(ws.vals)
		a.count64 += float64(len(ws.vals))
		return
	}
	o := &f.ws32.out[j]
	ws := &f.prof.ws32
	ws.vals = ws.vals[:0]
	for b := range bsz {
		if o.lw[b] != 0 {
			ws.vals = append(ws.vals, o.val[b])
		}
	}
	if exactly {
		for _, v := range ws.vals {
			a.ex.addProduct(float64(v), 1)
		}
		return
	}
	a.total32 += torchSum(ws.vals)
	a.count32 += float32(len(ws.vals))
}
