package runio

import (
	"bytes"
	"strings"
	"testing"
)

// chunks.ReadAt reads what bytes.Reader.ReadAt reads, across pieces.
func TestChunksReadAt(t *testing.T) {
	data := make([]byte, 2*wholeChunk+100)
	for i := range data {
		data[i] = byte(i*7 + i>>20)
	}
	c, err := readWhole(bytes.NewReader(data), "in", int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.NewReader(data)
	for _, tc := range []struct{ off, n int }{
		{0, 10}, {wholeChunk - 3, 6}, {wholeChunk, wholeChunk}, {wholeChunk - 1, wholeChunk + 2},
		{0, len(data)}, {len(data) - 5, 10}, {len(data), 1}, {len(data) + 3, 1}, {5, 0},
	} {
		got, exp := make([]byte, tc.n), make([]byte, tc.n)
		gn, gerr := c.ReadAt(got, int64(tc.off))
		wn, werr := want.ReadAt(exp, int64(tc.off))
		if gn != wn || !bytes.Equal(got, exp) || (gerr == nil) != (werr == nil) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v; want %d, %v", tc.n, tc.off, gn, gerr, wn, werr)
		}
	}
	if _, err := readWhole(bytes.NewReader(data), "in", int64(len(data))-1); err == nil || !strings.Contains(err.Error(), "--max-input-bytes") {
		t.Errorf("over the limit by one: %v", err)
	}
}
