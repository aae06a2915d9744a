package runio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// benchQueries makes nq queries of 100 items shaped like the benchmark data.
func benchQueries(nq int) []Query {
	r := rand.New(rand.NewPCG(1, 1))
	qs := make([]Query, nq)
	for i := range qs {
		q := &qs[i]
		q.QID = strconv.Itoa(i + 1)
		for j := 0; j < 100; j++ {
			l := 0.0
			if r.IntN(10) == 0 {
				l = float64(1 + r.IntN(4))
			}
			q.Labels = append(q.Labels, l)
			q.Scores = append(q.Scores, float64(int(r.NormFloat64()*1000))/1000)
			q.Docs = append(q.Docs, "D"+strconv.Itoa(99-j))
		}
	}
	return qs
}

func mustOpen(r Reader, err error) Reader {
	if err != nil {
		panic(err)
	}
	return r
}

func drain(b *testing.B, r Reader) int64 {
	var q Query
	var n int64
	for {
		err := r.Next(&q)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		n += int64(len(q.Scores))
	}
	r.Close()
	return n
}

func benchRead(b *testing.B, data []byte, open func(io.Reader) (Reader, error)) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var items int64
	for b.Loop() {
		items = drain(b, mustOpen(open(bytes.NewReader(data))))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*items), "ns/item")
}

func BenchmarkReadTSV(b *testing.B) {
	var buf bytes.Buffer
	w := NewDelimitedWriter(&buf, '\t', Columns{}, false, false)
	for _, q := range benchQueries(2000) {
		w.WriteQuery(&q)
	}
	w.Close()
	benchRead(b, buf.Bytes(), func(r io.Reader) (Reader, error) {
		return NewDelimitedReader(bg, r, "b.tsv", '\t', Options{})
	})
}

func BenchmarkReadTSVWithDocs(b *testing.B) {
	var buf bytes.Buffer
	w := NewDelimitedWriter(&buf, '\t', Columns{}, false, true)
	for _, q := range benchQueries(2000) {
		w.WriteQuery(&q)
	}
	w.Close()
	benchRead(b, buf.Bytes(), func(r io.Reader) (Reader, error) {
		return NewDelimitedReader(bg, r, "b.tsv", '\t', Options{})
	})
}

func BenchmarkReadTREC(b *testing.B) {
	var qrels, run bytes.Buffer
	w := NewTRECWriter(&qrels, &run, "bench")
	for _, q := range benchQueries(2000) {
		w.WriteQuery(&q)
	}
	w.Close()
	b.SetBytes(int64(qrels.Len() + run.Len()))
	b.ReportAllocs()
	var items int64
	for b.Loop() {
		items = drain(b, mustOpen(NewTRECReader(bg, bytes.NewReader(qrels.Bytes()), bytes.NewReader(run.Bytes()), "q", "r", Options{})))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*items), "ns/item")
}

func BenchmarkReadJSONLLists(b *testing.B) {
	var buf bytes.Buffer
	w := NewJSONLWriter(&buf, Columns{}, true)
	for _, q := range benchQueries(2000) {
		q.Docs = nil
		w.WriteQuery(&q)
	}
	w.Close()
	benchRead(b, buf.Bytes(), func(r io.Reader) (Reader, error) {
		return NewJSONLReader(bg, r, "b.jsonl", Options{})
	})
}

func BenchmarkReadParquet(b *testing.B) {
	var buf bytes.Buffer
	w := NewParquetWriter(&buf, Columns{}, false, false)
	for _, q := range benchQueries(2000) {
		w.WriteQuery(&q)
	}
	w.Close()
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var items int64
	for b.Loop() {
		items = drain(b, mustOpen(NewParquetReader(bg, bytes.NewReader(data), int64(len(data)), "b.parquet", Options{})))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(b.N)*items), "ns/item")
}

var benchNumbers = strings.Fields("0.123 -1.5 3 2.718 -0.001 17.25 1e-3 -4.5e2 0 12345.678")

func BenchmarkParseFloat(b *testing.B) {
	nums := make([][]byte, len(benchNumbers))
	for i, s := range benchNumbers {
		nums[i] = []byte(s)
	}
	b.Run("runio", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range nums {
				parseFloat(s)
			}
		}
	})
	b.Run("strconv", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range nums {
				strconv.ParseFloat(string(s), 64)
			}
		}
	})
}

// BenchmarkGroupedMemory measures the heap that UnsortedGroup holds once
// the whole input is loaded, per item and per query: 1M one-item queries
// (the per-query cost), and 10k queries of 100 items (the per-item cost),
// with and without document ids. The figures are quoted in the docs.
func BenchmarkGroupedMemory(b *testing.B) {
	for _, tc := range []struct {
		name         string
		queries, per int
		docs         bool
	}{
		{"1Mx1", 1_000_000, 1, false},
		{"10kx100", 10_000, 100, false},
		{"10kx100docs", 10_000, 100, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var buf bytes.Buffer
			if tc.docs {
				buf.WriteString("qid\tdoc\tlabel\tscore\n")
			} else {
				buf.WriteString("qid\tlabel\tscore\n")
			}
			for i := range tc.queries * tc.per {
				// Queries interleave, so the input is unsorted.
				q := i % tc.queries
				buf.WriteString(strconv.Itoa(q * 7))
				if tc.docs {
					buf.WriteString("\tD" + strconv.Itoa(i/tc.queries))
				}
				buf.WriteString("\t1\t0.5\n")
			}
			data := buf.Bytes()
			var perLine float64
			for b.Loop() {
				r := mustOpen(NewDelimitedReader(bg, bytes.NewReader(data), "g.tsv", '\t', Options{Unsorted: UnsortedGroup}))
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				var q Query
				if err := r.Next(&q); err != nil { // loads everything
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perLine = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(tc.queries*tc.per)
				runtime.KeepAlive(r)
			}
			b.ReportMetric(perLine, "heapB/item")
		})
	}
}
