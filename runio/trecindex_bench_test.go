package runio

// The scans of a TREC file for its qid order, on a real file: set
// RUNIO_BENCH_TREC to a sorted TREC run or qrels file (bench/gen writes
// them). skipSameQID (eight bytes at a time) against a call of
// bytes.IndexByte per line, and the parallel check.

import (
	"context"
	"os"
	"testing"
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
				lay, _, err := s.layout(context.Background(), false)
				if err != nil || lay != layoutSorted {
					b.Fatal(lay, err)
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
