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
// every line of sc, hands its fields to visit, and returns the layout of
// its topics and, unless they are scattered, their blocks in that order.
func Scan(ctx context.Context, sc *runio.TRECScanner, visit func(f [][]byte)) (runio.TopicLayout, []runio.TopicBlock, error) {
	return runio.ScanTopics(ctx, sc, strings.Compare, visit)
}
