package main

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSpool: what is written comes out whole and in order, whether it
// stayed in memory, went to the file, or both; Close drops it.
func TestSpool(t *testing.T) {
	for _, limit := range []int{0, 1, 100, 1 << 20} {
		s := &spool{limit: limit}
		var want bytes.Buffer
		for i := range 500 {
			line := fmt.Sprintf("map\tq%d\t0.%d\n", i, i*7)
			want.WriteString(line)
			if n, err := s.Write([]byte(line)); err != nil || n != len(line) {
				t.Fatalf("limit %d: Write: %d, %v", limit, n, err)
			}
		}
		var got bytes.Buffer
		n, err := s.WriteTo(&got)
		if err != nil || n != int64(want.Len()) || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("limit %d: WriteTo: %d bytes, %v; same: %v", limit, n, err, bytes.Equal(got.Bytes(), want.Bytes()))
		}
		if (s.f != nil) != (want.Len() > limit) {
			t.Errorf("limit %d: file %v for %d bytes", limit, s.f != nil, want.Len())
		}
		if err := s.Close(); err != nil {
			t.Errorf("limit %d: Close: %v", limit, err)
		}
	}
}
