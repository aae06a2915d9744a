package runio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
)

// TestStreamAheadBound: a TREC stream with 2 workers runs ahead of its
// reader by at most streamBlocks blocks, and by at most 32 once they hold
// streamLines lines (plus the block being parsed), and reads every query
// whatever its size: queries of 1, 100, 5,000 and 40,000 lines (one query
// above the line bound). Each query's items and relevant labels are
// counted against the files as written.
func TestStreamAheadBound(t *testing.T) {
	for _, size := range []int{1, 100, 5000, 40000} {
		queries := max(3, 200000/size/10)
		var run, qrels bytes.Buffer
		wantRel := 0
		for q := range queries {
			for d := range size {
				fmt.Fprintf(&run, "q%05d Q0 d%d %d %d.5 r\n", q, d, d+1, size-d)
				if d%3 == 0 {
					fmt.Fprintf(&qrels, "q%05d 0 d%d 1\n", q, d)
					wantRel++
				}
			}
		}
		r, err := NewTRECReader(context.Background(), bytes.NewReader(qrels.Bytes()), bytes.NewReader(run.Bytes()), "q", "r",
			Options{Unsorted: UnsortedError, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		tr := r.(*trecReader)
		var q Query
		n, items, rel := 0, 0, 0
		maxAhead := int64(0)
		for {
			err := r.Next(&q)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if s, ok := tr.rs.(*blockStream); ok {
				if b, l := s.aheadBlocks.Load(), s.aheadLines.Load(); b > 32 && l > streamLines+int64(size) {
					t.Fatalf("size %d: %d blocks of %d lines ahead", size, b, l)
				} else if b > maxAhead {
					maxAhead = b
				}
			}
			n++
			items += len(q.Scores)
			for _, l := range q.Labels {
				if l == 1 {
					rel++
				}
			}
		}
		r.Close()
		if n != queries || items != queries*size || rel != wantRel {
			t.Errorf("size %d: %d queries, %d items, %d relevant; want %d, %d, %d", size, n, items, rel, queries, queries*size, wantRel)
		}
		if maxAhead > streamBlocks {
			t.Errorf("size %d: %d blocks ahead, more than %d", size, maxAhead, streamBlocks)
		}
	}
}
