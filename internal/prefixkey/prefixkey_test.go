package prefixkey

import (
	"math/rand/v2"
	"testing"
)

// Of packs the first 8 bytes of an id, big-endian, zero padded: checked
// against that definition written as a loop, on every length from 0 to
// 20 with random bytes (0 and 0xff included), for Of and OfString.
func TestOf(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	for n := range 21 {
		for range 2000 {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.IntN(256))
				if r.IntN(8) == 0 {
					b[i] = []byte{0, 0xff}[r.IntN(2)]
				}
			}
			var want uint64
			for i := 0; i < min(n, 8); i++ {
				want |= uint64(b[i]) << (56 - 8*i)
			}
			if got := Of(b); got != want {
				t.Fatalf("Of(%q) = %#x, want %#x", b, got, want)
			}
			if got := OfString(string(b)); got != want {
				t.Fatalf("OfString(%q) = %#x, want %#x", b, got, want)
			}
		}
	}
}

// Short is a bijection for a fixed length and seed: ids of up to 8 bytes
// hash alike only if they are equal (every pair of 20,000 random short
// ids, and the 256 one-byte ids, against a set of hashes).
func TestShortDistinct(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	seen := map[uint64]string{}
	add := func(b []byte) {
		h := Short(Of(b), len(b), 0x1234)
		if o, ok := seen[h]; ok && o != string(b) {
			t.Fatalf("%q and %q hash alike", o, b)
		}
		seen[h] = string(b)
	}
	for c := range 256 {
		add([]byte{byte(c)})
	}
	for range 20000 {
		b := make([]byte, 1+r.IntN(8))
		for i := range b {
			b[i] = byte('0' + r.IntN(75))
		}
		add(b)
	}
}
