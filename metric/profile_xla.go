package metric

import (
	"math"

	"github.com/rankmetrics/rankmetrics/metric/internal/crlog"
)

// What keras-rs computes on JAX's CPU backend (jaxlib 0.10) that follows
// XLA's and JAX's code rather than keras-rs' definitions: the order of
// XLA's reductions, its float32 log, the C library's float64 log, and
// JAX's random bits. Written here by hand and called by the generated
// profile kernels (gen/profile.tmpl).

// kerasDiscount32 is keras-rs' default rank discount, 1/log2(1+rank), in
// float32 as XLA computes it on CPU: jnp.log2 is ln(x) times 1/ln 2 (XLA
// turns the division by the constant ln 2 into a product with its
// reciprocal), ln being XLA's own polynomial (xlaLog32). It equals
// keras-rs' discount for every rank below 11,047 (6 of the ranks up to
// 59,999 are an ulp away, the first 11,047).
func kerasDiscount32(rank int) float32 {
	l := float32(xlaLog32(float32(1)+float32(rank)) * float32(1/math.Ln2))
	return float32(1) / l
}

// kerasDiscount64 is keras-rs' default rank discount in float64 (JAX's x64
// mode): ln(1+rank) from the C library's log, times 1/ln 2 rounded from
// the rounded ln 2. crlog.Ln, correctly rounded, equals glibc 2.36's log
// for every rank below 9,169 (10 of the ranks up to 400,000 are an ulp
// away, the first 9,169).
func kerasDiscount64(rank int) float64 {
	ln2 := math.Ln2 // rounded to float64 first, as jnp.log2's constant
	return 1 / (crlog.Ln(int64(rank)+1) * (1 / ln2))
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
