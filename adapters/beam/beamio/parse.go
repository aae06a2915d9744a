package beamio

import (
	"errors"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/runio"
)

// Columns names the columns to read from TSV, CSV and Parquet input, as the
// column flags of `rankmetrics eval`: the same type as eval's reader uses.
// Empty names take the defaults of DefaultColumns. The weight and doc
// columns are optional when left at their defaults (read if present) and
// required when named explicitly.
type Columns = runio.Columns

// DefaultColumns are qid, label, score, weight and doc.
var DefaultColumns = runio.DefaultColumns

// The line parsers below are runio's, the ones `rankmetrics eval` reads
// with: runio.DelimParser for TSV and CSV, runio.TRECScanner (TRECStrict)
// for TREC. What is left here is the dead-letter mode around them: a
// rejected line becomes a reason (runio's error without its file and line,
// which the dead letter gives as a byte offset) instead of failing the job.

// reason is what a dead letter says of err: runio's message without the
// file and line.
func reason(err error) string {
	return placeless(err).Error()
}

// placeless drops the file name from runio's error: the dead letter gives
// the place.
func placeless(err error) error {
	var pe *runio.ParseError
	if errors.As(err, &pe) {
		return errors.New(pe.Detail())
	}
	return err
}

// delimLine parses one data line of a delimited file into r, or returns
// the reason it cannot.
func delimLine(p *runio.DelimParser, line []byte, r *rm.Row) string {
	var x runio.Row
	if err := p.Parse(line, 0, &x); err != nil {
		return reason(err)
	}
	*r = rm.Row{QID: string(x.QID), Label: x.Label, Score: x.Score}
	if p.HasWeights() {
		r.Weight, r.HasWeight = x.Weight, true
	}
	if p.HasDocs() {
		r.Doc = string(x.Doc)
	}
	return ""
}

// delimitedQID returns the qid field of a line that could not be parsed,
// or "" when it cannot be told; cut says the line was cut at the length
// limit, so that its last field may be incomplete.
func delimitedQID(p *runio.DelimParser, line []byte, cut bool) string {
	q, ok := p.QIDField(line)
	if !ok || cut && p.IsQIDLast(line) {
		return ""
	}
	return string(q)
}

// trecQID returns the first field of a TREC line that could not be
// parsed, or "" when it cannot be told (see delimitedQID).
func trecQID(line []byte, cut bool) string {
	var buf [2][]byte
	f := runio.TRECFields(line, buf[:0], 2)
	if len(f) == 0 || cut && len(f) == 1 {
		return ""
	}
	return string(f[0])
}

// trecLine reads one TREC line through sc, a TRECStrict scanner, and
// returns its fields, or the reason it is rejected.
func trecLine(sc *runio.TRECScanner, line []byte) ([][]byte, string) {
	sc.ResetBytes(line, 0)
	f, err := sc.Next()
	if err != nil {
		return nil, reason(err)
	}
	return f, ""
}

// parseRun parses a TREC run line "qid Q0 docno rank score tag".
func parseRun(sc *runio.TRECScanner, line []byte, r *rm.Row) string {
	f, why := trecLine(sc, line)
	if why != "" {
		return why
	}
	s, msg := runio.ParseScore(f[4])
	if msg != "" {
		return reason(sc.ErrorAt("score", f[4], msg))
	}
	*r = rm.Row{QID: string(f[0]), Doc: string(f[2]), Score: s}
	return ""
}

// parseQrels parses a TREC qrels line "qid iter docno rel".
func parseQrels(sc *runio.TRECScanner, line []byte, j *rm.Judgment) string {
	f, why := trecLine(sc, line)
	if why != "" {
		return why
	}
	l, msg := runio.ParseRel(f[3])
	if msg != "" {
		return reason(sc.ErrorAt("rel", f[3], msg))
	}
	*j = rm.Judgment{QID: string(f[0]), Doc: string(f[2]), Label: l}
	return ""
}
