package runio

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// splitCFields finds the fields of a naive split at C's isspace bytes
// (the first max of them) and a NUL byte wherever it is, on random lines
// of field bytes, separators, control bytes and NUL bytes.
func TestSplitCFields(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	alphabet := []byte("ab1. \t\n\v\f\r\x00\x01\x1f!")
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	for n := 0; n < 200000; n++ {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		max := 1 + r.IntN(7)
		// The naive split: a field starts at a non-space byte after a
		// space or at the start.
		var want [][]byte
		for i := 0; i < len(b); i++ {
			if isSpace(b[i]) || i > 0 && !isSpace(b[i-1]) {
				continue
			}
			j := i
			for j < len(b) && !isSpace(b[j]) {
				j++
			}
			want = append(want, b[i:j])
		}
		want = want[:min(len(want), max)]
		wantNUL := bytes.IndexByte(b, 0) >= 0
		got, nul := splitCFields(b, nil, max)
		if nul != wantNUL {
			t.Fatalf("%q max %d: NUL %v, want %v", b, max, nul, wantNUL)
		}
		if !nul && !slices.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("%q max %d: %q, want %q", b, max, got, want)
		}
	}
}
