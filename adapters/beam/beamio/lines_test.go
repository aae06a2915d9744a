package beamio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
)

type offLine struct {
	off  int64
	line string
}

// genLines returns file content and the non-blank lines with their
// offsets, computed independently of the reader: blank lines, "\r\n"
// endings, lines longer than the read buffer, and a last line without a
// newline.
func genLines(seed uint64, n int, long bool) ([]byte, []offLine, int64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	var b bytes.Buffer
	var want []offLine
	var blank int64
	for i := range n {
		off := int64(b.Len())
		switch r := rng.IntN(20); {
		case r == 0:
			b.WriteString("\n")
			blank++
			continue
		case r == 1:
			b.WriteString(" \t\r\n")
			blank++
			continue
		case r == 2 && long:
			s := fmt.Sprintf("long%d-%s", i, strings.Repeat("x", lineBuffer+rng.IntN(3*lineBuffer)))
			want = append(want, offLine{off, s})
			b.WriteString(s + "\n")
		case r == 3:
			s := fmt.Sprintf("crlf%d", i)
			want = append(want, offLine{off, s})
			b.WriteString(s + "\r\n")
		default:
			s := fmt.Sprintf("line%d\tfield\t%d", i, rng.IntN(1000))
			want = append(want, offLine{off, s})
			b.WriteString(s + "\n")
		}
	}
	off := int64(b.Len())
	b.WriteString("last-without-newline")
	want = append(want, offLine{off, "last-without-newline"})
	return b.Bytes(), want, blank
}

func readableFile(t *testing.T, data []byte, name string) fileio.ReadableFile {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path, Size: int64(len(data))}}
}

// scanAll reads every restriction, splitting each dynamically after
// splitAfter lines when splitAfter > 0, and returns the lines in order.
func scanAll(t *testing.T, s *lineSplitter, file fileio.ReadableFile, splitAfter int) ([]offLine, int64) {
	t.Helper()
	ctx := context.Background()
	queue := s.SplitRestriction(file, s.CreateInitialRestriction(file))
	var got []offLine
	var blank int64
	for len(queue) > 0 {
		rest := queue[0]
		queue = queue[1:]
		rt := s.CreateTracker(rest)
		n := 0
		b, err := s.scan(ctx, rt, file, func(off int64, line []byte, long bool) {
			if long {
				t.Errorf("line at %d over the limit", off)
			}
			got = append(got, offLine{off, string(line)})
			n++
			if n == splitAfter {
				_, residual, err := rt.TrySplit(0.5)
				if err != nil {
					t.Fatal(err)
				}
				if residual != nil {
					// Process the residual next, keeping the order.
					queue = append([]offsetrange.Restriction{residual.(offsetrange.Restriction)}, queue...)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if !rt.IsDone() {
			t.Fatalf("restriction %v not done after scan: %v", rest, rt.GetError())
		}
		blank += b
	}
	return got, blank
}

func TestScanSplitsLoseNothing(t *testing.T) {
	small, smallWant, smallBlank := genLines(1, 150, false)
	long, longWant, longBlank := genLines(1, 200, true)
	tests := []struct {
		name   string
		data   []byte
		want   []offLine
		blank  int64
		blocks []int64
	}{
		{"short lines", small, smallWant, smallBlank, []int64{1, 7, 100}},
		{"long lines", long, longWant, longBlank, []int64{4096, 70000, 0}},
	}
	for _, tc := range tests {
		plain := readableFile(t, tc.data, "plain.txt")
		want, wantBlank := tc.want, tc.blank
		for _, block := range tc.blocks {
			for _, splitAfter := range []int{0, 1, 3} {
				t.Run(fmt.Sprintf("%s/block%d/split%d", tc.name, block, splitAfter), func(t *testing.T) {
					got, blank := scanAll(t, &lineSplitter{BlockSize: block}, plain, splitAfter)
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("got %d lines, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
					}
					if blank != wantBlank {
						t.Errorf("%d blank lines, want %d", blank, wantBlank)
					}
				})
			}
		}
	}
}

func TestScanGzip(t *testing.T) {
	data, want, wantBlank := genLines(2, 300, true)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	file := readableFile(t, z.Bytes(), "data.txt.gz")
	s := &lineSplitter{BlockSize: 100}
	rest := s.CreateInitialRestriction(file)
	if rest.End != compressedEnd || len(s.SplitRestriction(file, rest)) != 1 {
		t.Fatalf("gzip restriction %v is split", rest)
	}
	for _, splitAfter := range []int{0, 5} {
		got, blank := scanAll(t, s, file, splitAfter)
		if !reflect.DeepEqual(got, want) || blank != wantBlank {
			t.Fatalf("split after %d: %d lines, %d blank; want %d, %d (first difference at %d)", splitAfter, len(got), blank, len(want), wantBlank, firstDiff(got, want))
		}
	}
	// A residual past the end of the decompressed data holds no line.
	rt := s.CreateTracker(offsetrange.Restriction{Start: 1 << 40, End: compressedEnd})
	n, err := s.scan(context.Background(), rt, file, func(int64, []byte, bool) { t.Error("a line past the end") })
	if err != nil || n != 0 || !rt.IsDone() {
		t.Errorf("residual past the end: %d, %v, done %v", n, err, rt.IsDone())
	}
}

func firstDiff(a, b []offLine) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestFirstLine(t *testing.T) {
	file := readableFile(t, []byte("\n  \nqid\tlabel\n1\t2\n"), "h.tsv")
	line, off, long, ok, err := firstLine(context.Background(), file, DefaultMaxLineBytes)
	if err != nil || !ok || long || string(line) != "qid\tlabel" || off != 4 {
		t.Errorf("firstLine = %q, %d, %v, %v, %v", line, off, long, ok, err)
	}
	empty := readableFile(t, []byte("\n\n"), "e.tsv")
	if _, _, _, ok, err := firstLine(context.Background(), empty, DefaultMaxLineBytes); ok || err != nil {
		t.Errorf("blank file: ok %v, err %v", ok, err)
	}
}

// TestLongLines reads lines around the length limit, across the reader's
// buffer: a line over the limit comes back cut to it, marked long, and the
// lines after it are read as usual.
func TestLongLines(t *testing.T) {
	const max = 10
	lines := []string{"short", "0123456789", "0123456789a", "0123456789\r", "0123456789a\r", strings.Repeat("x", 40), "", "after", strings.Repeat("y", 33)}
	input := strings.Join(lines, "\n") // the last line has no newline
	r := &lineReader{br: bufio.NewReaderSize(strings.NewReader(input), 16), max: max}
	var off int64
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\r")
		wantLong := len(body) > max
		want := body[:min(len(body), max)]
		got, gotOff, long, err := r.next()
		if err != nil || string(got) != want || gotOff != off || long != wantLong {
			t.Errorf("line %d: %q at %d, long %v, %v; want %q at %d, long %v", i, got, gotOff, long, err, want, off, wantLong)
		}
		off += int64(len(l)) + 1
	}
	if _, _, _, err := r.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v, want EOF", err)
	}
}

// TestLongLineBomb reads a gzip file holding a 64 MiB line (a few
// kilobytes compressed) with a 1 MiB limit: the line comes back cut and
// marked long, the next line is read, and memory stays near the limit.
func TestLongLineBomb(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("qid\tlabel\tscore\n"))
	chunk := bytes.Repeat([]byte{'7'}, 1<<20)
	for range 64 {
		zw.Write(chunk)
	}
	zw.Write([]byte("\nq\t1\t1\n"))
	zw.Close()
	file := readableFile(t, z.Bytes(), "bomb.tsv.gz")
	s := &lineSplitter{MaxLineBytes: 1 << 20}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	type seen struct {
		off  int64
		n    int
		long bool
	}
	var got []seen
	_, err := s.scan(context.Background(), s.CreateTracker(s.CreateInitialRestriction(file)), file, func(off int64, line []byte, long bool) {
		got = append(got, seen{off, len(line), long})
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	want := []seen{{0, 15, false}, {16, 1 << 20, true}, {16 + 64<<20 + 1, 5, false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines %v, want %v", got, want)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("%d bytes allocated to read a 64 MiB line with a 1 MiB limit", alloc)
	}
}
