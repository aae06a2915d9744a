package runio

import (
	"math/rand/v2"
	"testing"
)

// TestDocTable: insert finds an id again exactly when a map of the same
// ids does, over queries of random ids of 0 to 16 bytes drawn from a small
// alphabet with NUL bytes (so that ids share their first 8 bytes, differ
// only in length, or pad like "ab" and "ab\x00"), and key returns each
// id's bytes.
func TestDocTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	tbl := newDocTable()
	for q := range 300 {
		n := r.IntN(400)
		tbl.reset(r.IntN(n + 1))
		naive := map[string]int{}
		for range n {
			b := make([]byte, r.IntN(17))
			for i := range b {
				b[i] = "ab\x00"[r.IntN(3)]
			}
			idx, dup := tbl.insert(b)
			want, seen := naive[string(b)]
			if dup != seen || seen && idx != want {
				t.Fatalf("query %d: insert(%q) = %d, %v; want %d, %v", q, b, idx, dup, want, seen)
			}
			if !seen {
				naive[string(b)] = idx
			}
			if got := tbl.key(idx); string(got) != string(b) {
				t.Fatalf("query %d: key(%d) = %q, want %q", q, idx, got, b)
			}
		}
	}
}
