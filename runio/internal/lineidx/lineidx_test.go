package lineidx

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// rec builds the record of a line of length ln with the field count n and
// the spans given as start, end pairs, by hand.
func rec(ln, n int, spans ...int) Rec {
	var r Rec
	r[0], r[1] = byte(ln), byte(n)
	for k := range Fields {
		st, en := Window, Window
		if 2*k < len(spans) {
			st, en = spans[2*k], spans[2*k+1]
		}
		r[2+2*k], r[3+2*k] = byte(st), byte(en)
	}
	return r
}

// pad makes s at least Window bytes long with a tail that is no line.
func pad(s string) []byte { return []byte(s + strings.Repeat("x", Window)) }

// TestIndexCases: records worked by hand, with both separator sets, by
// indexGo and by the kernels.
func TestIndexCases(t *testing.T) {
	for _, c := range []struct {
		name   string
		data   []byte
		cspace bool
		want   []Rec
	}{
		{"run line", pad("1 Q0 D69 1 2.328 gen\n"), false,
			[]Rec{rec(20, 6, 0, 1, 2, 4, 5, 8, 9, 10, 11, 16, 17, 20)}},
		{"qrels lines, CRLF", pad("1 0 D99 0\r\n\t2  0 a 1\n"), false,
			[]Rec{rec(10, 4, 0, 1, 2, 3, 4, 7, 8, 9), rec(9, 4, 1, 2, 4, 5, 6, 7, 8, 9)}},
		{"blank line, then 8 fields", pad(" \r\n1 2 3 4 5 6 7 8\n"), false,
			[]Rec{rec(2, 0), rec(15, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)}},
		{"control byte: separates in strict", pad("a\x01b\n"), false, []Rec{rec(3, 2, 0, 1, 2, 3)}},
		{"control byte: a field byte with C's separators", pad("a\x01b\v c\n"), true, []Rec{rec(6, 2, 0, 3, 5, 6)}},
		{"NUL with C's separators", pad("a b\x00\nc\n"), true, []Rec{rec(4, NUL, 0, 1, 2, 4), rec(1, 1, 0, 1)}},
		{"NUL after the line does not count; a NUL is a field byte", pad("a\n\x00\n"), true, []Rec{rec(1, 1, 0, 1), rec(1, NUL, 0, 1)}},
		{"high bytes are field bytes", pad("\xff\x80 \xa0\n"), true, []Rec{rec(4, 2, 0, 2, 3, 4)}},
		{"a line of 63 bytes", pad(strings.Repeat("ab ", 21) + "\n"), false,
			[]Rec{rec(63, 21, 0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17)}},
		{"no newline in 64 bytes", pad(strings.Repeat("a", 64) + "\n"), false, nil},
		{"fewer than 64 bytes left", []byte("1 0 a 1\n" + strings.Repeat("x", 62)), false,
			[]Rec{rec(7, 4, 0, 1, 2, 3, 4, 5, 6, 7)}},
	} {
		for _, impl := range []struct {
			name string
			f    func([]byte, []Rec) int
		}{
			{"go", func(d []byte, r []Rec) int { return indexGo(d, r, c.cspace) }},
			{"kernel", func(d []byte, r []Rec) int {
				if c.cspace {
					return indexCAVX2(d, r)
				}
				return indexStrictAVX2(d, r)
			}},
		} {
			recs := make([]Rec, 8)
			n := impl.f(c.data, recs)
			if n != len(c.want) {
				t.Errorf("%s, %s: %d records, want %d", c.name, impl.name, n, len(c.want))
				continue
			}
			for i := range n {
				if recs[i] != c.want[i] {
					t.Errorf("%s, %s: record %d = %v, want %v", c.name, impl.name, i, recs[i], c.want[i])
				}
			}
		}
	}
}

// randomLines returns n bytes drawn mostly from the bytes that matter.
func randomLines(rng *rand.Rand, n int) []byte {
	const special = " \t\n\r\v\f\x00\x01\x1f#\x80\xff!"
	b := make([]byte, n)
	for i := range b {
		switch rng.IntN(4) {
		case 0:
			b[i] = special[rng.IntN(len(special))]
		case 1:
			b[i] = byte(rng.IntN(256))
		default:
			b[i] = "abcQ0.123"[rng.IntN(9)]
		}
		if rng.IntN(30) == 0 {
			b[i] = '\n'
		}
	}
	return b
}

// TestIndexRandom: the kernels write indexGo's records, on random bytes
// cut at every offset and with room for any number of records.
func TestIndexRandom(t *testing.T) {
	if !Fast {
		t.Skip("no kernels in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 300 {
		data := randomLines(rng, 64+rng.IntN(400))
		for off := range len(data) {
			for _, cspace := range []bool{false, true} {
				nr := rng.IntN(12)
				want := make([]Rec, nr)
				got := make([]Rec, nr)
				for i := range got {
					got[i][15] = 0xee // the kernel writes 14 bytes
					want[i][15] = 0xee
				}
				wn := indexGo(data[off:], want, cspace)
				for i := range want[:wn] {
					want[i][15] = 0xee
				}
				var gn int
				if cspace {
					gn = indexCAVX2(data[off:], got)
				} else {
					gn = indexStrictAVX2(data[off:], got)
				}
				if gn != wn || !equal(got[:gn], want[:wn]) {
					t.Fatalf("cspace %v at %d of %q: %d records %v, want %d %v", cspace, off, data, gn, got[:gn], wn, want[:wn])
				}
			}
		}
	}
}

func equal(a, b []Rec) bool {
	for i := range a {
		if !bytes.Equal(a[i][:14], b[i][:14]) {
			return false
		}
	}
	return len(a) == len(b)
}

// FuzzIndex: the kernels write indexGo's records.
func FuzzIndex(f *testing.F) {
	f.Add([]byte(strings.Repeat("1 Q0 D69 1 2.328 gen\n", 5)), false)
	f.Add([]byte(strings.Repeat("1 0 D99\x00 0\r\n", 8)), true)
	f.Fuzz(func(t *testing.T, data []byte, cspace bool) {
		if !Fast {
			t.Skip("no kernels")
		}
		want := make([]Rec, 16)
		got := make([]Rec, 16)
		wn := indexGo(data, want, cspace)
		var gn int
		if cspace {
			gn = indexCAVX2(data, got)
		} else {
			gn = indexStrictAVX2(data, got)
		}
		if gn != wn || !equal(got[:gn], want[:wn]) {
			t.Fatalf("%q: %d records %v, want %d %v", data, gn, got[:gn], wn, want[:wn])
		}
	})
}
