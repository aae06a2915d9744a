package trecfile

import (
	"context"
	"io"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// QrelsLine returns the line number (from 1) of the k-th judgement (from
// 0, in file order, as Judged returns them) of topic qid in the qrels file
// read from r, or 0 if there is no such judgement: for error messages.
func QrelsLine(ctx context.Context, r io.Reader, name string, v treceval.Version, qid string, k int) (int64, error) {
	sc := runio.NewTRECScanner(cutAtLineNUL(r), name, true, mode(v), lineOptions())
	for n := 1; ; n++ {
		if n%ctxCheckLines == 0 {
			if err := ctx.Err(); err != nil {
				return 0, err
			}
		}
		f, err := sc.Next()
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if unsafeString(f[0]) == qid {
			if k == 0 {
				return sc.Line(), nil
			}
			k--
		}
	}
}
