package treceval

import (
	"math/rand/v2"
	"testing"
)

// prefixKey packs the first 8 bytes of a docno, big-endian, zero padded:
// checked against that definition written as a loop, on every length
// from 0 to 20 with random bytes (0 and 0xff included).
func TestPrefixKey(t *testing.T) {
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
			if got := prefixKey(string(b)); got != want {
				t.Fatalf("prefixKey(%q) = %#x, want %#x", b, got, want)
			}
		}
	}
}
