package runio

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestDedupeIndex(t *testing.T) {
	// Documents and scores in input order; "" has no id and never repeats.
	docs := []string{"a", "b", "a", "", "c", "a", ""}
	scores := []float64{1, 2, 5, 0, 3, 5, 0}
	tests := []struct {
		p       DedupePolicy
		keep    []int
		dropped int64
		err     string
	}{
		{DedupeFirst, []int{0, 1, 3, 4, 6}, 2, ""},
		// a's slot stays first; row 2 holds its largest score (row 5 ties
		// and comes later).
		{DedupeMax, []int{2, 1, 3, 4, 6}, 2, ""},
		{DedupeError, nil, 0, `document "a" appears twice (first at row 0, again at row 2)`},
	}
	for _, tc := range tests {
		t.Run(tc.p.String(), func(t *testing.T) {
			keep, dropped, err := DedupeIndex(len(docs), tc.p,
				func(i int) string { return docs[i] },
				func(i, j int) bool { return scores[i] > scores[j] },
				func(i int) string { return "row " + strconv.Itoa(i) })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(keep, tc.keep) || dropped != tc.dropped {
				t.Errorf("keep %v dropped %d err %v, want %v %d", keep, dropped, err, tc.keep, tc.dropped)
			}
		})
	}
	if err := DedupePolicy(9).Check(); err == nil {
		t.Error("Check(9): no error")
	}
	if err := DedupeMax.Check(); err != nil {
		t.Error(err)
	}
}
