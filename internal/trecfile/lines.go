package trecfile

import (
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// FieldError is a malformed line: file, physical line number (from 1) and
// the field that is missing or wrong. The lines are read by runio's TREC
// scanner in a trec_eval mode, whose errors are runio's ParseError
// without a value: FILE:LINE: field FIELD: MESSAGE.
type FieldError = runio.ParseError

// mode is runio's reading mode for trec_eval version v.
func mode(v treceval.Version) runio.TRECMode {
	if v == treceval.V908 {
		return runio.TRECEval908
	}
	return runio.TRECEval10
}

// lineOptions are the reading options of every trec_eval input: a 1 MiB
// buffer and lines of at most MaxLine bytes.
func lineOptions() *runio.Options {
	return &runio.Options{MaxLineBytes: MaxLine}
}
