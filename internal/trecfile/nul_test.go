package trecfile

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLineNULEndsTheFile: trec_eval's line loop stops at a NUL byte that
// starts a line; one inside a line is left for the scanner to refuse.
func TestLineNULEndsTheFile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\nb\n", "a\nb\n"},
		{"a\n\x00b\nc\n", "a\n"},
		{"\x00a\n", ""},
		{"a\x00b\nc\n\x00", "a\x00b\nc\n"},
		{"a\n\n\x00\n", "a\n\n"},
	}
	for _, tc := range tests {
		for name, r := range map[string]io.Reader{
			"whole":    cutAtLineNUL(strings.NewReader(tc.in)),
			"bytewise": cutAtLineNUL(iotest.OneByteReader(strings.NewReader(tc.in))),
		} {
			got, err := io.ReadAll(r)
			if err != nil || string(got) != tc.want {
				t.Errorf("%s %q: %q, %v; want %q", name, tc.in, got, err, tc.want)
			}
		}
		if got := cutDataAtLineNUL([]byte(tc.in)); string(got) != tc.want {
			t.Errorf("data %q: %q; want %q", tc.in, got, tc.want)
		}
	}
}

// TestStdinReaderDropsTheChunkAfterANUL: trec_eval 10.0 reads standard
// input with fgets into 10000 bytes and keeps each chunk up to its first
// NUL byte.
func TestStdinReaderDropsTheChunkAfterANUL(t *testing.T) {
	long := strings.Repeat("x", 9999)
	tests := []struct{ in, want string }{
		{"a b\nc d\n", "a b\nc d\n"},
		{"a\x00b\nc\n", "ac\n"},
		{"\x00a\nb\n", "b\n"},
		{"a\n\x00", "a\n"},
		{long + "y\x00z\nw\n", long + "yw\n"},
		{long + "\x00z\n", long},
		{long[:9998] + "\n\x00z\n", long[:9998] + "\n"},
	}
	for _, tc := range tests {
		got, err := io.ReadAll(StdinReader(iotest.HalfReader(strings.NewReader(tc.in))))
		if err != nil || string(got) != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
