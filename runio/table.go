package runio

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"

	"github.com/rankmetrics/rankmetrics/internal/prefixkey"
)

// docTable is a per-query hash table from document id to two int32 values,
// open addressed with linear probing over one array of slots that hold
// the id itself: an id of at most 8 bytes as its prefix key and length
// (prefixkey.Of, exact for a given length), a longer one as its maphash
// and its bytes in an arena. A probe touches one slot per step and
// compares a key and a length; the hash of a short id is prefixkey.Short.
// Reset keeps the memory, so a stream of queries allocates only when a
// query is larger than all before it.
//
// An index returned by insert stays valid until the next reset, or until
// an insert beyond the size given to reset (which grows the table and
// moves its slots).
//
// The table it replaced (kept in table_bench_test.go as oldDocTable)
// probed an array of int32 indexes into an array of entries (hash,
// offset, length, values), and copied every id into the arena:
// BenchmarkDocTable, 10.3 ns per id with it against 6.0 with this one;
// BenchmarkTRECJoin/gen/ids=no, 15.0 ns per line against 9.8.
type docTable struct {
	seed   maphash.Seed
	seed64 uint64 // keys the hash of ids of at most 8 bytes
	arena  []byte // the bytes of ids longer than 8 bytes
	slots  []docSlot
	mask   uint64
	count  int // slots in use
}

// docSlot is one slot of a docTable.
type docSlot struct {
	// k is the prefix key of an id of at most 8 bytes, the maphash of a
	// longer one.
	k uint64
	// n is the id's length + 1; 0 marks an empty slot.
	n uint32
	// off is the arena offset of an id longer than 8 bytes.
	off uint32
	// a and b are the caller's values: -1 when unset.
	a, b int32
}

func newDocTable() *docTable {
	seed := maphash.MakeSeed()
	return &docTable{seed: seed, seed64: maphash.Comparable(seed, uint64(0x9e3779b97f4a7c15))}
}

// reset empties the table and sizes it for about n keys.
func (t *docTable) reset(n int) {
	t.arena = t.arena[:0]
	t.count = 0
	want := 16
	for want < 2*n {
		want <<= 1
	}
	if len(t.slots) < want || len(t.slots) > 8*want && len(t.slots) > 1024 {
		t.slots = make([]docSlot, want)
	} else {
		clear(t.slots)
	}
	t.mask = uint64(len(t.slots) - 1)
}

// insert returns the slot index of key and whether it was already there.
// A new slot has a = b = -1. It reads only key's bytes (not the capacity
// past them, which the caller's buffer may be filling).
func (t *docTable) insert(key []byte) (int, bool) {
	return t.insertIn(key[:len(key):len(key)], 0, uint32(len(key)))
}

// insertIn is insert of the key buf[start:end]. An id of at most 8 bytes
// with 8 bytes of buf's capacity from start is loaded at once, the bytes
// past end masked off: buf's capacity must not be written meanwhile (a
// trecBlock's ids, which the join reads once their block is parsed).
func (t *docTable) insertIn(buf []byte, start, end uint32) (int, bool) {
	n := end - start
	if n > 8 {
		return t.insertLong(buf[start:end])
	}
	var k uint64
	if uint64(start)+8 <= uint64(cap(buf)) {
		// n in 0..8: the shift is 64 for n = 0, which gives 0.
		k = binary.BigEndian.Uint64(buf[start:cap(buf)]) & (^uint64(0) << (64 - 8*n))
	} else {
		k = prefixkey.Of(buf[start:end])
	}
	if 2*(t.count+1) > len(t.slots) {
		t.grow()
	}
	i := prefixkey.Short(k, int(n), t.seed64) & t.mask
	for {
		s := &t.slots[i]
		if s.n == 0 {
			*s = docSlot{k: k, n: n + 1, a: -1, b: -1}
			t.count++
			return int(i), false
		}
		if s.k == k && s.n == n+1 {
			return int(i), true
		}
		i = (i + 1) & t.mask
	}
}

// insertLong is insert of a key longer than 8 bytes.
func (t *docTable) insertLong(key []byte) (int, bool) {
	if 2*(t.count+1) > len(t.slots) {
		t.grow()
	}
	n := uint32(len(key))
	h := maphash.Bytes(t.seed, key)
	i := h & t.mask
	for {
		s := &t.slots[i]
		if s.n == 0 {
			off := uint32(len(t.arena))
			t.arena = append(t.arena, key...)
			*s = docSlot{k: h, n: n + 1, off: off, a: -1, b: -1}
			t.count++
			return int(i), false
		}
		if s.k == h && s.n == n+1 && bytes.Equal(t.arena[s.off:s.off+n], key) {
			return int(i), true
		}
		i = (i + 1) & t.mask
	}
}

// hash is the hash of the id in slot s.
func (t *docTable) hash(s *docSlot) uint64 {
	if n := s.n - 1; n <= 8 {
		return prefixkey.Short(s.k, int(n), t.seed64)
	}
	return s.k
}

func (t *docTable) grow() {
	old := t.slots
	t.slots = make([]docSlot, 2*len(old))
	t.mask = uint64(len(t.slots) - 1)
	for j := range old {
		if old[j].n == 0 {
			continue
		}
		i := t.hash(&old[j]) & t.mask
		for t.slots[i].n != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = old[j]
	}
}
