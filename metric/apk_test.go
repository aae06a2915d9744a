package metric

import (
	"errors"
	"math"
	"testing"
)

// TestAPK checks apk on the worked examples of issue 6 and the rules of
// ml_metrics: repeated predictions count once, an empty actual gives 0.
func TestAPK(t *testing.T) {
	ids := func(s string) []string {
		out := make([]string, len(s))
		for i, c := range s {
			out[i] = string(c)
		}
		return out
	}
	for _, tc := range []struct {
		name              string
		actual, predicted []string
		k                 int
		want              float64
	}{
		// relevance 1 0 1 0 0 1 0 0 1 1, 5 relevant, k 10.
		{"5 relevant, k 10", ids("acfij"), ids("abcdefghij"), 10, (1 + 2.0/3 + 3.0/6 + 4.0/9 + 5.0/10) / 5},
		// k 7, 8 relevant: hits at 1, 6, 7 and at 1, 2, 3.
		{"hits at 1 6 7", ids("afgxyzuv"), ids("abcdefg"), 7, (1 + 2.0/6 + 3.0/7) / 7},
		{"hits at 1 2 3", ids("abcxyzuv"), ids("abcdefg"), 7, 3.0 / 7},
		{"a repeated prediction counts once", ids("ab"), ids("aab"), 3, (1 + 2.0/3) / 2},
		{"predictions past k do not count", ids("ab"), ids("xab"), 2, 0.5 / 2},
		{"no actual ids", nil, ids("ab"), 3, 0},
		{"no predictions", ids("ab"), nil, 3, 0},
	} {
		got, err := APK(tc.actual, tc.predicted, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > 1e-15 {
			t.Fatalf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got, _ := APK(ids("acfij"), ids("abcdefghij"), 10); math.Round(got*1e4)/1e4 != 0.6222 {
		t.Fatalf("the issue's 0.6222: %v", got)
	}
	m, err := MAPK([][]int{{1, 2}, {3}}, [][]int{{1, 9}, {9, 3}}, 2)
	// List 1: a hit at 1 over min(2, 2); list 2: a hit at 2 over min(1, 2).
	if err != nil || m != (1.0/2+(1.0/2)/1)/2 {
		t.Fatalf("MAPK: %v, %v", m, err)
	}
	if _, err := APK([]int{1}, []int{1}, 0); !errors.Is(err, ErrConfig) {
		t.Fatalf("k 0: %v", err)
	}
	if _, err := MAPK([][]int{{1}}, nil, 1); !errors.Is(err, ErrInput) {
		t.Fatalf("mismatched lists: %v", err)
	}
}
