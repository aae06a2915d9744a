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
		var want [][]byte
		for _, f := range bytes.FieldsFunc(b, func(c rune) bool { return isSpace(byte(c)) }) {
			want = append(want, f)
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
