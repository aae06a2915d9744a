package trecfile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// benchPair is a run and qrels of 1000 topics of 100 documents shaped
// like bench/gen's.
func benchPair() (run, qrels []byte) {
	var r, q bytes.Buffer
	for t := 1; t <= 1000; t++ {
		for d := 0; d < 100; d++ {
			fmt.Fprintf(&r, "%d Q0 D%d %d %d.%03d gen\n", t, d, d+1, 3-d/40, (d*37)%1000)
			fmt.Fprintf(&q, "%d 0 D%d %d\n", t, 99-d, d%5/4)
		}
	}
	return r.Bytes(), q.Bytes()
}

func BenchmarkRunScanner(b *testing.B) {
	run, _ := benchPair()
	b.SetBytes(int64(len(run)))
	b.ReportAllocs()
	s := NewRunScanner(nil, "run", treceval.V10)
	var br bytes.Reader
	for b.Loop() {
		br.Reset(run)
		s.ResetBlock(&br, 1)
		for {
			_, _, err := s.Next(context.Background())
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkIndexQrels(b *testing.B) {
	_, q := benchPair()
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		x, err := IndexQrels(context.Background(), bytes.NewReader(q), "qrels", treceval.V10)
		if err != nil {
			b.Fatal(err)
		}
		for i := range x.NumTopics() {
			if _, err := x.Judged(i); err != nil {
				b.Fatal(err)
			}
		}
	}
}
