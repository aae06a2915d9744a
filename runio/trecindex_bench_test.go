package runio

// The scans of a TREC file for its qid order, on a real file: set
// RUNIO_BENCH_TREC to a sorted TREC run or qrels file (bench/gen writes
// them). skipSameQID (eight bytes at a time) against a call of
// bytes.IndexByte per line, and the parallel check.

import (
	"bytes"
	stdgzip "compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/klauspost/compress/gzip"
)

func BenchmarkScanLayout(b *testing.B) {
	path := os.Getenv("RUNIO_BENCH_TREC")
	if path == "" {
		b.Skip("RUNIO_BENCH_TREC not set")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b.SetBytes(st.Size())
	for _, noSkip := range []bool{false, true} {
		name := "skipSameQID"
		if noSkip {
			name = "IndexByte"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				s := &trecScan{ra: f, size: st.Size(), maxLine: 1 << 20, comments: true, noSkip: noSkip}
				sorted, err := s.sorted(context.Background())
				if err != nil || !sorted {
					b.Fatal(sorted, err)
				}
			}
		})
	}
}

func BenchmarkScanSortedParallel(b *testing.B) {
	path := os.Getenv("RUNIO_BENCH_TREC")
	if path == "" {
		b.Skip("RUNIO_BENCH_TREC not set")
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b.SetBytes(st.Size())
	for b.Loop() {
		s := &trecScan{ra: f, size: st.Size(), maxLine: 1 << 20, comments: true}
		sorted, err := s.sortedParallel(context.Background(), 2, scanChunkSize)
		if err != nil || !sorted {
			b.Fatal(sorted, err)
		}
	}
}

// BenchmarkReadTRECFiles reads a TREC pair from files as eval does
// (RUNIO_BENCH_QRELS and RUNIO_BENCH_TREC), with 1 and 2 workers.
func BenchmarkReadTRECFiles(b *testing.B) {
	q, r := os.Getenv("RUNIO_BENCH_QRELS"), os.Getenv("RUNIO_BENCH_TREC")
	if q == "" || r == "" {
		b.Skip("RUNIO_BENCH_QRELS and RUNIO_BENCH_TREC not set")
	}
	for _, w := range []int{1, 2} {
		b.Run(map[int]string{1: "workers=1", 2: "workers=2"}[w], func(b *testing.B) {
			for b.Loop() {
				rd, err := Open(context.Background(), []string{q, r}, Options{Unsorted: UnsortedAuto, Workers: w})
				if err != nil {
					b.Fatal(err)
				}
				drain(b, rd)
			}
		})
	}
}

// BenchmarkGunzip decompresses 8 MB of TREC run lines with the gzip
// reader runio uses (github.com/klauspost/compress/gzip) and with the
// standard library's, which it replaced.
func BenchmarkGunzip(b *testing.B) {
	var text bytes.Buffer
	for q := 0; text.Len() < 8<<20; q++ {
		for d := range 100 {
			fmt.Fprintf(&text, "%d Q0 D%d-%d %d %.3f run\n", q, q%977, d, d+1, float64(100-d)/7)
		}
	}
	var z bytes.Buffer
	w, _ := stdgzip.NewWriterLevel(&z, stdgzip.BestSpeed)
	w.Write(text.Bytes())
	w.Close()
	for _, c := range []struct {
		name string
		open func(io.Reader) (io.Reader, error)
	}{
		{"klauspost", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{"stdlib", func(r io.Reader) (io.Reader, error) { return stdgzip.NewReader(r) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(text.Len()))
			for b.Loop() {
				r, err := c.open(bytes.NewReader(z.Bytes()))
				if err != nil {
					b.Fatal(err)
				}
				if n, err := io.Copy(io.Discard, r); err != nil || n != int64(text.Len()) {
					b.Fatal(n, err)
				}
			}
		})
	}
}
