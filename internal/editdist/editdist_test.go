package editdist

import "testing"

// TestDistance: distances worked by hand.
func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"ndcg", "ndcg", 0},
		{"ndgc", "ndcg", 1},      // one swap
		{"colums", "columns", 1}, // one insertion
		{"kitten", "sitting", 3}, // two substitutions, one insertion
		{"ca", "abc", 3},         // optimal string alignment: no edit of a swapped pair
		{"seed", "ties-seed", 5},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
}
