//go:build !amd64 || purego

package vec

// avx2 is false: this build has no vector kernels.
const avx2 = false

// packets32AVX2 stands in for the assembly kernel, which this build lacks.
func packets32AVX2(xs []float32, acc *[8]float32) { packets32Go(xs, acc) }

// countLEAVX2 stands in for the assembly kernel, which this build lacks.
func countLEAVX2(xs, pivots []uint64, counts []int) { countLEGo(xs, pivots, counts) }
