package metric

import (
	"math"
	"math/rand/v2"
)

// kerasList computes one list of metric s under the keras-rs profile from
// ws.lab, ws.sc and ws.w: its value, whether its weights sum above 0 and
// its relevance does, and its own list weight before the batch's rule for
// lists without relevance (kerasListWeights). An item counts when its
// label is >= 0 and its weight > 0; the others are masked: label 0, weight
// 0, ranked last.
func kerasList[T float32 | float64](ws *profWS[T], s *Config, rng *rand.Rand) (val T, nzw, nzr bool, plw T) {
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
	// The list weight's parts, over every slot in index order.
	var sw, srel, num T
	for i := range n {
		sw += w[i]
		r := rel(i)
		srel += r
		num += w[i] * r
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
	switch s.Kind {
	case KindMAP:
		var tp, c T
		for j, i := range top {
			r := rel(i)
			c += r
			tp += c / T(j+1) * (w[i] * r)
		}
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
		var dcg T
		for j, i := range top {
			dcg += w[i] * (rel(i) * kerasDiscount[T](j+1))
		}
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
			var idcg T
			for j, i := range ideal[:min(k, valid)] {
				idcg += w[i] * (rel(i) * kerasDiscount[T](j+1))
			}
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

// kerasDiscount is keras-rs' default rank discount, 1/log2(1+rank). In
// float32 it is XLA's on CPU: log2 is XLA's float32 log times the float32
// 1/ln 2 (xlaLog32), which equals keras-rs' discount for every rank below
// 11,047 (6 of the ranks up to 59,999 are an ulp away, the first 11,047).
// In float64 it is Go's log2.
func kerasDiscount[T float32 | float64](rank int) T {
	var z T
	if _, ok := any(z).(float32); ok {
		l := float32(xlaLog32(float32(1)+float32(rank)) * float32(1/math.Ln2))
		return T(float32(1) / l)
	}
	return 1 / T(math.Log2(1+float64(rank)))
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
func kerasListWeights[T float32 | float64](o profOut[T], nzw, nzr []bool, dcg bool) {
	var sum, cnt T
	if dcg {
		copy(o.dcg, o.val)
	}
	for b := range o.lw {
		sum += o.lw[b]
		if nzw[b] && nzr[b] {
			cnt++
		}
	}
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
// list weights each summed in index order (as XLA sums up to 32 values;
// a longer batch it sums in an order of its own), then added to the
// totals.
func (f *family) addKeras(a *meanAcc, j, bsz int, exactly bool) {
	if f.sets[0].DType == Float64 {
		o := &f.ws64.out[j]
		a.add64(o.v[:bsz], o.lw[:bsz], exactly)
		return
	}
	o := &f.ws32.out[j]
	if exactly {
		a.add32(o.v[:bsz], o.lw[:bsz], true)
		return
	}
	var v, lw float32
	for b := range bsz {
		v += o.v[b]
		lw += o.lw[b]
	}
	a.total32 += v
	a.count32 += lw
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
