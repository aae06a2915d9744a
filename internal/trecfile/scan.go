package trecfile

import (
	"context"
	"io"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// NewScanner returns runio's line scanner of r, a qrels file (qrels) or a
// run named name in errors, under trec_eval version v's rules: its
// reading mode, lines of at most MaxLine bytes, and the file ending at a
// NUL byte that starts a line.
func NewScanner(r io.Reader, name string, qrels bool, v treceval.Version) *runio.TRECScanner {
	if r != nil {
		r = cutAtLineNUL(r)
	}
	return runio.NewTRECScanner(r, name, qrels, mode(v), lineOptions())
}

// Scan is runio's first pass ([runio.ScanTopics]) in trec_eval's topic
// order, qids compared byte by byte as C's strcmp compares them: it checks
// every line of sc and returns the layout of its topics and, unless they
// are scattered, their blocks in that order.
func Scan(ctx context.Context, sc *runio.TRECScanner) (runio.TopicLayout, []runio.TopicBlock, error) {
	return runio.ScanTopics(ctx, sc, strings.Compare, nil)
}

// scanned is what scanFile found.
type scanned struct {
	layout runio.TopicLayout
	blocks []runio.TopicBlock
	// lines counts the data lines (a run's)
	lines int64
	// runid is the last line's run id (a run's)
	runid []byte
	// rel0 counts the judgements above 0 (a qrels file's)
	rel0 int64
}

// scanFile is Scan of a qrels file (qrels) or a run, which also counts
// the qrels' judgements above 0, or the run's lines and its last run id.
// It reads the lines itself and gives them to runio's TopicIndex, the
// index ScanTopics keeps, so that this work on every line costs no call
// through a function value.
func scanFile(ctx context.Context, sc *runio.TRECScanner, qrels bool) (*scanned, error) {
	x := runio.NewTopicIndex(strings.Compare)
	s := &scanned{}
	for n := 1; ; n++ {
		if n%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if qrels {
			if treceval.Atol(unsafeString(f[3])) > 0 {
				s.rel0++
			}
		} else {
			s.lines++
			s.runid = append(s.runid[:0], f[5]...)
		}
		x.Add(f[0], sc)
	}
	s.layout, s.blocks = x.Layout()
	return s, nil
}
