package runio

import (
	"bytes"
	"io"
	"math/rand/v2"
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
