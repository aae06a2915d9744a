package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
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

// TestSpoolNoTempDir: past its memory, a spool that cannot make its file
// fails the write with an error naming TMPDIR.
func TestSpoolNoTempDir(t *testing.T) {
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	s := &spool{limit: 4}
	if _, err := s.Write([]byte("ab")); err != nil {
		t.Fatalf("in memory: %v", err)
	}
	_, err := s.Write([]byte("cdef"))
	if err == nil || !strings.Contains(err.Error(), "TMPDIR") {
		t.Fatalf("past the memory: %v, want an error naming TMPDIR", err)
	}
	s.Close()
}
