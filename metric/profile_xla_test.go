package metric

import "testing"

// TestXLASum checks xlaSum on sums worked by hand, whose value depends on
// the order: 2^24 first, then ones, in float32. Added one by one every one
// is lost (2^24 + 1 rounds back to 2^24); a window of ones summed apart
// keeps them.
func TestXLASum(t *testing.T) {
	ones := func(n int) []float32 {
		xs := make([]float32, n)
		xs[0] = 1 << 24
		for i := 1; i < n; i++ {
			xs[i] = 1
		}
		return xs
	}
	for _, tc := range []struct {
		n    int
		want float32
	}{
		// Up to 32 values: in index order, every one lost.
		{1, 1 << 24}, {32, 1 << 24},
		// 33: windows of 17 (2^24 and 16 ones, lost) and 16 ones.
		{33, 1<<24 + 16},
		// 65: windows of 17, 32 and 16: 2^24, 32, 16.
		{65, 1<<24 + 48},
		// 64: windows of 32 and 32: 2^24 (31 ones lost), 32.
		{64, 1<<24 + 32},
		// 1057: 34 windows (17 values, 32 of 32, 16): 2^24, 32 times 32,
		// 16; then those 34 in two windows of 17: 2^24 + 16·32 and
		// 16·32 + 16.
		{1057, 1<<24 + 512 + 528},
	} {
		if got := xlaSum(ones(tc.n)); got != tc.want {
			t.Errorf("%d values: %v, want %v", tc.n, got, tc.want)
		}
	}
	// float64 windows alike: 2^53 first.
	xs := make([]float64, 33)
	xs[0] = 1 << 53
	for i := 1; i < 33; i++ {
		xs[i] = 1
	}
	if got := xlaSum(xs); got != 1<<53+16 {
		t.Errorf("float64, 33 values: %v, want 2^53+16", got)
	}
}
