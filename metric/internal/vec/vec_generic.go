package vec

import "math"

// ftz32 flushes a subnormal x to a zero of its sign, as metric's ftzFloat32.
func ftz32(x float32) float32 {
	u := math.Float32bits(x)
	if u&0x7f800000 == 0 {
		u &= 0x80000000
	}
	return math.Float32frombits(u)
}

// packets32Go is the reference of Packets32.
func packets32Go(xs []float32, acc *[8]float32) {
	var a [4][8]float32
	n32, n8 := len(xs)&^31, len(xs)&^7
	i := 0
	for ; i < n32; i += 32 {
		for q := range a {
			for l := range a[q] {
				a[q][l] = ftz32(a[q][l] + ftz32(xs[i+8*q+l]))
			}
		}
	}
	if n32 > 0 {
		for q := 1; q < len(a); q++ {
			for l := range a[0] {
				a[0][l] = ftz32(a[0][l] + a[q][l])
			}
		}
	}
	for ; i < n8; i += 8 {
		for l := range a[0] {
			a[0][l] = ftz32(a[0][l] + ftz32(xs[i+l]))
		}
	}
	*acc = a[0]
}

// countLEGo is the reference of CountLE.
func countLEGo(xs, pivots []uint64, counts []int) {
	for j, p := range pivots {
		c := 0
		for _, x := range xs {
			if x <= p {
				c++
			}
		}
		counts[j] = c
	}
}

// countScoresGo is the reference of CountScores.
func countScoresGo(xs, pivots []uint64, below, atOrBelow []int) {
	for j, p := range pivots {
		s := uint32(p >> 32)
		b, a := 0, 0
		for _, x := range xs {
			h := uint32(x >> 32)
			if h < s {
				b++
			}
			if h <= s {
				a++
			}
		}
		below[j], atOrBelow[j] = b, a
	}
}

// terms32Go is the reference of Terms32.
func terms32Go(dst, num, den, w []float32) {
	num, den, w = num[:len(dst)], den[:len(dst)], w[:len(dst)]
	for i := range dst {
		dst[i] = ftz32(num[i] / den[i] * w[i])
	}
}

// countAbove96Go is the reference of CountAbove96.
func countAbove96Go(keys, pivots []uint64, counts []int) {
	for j := range len(pivots) / 2 {
		ps, pt := pivots[2*j], uint32(pivots[2*j+1])
		c := 0
		for i := 0; i+1 < len(keys); i += 2 {
			xs, xt := keys[i], uint32(keys[i+1])
			if xs > ps || xs == ps && xt > pt {
				c++
			}
		}
		counts[j] = c
	}
}

// countScores64Go is the reference of CountScores64.
func countScores64Go(keys, pivots []uint64, below, atOrBelow []int) {
	for j := range len(pivots) / 2 {
		p := pivots[2*j]
		b, a := 0, 0
		for i := 0; i+1 < len(keys); i += 2 {
			if keys[i] < p {
				b++
			}
			if keys[i] <= p {
				a++
			}
		}
		below[j], atOrBelow[j] = b, a
	}
}
