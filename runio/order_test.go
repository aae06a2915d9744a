package runio

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCompareQID(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "1", 0},
		{"1", "2", -1},
		{"9", "10", -1},
		{"10", "9", 1},
		{"010", "10", -1}, // equal value: byte-wise tie break
		{"10", "010", 1},
		{"0", "00", -1},
		{"123", "q1", -1}, // integers first
		{"q1", "123", 1},
		{"q10", "q9", -1}, // non-integers byte-wise
		{"a", "b", -1},
		{"-1", "1", 1}, // "-1" is not an unsigned integer
		{"1.5", "10", 1},
	}
	for _, tc := range tests {
		if got := CompareQID(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareQID(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestCompareQIDTotalOrder checks antisymmetry and transitivity on a mix
// of ids by sorting them and comparing every pair.
func TestCompareQIDTotalOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := []string{"0", "00", "1", "01", "9", "10", "010", "99", "100", "a", "a1", "b", "Q", "q10", "q9", "-1", "1a", ""}
	ids := make([]string, 300)
	for i := range ids {
		ids[i] = pool[r.IntN(len(pool))]
	}
	slices.SortFunc(ids, CompareQID)
	for i := range ids {
		for j := range ids {
			c := CompareQID(ids[i], ids[j])
			if c != -CompareQID(ids[j], ids[i]) {
				t.Fatalf("not antisymmetric: %q %q", ids[i], ids[j])
			}
			if i < j && c > 0 {
				t.Fatalf("sorted %q before %q but compare gives %d", ids[i], ids[j], c)
			}
			if (c == 0) != (ids[i] == ids[j]) {
				t.Fatalf("compare(%q, %q) = 0 for different ids", ids[i], ids[j])
			}
		}
	}
}
