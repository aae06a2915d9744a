package runio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// A line over Options.MaxLineBytes is an error naming the file, the line
// and the flag; a line of exactly the limit (with or without "\r") is read.
func TestMaxLineBytes(t *testing.T) {
	const limit = 100
	pad := func(prefix string, n int) string { return prefix + strings.Repeat("x", n-len(prefix)) }
	okLine := pad("1\t1\t0.5\t", limit)       // exactly the limit
	longLine := pad("1\t1\t0.5\t", limit+1)   // one byte over
	hugeLine := pad("1\t1\t0.5\t", 5*limit+3) // over several buffers
	wantErr := "in:3: line longer than 100 bytes (--max-line-bytes raises the limit)"
	tests := []struct {
		name, in, want string
		buf            int
	}{
		{"at the limit", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + okLine + "\r\n", "", 0},
		{"at the limit, small buffer", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + okLine + "\r\n", "", 64},
		{"over", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + longLine + "\n", wantErr, 0},
		{"over, small buffer", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + longLine + "\n", wantErr, 64},
		{"over at EOF", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + longLine, wantErr, 64},
		{"far over", "qid\tlabel\tscore\tdoc\n" + okLine + "\n" + hugeLine + "\n", wantErr, 64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{MaxLineBytes: limit, BufferSize: tc.buf, Dedupe: DedupeFirst}
			got, err := readAllOrErr(NewDelimitedReader(bg, strings.NewReader(tc.in), "in", '\t', opts))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 1 || len(got[0].Scores) != 1 {
					t.Fatalf("got %+v, want one query of one item (the second line is a duplicate doc)", got)
				}
				return
			}
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %s", err, tc.want)
			}
		})
	}
	// Through Open, whose buffer is larger than the limit, on a file and
	// gzipped.
	for _, zip := range []bool{false, true} {
		p := writeFile(t, t.TempDir(), "in.tsv", []byte(tests[3].in), zip)
		_, err := readAllOrErr(Open(bg, []string{p}, Options{MaxLineBytes: limit}))
		if want := p + ":3: line longer than 100 bytes (--max-line-bytes raises the limit)"; err == nil || err.Error() != want {
			t.Errorf("Open gzip=%v: %v, want %s", zip, err, want)
		}
	}
	// Every text format goes through the same limit.
	long := strings.Repeat("y", limit+1)
	jl := `{"qid":"1","label":1,"score":1}` + "\n" + `{"qid":"1","label":1,"score":1,"x":"` + long + `"}` + "\n"
	if _, err := readAllOrErr(NewJSONLReader(bg, strings.NewReader(jl), "in.jsonl", Options{MaxLineBytes: limit})); err == nil ||
		err.Error() != "in.jsonl:2: line longer than 100 bytes (--max-line-bytes raises the limit)" {
		t.Errorf("JSONL: %v", err)
	}
	run := "1 Q0 a 1 1 t\n1 Q0 " + long + " 2 1 t\n"
	if _, err := readAllOrErr(NewTRECReader(bg, strings.NewReader("1 0 a 1\n"), strings.NewReader(run), "q", "r", Options{MaxLineBytes: limit})); err == nil ||
		err.Error() != "r:2: line longer than 100 bytes (--max-line-bytes raises the limit)" {
		t.Errorf("TREC: %v", err)
	}
}

func readAllOrErr(r Reader, err error) ([]Query, error) {
	if err != nil {
		return nil, err
	}
	return readAll(r)
}

// gzipBytes compresses data.
func gzipBytes(t testing.TB, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A gzipped RKM1 or Parquet file is read whole: over MaxInputBytes it is an
// error naming the file and the flag, and no more than the limit is held.
func TestMaxInputBytes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(RKM1Magic)
	binary.Write(&b, binary.LittleEndian, uint32(1000))
	binary.Write(&b, binary.LittleEndian, uint32(1000))
	b.Write(make([]byte, 5*1000*1000)) // 5 MB of zeros, a few KB gzipped
	dir := t.TempDir()
	p := writeFile(t, dir, "bomb.rkm1", gzipBytes(t, b.Bytes()), false)
	for _, tc := range []struct {
		limit int64
		want  string
	}{
		{1 << 20, p + ": decompressed input larger than 1048576 bytes, the limit for inputs read whole (--max-input-bytes raises it)"},
		{int64(b.Len()) - 1, p + ": decompressed input larger than 5000011 bytes, the limit for inputs read whole (--max-input-bytes raises it)"},
		{int64(b.Len()), ""},
	} {
		r, err := Open(bg, []string{p}, Options{MaxInputBytes: tc.limit})
		if tc.want == "" {
			if err != nil {
				t.Fatalf("limit %d: %v", tc.limit, err)
			}
			got, err := readAll(r)
			if err != nil || len(got) != 1000 {
				t.Fatalf("limit %d: %d queries, %v", tc.limit, len(got), err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("limit %d: error %v, want %s", tc.limit, err, tc.want)
		}
	}
}

// A truncated gzip file fails with its name said once.
func TestGzipErrorNamesFileOnce(t *testing.T) {
	var plain strings.Builder
	plain.WriteString("qid\tlabel\tscore\n")
	for i := range 20000 {
		plain.WriteString(strings.Repeat("q", i%7+1) + "\t1\t0.5\n")
	}
	z := gzipBytes(t, []byte(plain.String()))
	dir := t.TempDir()
	for _, name := range []string{"cut.tsv", "cut.rkm1"} {
		p := writeFile(t, dir, name, z[:len(z)/2], false)
		_, err := readAllOrErr(Open(bg, []string{p}, Options{Format: FormatTSV, Unsorted: UnsortedGroup}))
		if name == "cut.rkm1" {
			_, err = Open(bg, []string{p}, Options{Format: FormatRKM1})
		}
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if n := strings.Count(err.Error(), p); n != 1 {
			t.Errorf("%s: error names the file %d times: %v", name, n, err)
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "gzip: unexpected EOF") {
			t.Errorf("%s: error %v does not say the gzip stream is cut", name, err)
		}
	}
}

// A gzipped or piped RKM1 (or Parquet) input read whole takes its size in
// memory and less than two pieces more, not the up to three times of a
// buffer grown by doubling: TotalAlloc while opening bounds what is held.
func TestReadWholeMemory(t *testing.T) {
	const q, l = 1024, 13107 // 67,107,852 bytes
	var b bytes.Buffer
	WriteRKM1Header(&b, q, l)
	b.Write(make([]byte, 5*q*l))
	size := b.Len()
	z := gzipBytes(t, b.Bytes())
	b = bytes.Buffer{}
	p := writeFile(t, t.TempDir(), "zeros.rkm1", z, false)
	for _, tc := range []struct {
		name string
		path string
		opts Options
	}{
		{"gzipped file", p, Options{}},
		{"gzipped stdin", "-", Options{Format: FormatRKM1, Stdin: bytes.NewReader(z)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := Open(bg, []string{tc.path}, tc.opts)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			alloc := after.TotalAlloc - before.TotalAlloc
			if limit := uint64(size) + 3<<20; alloc > limit { // three pieces of 1 MiB
				t.Errorf("opening %d bytes allocated %d (%.2f times); want at most %d", size, alloc, float64(alloc)/float64(size), limit)
			}
			var qu Query
			n := 0
			for r.Next(&qu) == nil {
				n++
			}
			if n != q {
				t.Errorf("%d queries, want %d", n, q)
			}
		})
	}
}
