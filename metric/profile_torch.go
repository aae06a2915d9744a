package metric

// The order in which CPU torch (2.x) adds a contiguous float tensor: its
// sum kernel's vector width, multi-row accumulation and cascade. This is
// torch's machine arithmetic, not a definition of torchmetrics, so it is
// written here by hand and called by the generated profile kernels.

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
