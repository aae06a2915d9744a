package trecfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

func FuzzParseQrels(f *testing.F) {
	for _, s := range []string{
		"1 0 a 1\n1 0 b 0\n2 0 a -2\n",
		"# c\n1 0 a 1",
		"1 0 a\n",
		"1 0 a 1 2\n",
		"\n",
		"1\t0\ta\t3\r\n",
		"1 0 a 99999999999999999999999\n",
		"1 0 a \x00\n",
		"# c\n #1 0 a 1\r\n1\x01 0 b 2x\n",
		"2 0 a 1\n1 0 a 1\n2 0 b 1\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, old bool) {
		v := treceval.V10
		if old {
			v = treceval.V908
		}
		q, err := ParseQrels("f", data, v)
		x, xerr := IndexQrels(context.Background(), bytes.NewReader(data), "f", v)
		if (err == nil) != (xerr == nil || errors.Is(xerr, ErrScatteredQrels)) {
			t.Fatalf("ParseQrels: %v, IndexQrels: %v", err, xerr)
		}
		if err != nil {
			return
		}
		if xerr == nil {
			if x.NumTopics() != q.NumTopics() || x.RelAbove0() != q.RelAbove0() {
				t.Fatalf("index has %d topics, %d above 0; parse %d, %d", x.NumTopics(), x.RelAbove0(), q.NumTopics(), q.RelAbove0())
			}
			for i := 0; i < q.NumTopics(); i++ {
				got, err := x.Judged(i)
				if err != nil || x.Qid(i) != q.Qid(i) || len(got) != len(q.Topics[i].Judged) {
					t.Fatalf("topic %d: %v %q %q", i, err, x.Qid(i), q.Qid(i))
				}
				for j := range got {
					if got[j].Docno != q.Topics[i].Judged[j].Docno {
						t.Fatalf("topic %d judgement %d: %v vs %v", i, j, got[j], q.Topics[i].Judged[j])
					}
				}
			}
		}
		for i, tp := range q.Topics {
			if i > 0 && q.Topics[i-1].Qid >= tp.Qid {
				t.Fatalf("topics not sorted: %q %q", q.Topics[i-1].Qid, tp.Qid)
			}
			if len(tp.Judged) == 0 {
				t.Fatal("empty topic")
			}
		}
	})
}

func FuzzRunScanner(f *testing.F) {
	for _, s := range []string{
		"1 Q0 a 1 1.5 r\n1 Q0 b 2 1.5 r\n2 Q0 a 1 nan r\n",
		"# c\n\n  1 Q0 a 1 1 r extra\n",
		"1 Q0 a 1 1\n",
		"1 Q0 a 1 0x1p3 r",
		"2 Q0 a 1 1 r\n1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n",
		"1\x01 Q0 a 1 1.5abc r\r\n\v\f\n1 Q0 b 2 -inf r\n",
		"1 Q0 a\x00 1 1 r\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, old bool) {
		v := treceval.V10
		if old {
			v = treceval.V908
		}
		ctx := context.Background()
		s := NewRunScanner(bytes.NewReader(data), "f", v)
		var n int64
		for {
			_, docs, err := s.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return
			}
			n += int64(len(docs))
		}
		if n != s.Lines() {
			t.Fatalf("%d documents, %d lines", n, s.Lines())
		}
		run, err := CollectRun(ctx, NewRunScanner(bytes.NewReader(data), "f", v))
		if err != nil {
			if n == 0 && errors.Is(err, ErrEmptyRun) {
				return
			}
			t.Fatalf("second read failed: %v", err)
		}
		if run.Lines != n {
			t.Fatalf("collected %d lines, scanned %d", run.Lines, n)
		}
	})
}
