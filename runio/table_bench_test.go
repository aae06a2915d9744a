package runio

// The document table the join used before docTable (see its comment),
// kept to show why it changed: BenchmarkDocTable inserts the 100 judged
// and then the 100 ranked ids of bench/gen-like queries into each.

import (
	"bytes"
	"hash/maphash"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/prefixkey"
)

// oldDocTable was a per-query hash table from document id to two int32 slots,
// keyed on bytes copied into an arena. Reset keeps the memory, so a stream
// of queries allocates only when a query is larger than all before it. An
// id of at most 8 bytes is hashed from its prefix key and length
// (prefixkey.Short, a bijection): equal hashes and lengths are equal ids,
// found without comparing bytes (eval -m map --workers 1 on the 5M+5M-line
// pair of 3-byte docnos, 15 alternated runs: 0.59/0.59 s wall, min/median,
// with maphash and bytes.Equal for every id, 0.58/0.58 s).
type oldDocTable struct {
	seed    maphash.Seed
	seed64  uint64 // keys the hash of ids of at most 8 bytes
	arena   []byte
	entries []oldDocEntry
	slots   []int32 // index into entries + 1; 0 = empty
	mask    uint64
}

type oldDocEntry struct {
	hash uint64
	off  uint32
	n    uint32
	a, b int32 // caller's data: -1 when unset
}

func newOldDocTable() *oldDocTable {
	seed := maphash.MakeSeed()
	return &oldDocTable{seed: seed, seed64: maphash.Comparable(seed, uint64(0x9e3779b97f4a7c15))}
}

// reset empties the table and sizes it for about n keys.
func (t *oldDocTable) reset(n int) {
	t.arena = t.arena[:0]
	t.entries = t.entries[:0]
	want := 16
	for want < 2*n {
		want <<= 1
	}
	if len(t.slots) < want || len(t.slots) > 8*want && len(t.slots) > 1024 {
		t.slots = make([]int32, want)
	} else {
		clear(t.slots)
	}
	t.mask = uint64(len(t.slots) - 1)
}

// insert returns the entry index of key and whether it was already there.
// A new entry has a = b = -1.
func (t *oldDocTable) insert(key []byte) (int, bool) {
	if 2*(len(t.entries)+1) > len(t.slots) {
		t.grow()
	}
	n := uint32(len(key))
	short := n <= 8
	var h uint64
	if short {
		h = prefixkey.Short(prefixkey.Of(key), len(key), t.seed64)
	} else {
		h = maphash.Bytes(t.seed, key)
	}
	i := h & t.mask
	for ; ; i = (i + 1) & t.mask {
		s := t.slots[i]
		if s == 0 {
			break
		}
		e := &t.entries[s-1]
		if e.hash == h && e.n == n && (short || bytes.Equal(t.arena[e.off:e.off+e.n], key)) {
			return int(s - 1), true
		}
	}
	off := len(t.arena)
	t.arena = append(t.arena, key...)
	t.entries = append(t.entries, oldDocEntry{hash: h, off: uint32(off), n: uint32(len(key)), a: -1, b: -1})
	t.slots[i] = int32(len(t.entries))
	return len(t.entries) - 1, false
}

func (t *oldDocTable) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	t.mask = uint64(len(t.slots) - 1)
	for j := range t.entries {
		i := t.entries[j].hash & t.mask
		for t.slots[i] != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = int32(j + 1)
	}
}

func BenchmarkDocTable(b *testing.B) {
	run, qrels := benchGenPair(200)
	qbs, rbs := benchBlocks(b, qrels, false), benchBlocks(b, run, true)
	lines := 0
	for i := range qbs {
		lines += len(qbs[i].vals) + len(rbs[i].vals)
	}
	b.Run("old", func(b *testing.B) {
		t := newOldDocTable()
		for b.Loop() {
			for i := range qbs {
				t.reset(len(qbs[i].vals) + len(rbs[i].vals))
				for _, blk := range []*trecBlock{qbs[i], rbs[i]} {
					for j := range blk.vals {
						t.insert(blk.doc(j))
					}
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/id")
	})
	b.Run("new", func(b *testing.B) {
		t := newDocTable()
		for b.Loop() {
			for i := range qbs {
				t.reset(len(qbs[i].vals) + len(rbs[i].vals))
				for _, blk := range []*trecBlock{qbs[i], rbs[i]} {
					start := uint32(0)
					for _, end := range blk.docEnd {
						t.insertIn(blk.docs, start, end)
						start = end
					}
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/id")
	})
}
