package metric

import (
	"math"
	"math/big"
	"math/rand/v2"
)

// kerasList computes one list of metric s under the keras-rs profile from
// ws.lab, ws.sc and ws.w: its value, whether its weights sum above 0 and
// its relevance does, and its own list weight before the batch's rule for
// lists without relevance (kerasListWeights). An item counts when its
// label is >= 0 and its weight > 0; the others are masked: label 0, weight
// 0, ranked last. width is the batch's dense width (the list's length, or
// a ragged batch's longest row): keras-rs sums rows of that many slots, the
// slots past the list holding 0, and XLA's order depends on it.
func kerasList[T float32 | float64](ws *profWS[T], s *Config, rng *rand.Rand, width int) (val T, nzw, nzr bool, plw T) {
	lab, w := ws.lab, ws.w
	n := len(lab)
	ord := ws.ord[:0]
	for i := range n {
		if lab[i] >= 0 && w[i] > 0 {
			ord = append(ord, i)
		} else {
			lab[i], w[i] = 0, 0
		}
	}
	ws.ord = ord
	valid := len(ord)
	rel := func(i int) T {
		if s.Kind == KindNDCG || s.Kind == KindDCG {
			return kerasGain(lab[i])
		}
		if lab[i] >= 1 {
			return 1
		}
		return 0
	}
	// The list weight's parts, each a row sum over the slots in index
	// order.
	var sw, srel, num T
	for p := range 3 {
		xs := ws.zeros(width)
		for i := range n {
			switch p {
			case 0:
				xs[i] = w[i]
			case 1:
				xs[i] = rel(i)
			default:
				xs[i] = w[i] * rel(i)
			}
		}
		switch v := xlaSum(xs); p {
		case 0:
			sw = v
		case 1:
			srel = v
		default:
			num = v
		}
	}
	nzw, nzr = sw > 0, srel > 0
	if srel != 0 {
		plw = num / srel
	}
	if s.Ties == Random {
		rng = nil // the order of keras-rs' own draws, in ws.u
	}
	rankItems(ws, s.Ties, func(i int) bool { return lab[i] >= 1 }, rng)
	ord = ws.ord
	k := n
	if s.TopN != NoTopN {
		k = min(s.TopN, n)
	}
	top := ord[:min(k, valid)] // the masked slots within k add nothing
	// keras-rs' sorted rows hold min(k, width) slots.
	rowLen := max(width, n)
	if s.TopN != NoTopN {
		rowLen = min(s.TopN, rowLen)
	}
	switch s.Kind {
	case KindMAP:
		var c T
		xs := ws.zeros(rowLen)
		for j, i := range top {
			r := rel(i)
			c += r
			xs[j] = c / T(j+1) * (w[i] * r)
		}
		tp := xlaSum(xs)
		if num != 0 {
			val = tp / num
		}
	case KindMRR:
		for j, i := range top {
			if rel(i) == 1 {
				val = 1 / T(j+1)
				break
			}
		}
	case KindPrecision:
		var c T
		for _, i := range top {
			c += rel(i)
		}
		if d := min(k, valid); d > 0 {
			val = c / T(d)
		}
	case KindRecall:
		var c T
		for _, i := range top {
			c += rel(i)
		}
		if srel != 0 {
			val = c / srel
		}
	case KindDCG, KindNDCG:
		xs := ws.zeros(rowLen)
		for j, i := range top {
			xs[j] = w[i] * (rel(i) * ws.kerasDisc(j+1))
		}
		dcg := xlaSum(xs)
		val = dcg
		if s.Kind == KindNDCG {
			ideal := grow(ws.ideal, valid)
			copy(ideal, ord)
			ws.ideal = ideal
			wg := func(i int) T { return w[i] * rel(i) }
			for a := 1; a < len(ideal); a++ {
				v := ideal[a]
				b := a - 1
				for b >= 0 && wg(ideal[b]) < wg(v) {
					ideal[b+1] = ideal[b]
					b--
				}
				ideal[b+1] = v
			}
			xs := ws.zeros(rowLen)
			for j, i := range ideal[:min(k, valid)] {
				xs[j] = w[i] * (rel(i) * ws.kerasDisc(j+1))
			}
			idcg := xlaSum(xs)
			val = 0
			if idcg != 0 {
				val = dcg / idcg
			}
		}
	}
	return val, nzw, nzr, plw
}

// kerasGain is keras-rs' default gain, 2^label - 1.
func kerasGain[T float32 | float64](label T) T {
	return T(math.Pow(2, float64(label))) - 1
}

// kerasDiscount is keras-rs' default rank discount, 1/log2(1+rank), as
// XLA computes it on CPU: jnp.log2 is ln(x) times 1/ln 2 (XLA turns the
// division by the constant ln 2 into a product with its reciprocal, both
// rounded to the dtype). In float32 ln is XLA's own polynomial (xlaLog32),
// equal to keras-rs' discount for every rank below 11,047 (6 of the ranks
// up to 59,999 are an ulp away, the first 11,047). In float64 XLA calls the
// C library's log; lnRounded, correctly rounded, equals glibc 2.36's for
// every rank below 9,169 (10 of the ranks up to 400,000 are an ulp away).
func kerasDiscount[T float32 | float64](rank int) T {
	var z T
	if _, ok := any(z).(float32); ok {
		l := float32(xlaLog32(float32(1)+float32(rank)) * float32(1/math.Ln2))
		return T(float32(1) / l)
	}
	ln2 := math.Ln2 // rounded to float64 first, as jnp.log2's constant
	return T(1 / (lnRounded(1+float64(rank)) * (1 / ln2)))
}

// kerasDisc returns kerasDiscount(rank), from the workspace's table of the
// ranks computed so far.
func (ws *profWS[T]) kerasDisc(rank int) T {
	for len(ws.kdisc) < rank {
		ws.kdisc = append(ws.kdisc, kerasDiscount[T](len(ws.kdisc)+1))
	}
	return ws.kdisc[rank-1]
}

// lnRounded returns the natural logarithm of x >= 1 rounded to the nearest
// float64, from a 192-bit evaluation: x = 2^e·m with m in [sqrt(1/2),
// sqrt(2)), ln x = e·ln 2 + ln m, and ln y = 2·atanh((y-1)/(y+1)) summed
// as its series (ln 2 = 2·atanh(1/3)). Go's math.Log is within an ulp of
// it but not always equal (ln 3 among others).
func lnRounded(x float64) float64 {
	const prec = 192
	m, e := math.Frexp(x)
	if m < math.Sqrt2/2 {
		m *= 2
		e--
	}
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	// atanh2 returns 2·atanh(z) for |z| <= 1/3.
	atanh2 := func(z *big.Float) *big.Float {
		sum := nf(0).Set(z)
		if z.Sign() == 0 {
			return sum
		}
		z2 := nf(0).Mul(z, z)
		t := nf(0).Set(z)
		term := nf(0)
		for k := 3; ; k += 2 {
			t.Mul(t, z2)
			term.Quo(t, nf(float64(k)))
			if term.Sign() == 0 || term.MantExp(nil) < sum.MantExp(nil)-prec-8 {
				break
			}
			sum.Add(sum, term)
		}
		return sum.Mul(sum, nf(2))
	}
	third := nf(1)
	third.Quo(third, nf(3))
	ln2 := atanh2(third)
	z := nf(m - 1) // exact: m is within a factor 2 of 1
	z.Quo(z, nf(m+1))
	r := atanh2(z)
	r.Add(r, ln2.Mul(ln2, nf(float64(e))))
	f, _ := r.Float64()
	return f
}

// xlaLog32 is the natural logarithm of x >= 2^-126 as XLA computes it in
// float32 on CPU: the mantissa m in [sqrt(1/2), sqrt(2)) and exponent e, a
// degree-8 polynomial in m-1 in Horner's form split in three, and e·ln 2
// added in two parts, every operation rounded to float32 (no fused
// multiply-add).
func xlaLog32(x float32) float32 {
	fr, ex := math.Frexp(float64(x))
	m, e := float32(fr), float32(ex)
	var r float32
	if m < float32(0.707106781186547524) {
		e = e - 1
		r = float32(m-1) + m
	} else {
		r = m - 1
	}
	mad := func(a, b, c float32) float32 { return float32(float32(a*b) + c) }
	r2 := float32(r * r)
	r3 := float32(r2 * r)
	y := mad(7.0376836292e-2, r, -1.1514610310e-1)
	y1 := mad(-1.2420140846e-1, r, 1.4249322787e-1)
	y2 := mad(2.0000714765e-1, r, -2.4999993993e-1)
	y = mad(y, r, 1.1676998740e-1)
	y1 = mad(y1, r, -1.6668057665e-1)
	y2 = mad(y2, r, 3.3333331174e-1)
	y = mad(y, r3, y1)
	y = mad(y, r3, y2)
	y = float32(y * r3)
	y = mad(-2.12194440e-4, e, y)
	r = float32(r + float32(-0.5*r2))
	r = float32(r + y)
	return mad(0.693359375, e, r)
}

// kerasListWeights turns the lists' own weights o.lw into keras-rs' (and
// TF-Ranking's) list weights: a list whose weights sum to 0 weighs 0; one
// without relevance weighs the mean own weight of the lists with both, or
// 1. It then divides DCG by its weight and forms the products o.v.
func kerasListWeights[T float32 | float64](ws *profWS[T], o profOut[T], nzw, nzr []bool, dcg bool) {
	var cnt T
	if dcg {
		copy(o.dcg, o.val)
	}
	xs := ws.zeros(len(o.lw))
	for b := range o.lw {
		xs[b] = o.lw[b]
		if nzw[b] && nzr[b] {
			cnt++
		}
	}
	sum := xlaSum(xs)
	avg := T(1)
	if cnt > 0 {
		avg = sum / cnt
	}
	for b := range o.lw {
		switch {
		case !nzw[b]:
			o.lw[b] = 0
		case !nzr[b]:
			o.lw[b] = avg
		}
		if dcg {
			o.val[b] = 0
			if o.lw[b] != 0 {
				o.val[b] = o.dcg[b] / o.lw[b]
			}
		}
		o.v[b] = o.val[b] * o.lw[b]
	}
}

// addKeras adds metric j's lists of the last batch to its totals as the
// Keras Mean of keras-rs does under XLA on CPU: the batch's products and
// list weights each summed as XLA sums them (xlaSum), then added to the
// totals.
func (f *family) addKeras(a *meanAcc, j, bsz int, exactly bool) {
	if f.sets[0].DType == Float64 {
		o := &f.ws64.out[j]
		if exactly {
			a.add64(o.v[:bsz], o.lw[:bsz], true)
			return
		}
		// Keras' Mean reduces each list's product and weight over their
		// axis of one value with ops.mean, which computes in float32 (its
		// result_type of float64 and "float32" is float32) and casts back:
		// each is rounded to float32 before the float64 sums.
		ws := &f.prof.ws64
		xs := ws.zeros(bsz)
		for b := range bsz {
			xs[b] = float64(float32(o.v[b]))
		}
		a.total64 += xlaSum(xs)
		xs = ws.zeros(bsz)
		for b := range bsz {
			xs[b] = float64(float32(o.lw[b]))
		}
		a.count64 += xlaSum(xs)
		return
	}
	o := &f.ws32.out[j]
	if exactly {
		a.add32(o.v[:bsz], o.lw[:bsz], true)
		return
	}
	ws := &f.prof.ws32
	xs := ws.zeros(bsz)
	copy(xs, o.v[:bsz])
	a.total32 += xlaSum(xs)
	xs = ws.zeros(bsz)
	copy(xs, o.lw[:bsz])
	a.count32 += xlaSum(xs)
}

// kerasDraws is the number of draws of keras-rs' seed generator an update
// of a metric of kind k makes: one per sort, and NDCG sorts twice (the
// second time for the ideal order, whose value ties do not change).
func kerasDraws(k Kind) uint32 {
	if k == KindNDCG {
		return 2
	}
	return 1
}

// kerasUniforms writes into dst the uniform values keras-rs draws to
// shuffle the n items of list b of a batch of width w, on the draw-th draw
// of a seed generator seeded with seed: keras.random.uniform under JAX,
// whose key is [seed, draw] and whose value of flat index i is
// threefry2x32 of the counter (0, i), the two words XORed, its top 23 bits
// made a float in [1, 2), minus 1.
func kerasUniforms(dst []float32, seed, draw uint32, b, w, n int) []float32 {
	dst = grow(dst, n)
	for i := range n {
		x0, x1 := threefry2x32(seed, draw, 0, uint32(b*w+i))
		dst[i] = math.Float32frombits((x0^x1)>>9|0x3f800000) - 1
	}
	return dst
}

// threefry2x32 is the Threefry-2x32 block cipher of 20 rounds (Salmon et
// al., Random123), as JAX's PRNG uses it: key (k0, k1), counter (x0, x1).
func threefry2x32(k0, k1, x0, x1 uint32) (uint32, uint32) {
	ks := [3]uint32{k0, k1, k0 ^ k1 ^ 0x1BD11BDA}
	rot := [2][4]uint32{{13, 15, 26, 6}, {17, 29, 16, 24}}
	x0 += ks[0]
	x1 += ks[1]
	for i := range 5 {
		for _, r := range rot[i%2] {
			x0 += x1
			x1 = x1<<r | x1>>(32-r)
			x1 ^= x0
		}
		x0 += ks[(i+1)%3]
		x1 += ks[(i+2)%3] + uint32(i+1)
	}
	return x0, x1
}

// xlaWindow is the window of XLA's CPU tree reduction: a reduced dimension
// of more than 32 values is first summed in windows of 32.
const xlaWindow = 32

// xlaSum returns the sum of xs as XLA's CPU backend (jaxlib 0.10) reduces
// a dimension of len(xs) values in an array of fewer than 4,096 elements,
// and overwrites xs. Up to 32 values it adds them in index order to 0.
// A longer dimension its tree reduction rewriter turns into a
// reduce-window of 32 values with stride 32 over the dimension padded with
// zeros to a multiple of 32, the padding split evenly, the odd one at the
// end (33 values: windows of 17 and 16), each window added in index order
// to 0; the window sums are then reduced the same way, up to 32 of them in
// order. An array of 4,096 elements or more XLA hands to a vectorised
// library kernel, whose order this does not follow. This is XLA's
// arithmetic, not a definition, so it stays here rather than in the
// generated kernels.
func xlaSum[T float32 | float64](xs []T) T {
	for len(xs) > xlaWindow {
		nw := (len(xs) + xlaWindow - 1) / xlaWindow
		lo := (nw*xlaWindow - len(xs)) / 2
		for k := range nw {
			// Window k starts at or after k, so it is read before
			// xs[k] is written.
			var s T
			for _, x := range xs[max(0, k*xlaWindow-lo):min(len(xs), (k+1)*xlaWindow-lo)] {
				s += x
			}
			xs[k] = s
		}
		xs = xs[:nw]
	}
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// zeros returns ws.xs grown to n elements, all 0.
func (ws *profWS[T]) zeros(n int) []T {
	ws.xs = grow(ws.xs, n)
	clear(ws.xs)
	return ws.xs
}
