package main

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestPass checks the MAP of a small pair against average precisions
// worked by hand, with docnos of up to 8 bytes and longer, a tie and a
// query without a relevant document.
func TestPass(t *testing.T) {
	dir := t.TempDir()
	qrels := "1 0 a 1\n1 0 b 0\n1 0 longdocno-c 2\n" + // query 1: a and longdocno-c relevant
		"2 0 x 0\n" // query 2: nothing relevant
	run := "1 Q0 b 1 3.5 r\n1 Q0 longdocno-c 2 2.25 r\n1 Q0 z 3 2.25 r\n1 Q0 a 4 -1 r\n" +
		"2 Q0 x 1 1 r\n"
	qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	if err := os.WriteFile(qp, []byte(qrels), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rp, []byte(run), 0o600); err != nil {
		t.Fatal(err)
	}
	// Query 1 ranks b, longdocno-c, z (tied with it, after it in input
	// order), a: relevant at ranks 2 and 4, AP = (1/2 + 2/4) / 2 = 0.5.
	// Query 2: AP 0. MAP over the run's 2 queries: 0.25.
	st := &state{}
	for range 2 { // the second pass reuses the buffers
		got, n, err := st.pass(qp, rp)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 || math.Abs(got-0.25) > 1e-15 {
			t.Fatalf("pass = %v over %d queries, want 0.25 over 2", got, n)
		}
	}
}

// TestSortItems checks that the sort is a permutation in the order of
// before.
func TestSortItems(t *testing.T) {
	var it []item
	for i := range 200 {
		it = append(it, item{score: float64((i * 37) % 23), idx: int32(i)})
	}
	sortItems(it)
	seen := make([]bool, len(it))
	for _, x := range it {
		if seen[x.idx] {
			t.Fatalf("item %d twice", x.idx)
		}
		seen[x.idx] = true
	}
	for i := 1; i < len(it); i++ {
		if before(&it[i], &it[i-1]) {
			t.Fatalf("items %d and %d out of order: %+v %+v", i-1, i, it[i-1], it[i])
		}
	}
}
