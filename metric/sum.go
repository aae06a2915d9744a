package metric

// This file is the one place that fixes the order of additions. Every
// reduction of the kernels goes through sumFloat32 or sumFloat64, so the
// order TF-Ranking's reduce_sum uses can be reproduced by changing these
// two functions alone.

// sumFloat32 adds xs in float32, left to right, starting from +0, as TF's
// reduce_sum on CPU does for rows shorter than Eigen's packet size.
func sumFloat32(xs []float32) float32 {
	var s float32
	for _, x := range xs {
		s += x
	}
	return s
}

// sumFloat64 adds xs in float64, left to right, starting from +0.
func sumFloat64(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}
