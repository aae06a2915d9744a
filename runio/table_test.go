package runio

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestDocTable: insert finds an id again exactly when a map of the same
// ids does, over queries of random ids of 0 to 16 bytes drawn from a small
// alphabet with NUL bytes (so that ids share their first 8 bytes, differ
// only in length, or pad like "ab" and "ab\x00"), its slot keeping the
// value set at its first insert (through the growth of a table sized for
// fewer ids); slotKey gives back each id's bytes. The ids are inserted from a
// buffer where other bytes follow them (insertIn loads 8 bytes at once and
// masks those off) or where they end the capacity (it loads them byte by
// byte).
func TestDocTable(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	tbl := newDocTable()
	for q := range 300 {
		n := r.IntN(400)
		tbl.reset(r.IntN(n + 1))
		naive := map[string]int32{}
		for k := range n {
			b := make([]byte, r.IntN(17))
			for i := range b {
				b[i] = "ab\x00"[r.IntN(3)]
			}
			// buf holds b at start, followed by pad bytes of junk.
			pad, start := r.IntN(10), r.IntN(3)
			buf := make([]byte, start+len(b)+pad)
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			copy(buf[start:], b)
			var idx int
			var dup bool
			if r.IntN(2) == 0 {
				idx, dup = tbl.insertIn(buf[:start+len(b)], uint32(start), uint32(start+len(b)))
			} else {
				idx, dup = tbl.insert(b)
			}
			want, seen := naive[string(b)]
			if dup != seen {
				t.Fatalf("query %d: insert(%q) found %v, want %v", q, b, dup, seen)
			}
			s := &tbl.slots[idx]
			if !seen {
				if s.a != -1 || s.b != -1 {
					t.Fatalf("query %d: new slot of %q holds %d, %d", q, b, s.a, s.b)
				}
				naive[string(b)] = int32(k)
				s.a, s.b = int32(k), -int32(k)
			} else if s.a != want || s.b != -want {
				t.Fatalf("query %d: insert(%q) found the slot of %d, %d; want %d", q, b, s.a, s.b, want)
			}
			if got := slotKey(tbl, idx); string(got) != string(b) {
				t.Fatalf("query %d: key(%d) = %q, want %q", q, idx, got, b)
			}
		}
		if tbl.count != len(naive) {
			t.Fatalf("query %d: %d slots in use, %d ids", q, tbl.count, len(naive))
		}
	}
}

// slotKey returns the bytes of the id in slot i of t (valid until the next
// reset), rebuilt from what the slot holds.
func slotKey(t *docTable, i int) []byte {
	s := &t.slots[i]
	n := s.n - 1
	if n > 8 {
		return t.arena[s.off : s.off+n]
	}
	return binary.BigEndian.AppendUint64(nil, s.k)[:n]
}
