package runio

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestMaybeGunzip: an input gzipped or not, shorter or longer than the
// bytes looked at and than the buffers, given in reads of any size, reads
// back as the bytes written, and a read error comes through.
func TestMaybeGunzip(t *testing.T) {
	long := strings.Repeat("1 Q0 d1 1 0.5 r\n", 20000) // 320,000 bytes: 5 gzip input buffers
	tests := []struct {
		name string
		data string
	}{
		{"empty", ""},
		{"one byte", "1"},
		{"shorter than the magic bytes looked at", "1 0 d 1"},
		{"one gzip byte", "\x1f"},
		{"lines", "1 0 d1 1\n1 0 d2 0\n"},
		{"longer than the buffers", long},
	}
	for _, tc := range tests {
		for _, gz := range []bool{false, true} {
			in := []byte(tc.data)
			if gz {
				in = gzipBytes(t, in)
			}
			for _, step := range []int{1, 3, 4096, 1 << 20} {
				for _, bufSize := range []int{0, 64, 100, 1 << 16} {
					r, err := MaybeGunzip(&stepReader{data: in, step: step}, "f", bufSize)
					if err != nil {
						t.Fatalf("%s gz %v: %v", tc.name, gz, err)
					}
					_, isGzip := r.(gzipReader)
					if isGzip != gz {
						t.Fatalf("%s gz %v: read as gzip: %v", tc.name, gz, isGzip)
					}
					got, err := io.ReadAll(r)
					if err != nil || string(got) != tc.data {
						t.Fatalf("%s gz %v step %d buffer %d: got %d bytes, %v; want %d bytes", tc.name, gz, step, bufSize, len(got), err, len(tc.data))
					}
				}
			}
		}
	}
	// A read error after the magic bytes, in a gzipped and a plain input.
	boom := errors.New("boom")
	for _, gz := range []bool{false, true} {
		in := []byte(long)
		if gz {
			in = gzipBytes(t, in)
		}
		r, err := MaybeGunzip(io.MultiReader(bytes.NewReader(in[:len(in)/2]), errReader{boom}), "f", 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadAll(r); !errors.Is(err, boom) {
			t.Errorf("gz %v: error %v, want %v", gz, err, boom)
		}
	}
}

// stepReader gives data at most step bytes a read.
type stepReader struct {
	data []byte
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), s.step)], s.data)
	s.data = s.data[n:]
	return n, nil
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
