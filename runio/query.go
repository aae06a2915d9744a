package runio

import (
	"fmt"
	"strings"
)

// Match tells whether a TREC query was found in the run, the qrels or both.
type Match uint8

const (
	// MatchBoth: the query is in the run and in the qrels (always the case
	// for single-file formats).
	MatchBoth Match = iota
	// MatchRunOnly: the run ranks documents for a query that has no
	// judgment at all in the qrels. Every label is 0.
	MatchRunOnly
	// MatchQrelsOnly: the qrels judge a query for which the run has no
	// line. The query has no items; all its judgments are unranked.
	MatchQrelsOnly
)

// String returns "both", "run-only" or "qrels-only".
func (m Match) String() string {
	switch m {
	case MatchBoth:
		return "both"
	case MatchRunOnly:
		return "run-only"
	case MatchQrelsOnly:
		return "qrels-only"
	}
	return fmt.Sprintf("Match(%d)", uint8(m))
}

// Query is one ranked list. The slices are owned by the Query and reused by
// the next [Reader.Next] call that receives the same Query, so a caller that
// keeps data across calls must copy it or use several Query values.
type Query struct {
	// QID is the query id as written in the input.
	QID string
	// Line is the input line (or, for Parquet and RKM1, the 1-based row)
	// where the query's first item was read; for a TREC query it refers
	// to the run file, or to the qrels file when Match is MatchQrelsOnly.
	Line int64
	// Match tells, for TREC input, which files have the query.
	Match Match
	// Docs holds the document ids in item order when Options.KeepDocs is
	// set and the format has document ids; otherwise it is nil.
	Docs []string
	// Labels holds one label per item, in input order.
	Labels []float64
	// Scores holds one score per item, in input order. Never NaN.
	Scores []float64
	// Weights holds one weight per item when the input has a weight
	// column, nil otherwise (meaning no weights). Never NaN.
	Weights []float64
	// UnrankedLabels holds, for TREC input, the labels of the documents
	// judged in the qrels for this query but absent from the run, in
	// qrels order. They take no rank position; a metric whose denominator
	// counts every relevant document of the list (TF-Ranking's MAP,
	// trec_eval's map) must add the relevant ones to it.
	UnrankedLabels []float64
	// UnrankedDocs holds the document ids of UnrankedLabels when
	// Options.KeepDocs is set.
	UnrankedDocs []string
	// Unjudged marks, for TREC input with Options.KeepDocs set, the ranked
	// items that the qrels do not judge (their label is 0; trec_eval's
	// measures tell them apart from judged nonrelevant documents). It is
	// empty otherwise.
	Unjudged []bool
	// QrelsPos holds, for TREC input with Options.KeepDocs set, the
	// position (0-based, among the query's qrels lines) of the judgment of
	// each ranked item (-1 for an unjudged one), then of each document of
	// UnrankedDocs: the qrels' order, which some of ir_measures' providers
	// break ties by. It is empty otherwise.
	QrelsPos []int32
}

// Len returns the number of ranked items.
func (q *Query) Len() int { return len(q.Scores) }

// reset empties q, keeping the capacity of its slices.
func (q *Query) reset(withWeights, withDocs bool) {
	q.QID = ""
	q.Line = 0
	q.Match = MatchBoth
	q.Labels = q.Labels[:0]
	q.Scores = q.Scores[:0]
	if withWeights {
		if q.Weights == nil {
			q.Weights = make([]float64, 0, cap(q.Scores))
		}
		q.Weights = q.Weights[:0]
	} else {
		q.Weights = nil
	}
	if withDocs {
		if q.Docs == nil {
			q.Docs = make([]string, 0, cap(q.Scores))
		}
		q.Docs = q.Docs[:0]
		q.UnrankedDocs = q.UnrankedDocs[:0]
		q.Unjudged = q.Unjudged[:0]
		q.QrelsPos = q.QrelsPos[:0]
	} else {
		q.Docs = nil
		q.UnrankedDocs = nil
		q.Unjudged = nil
		q.QrelsPos = nil
	}
	q.UnrankedLabels = q.UnrankedLabels[:0]
}

// Stats counts what a Reader has read so far.
type Stats struct {
	// Rows is the number of data rows (items) read, after the header and
	// blank lines; for TREC input it counts the run lines.
	Rows int64
	// Queries is the number of queries returned by Next.
	Queries int64
	// Items is the number of ranked items returned by Next.
	Items int64
	// BlankLines is the number of empty lines skipped in text formats.
	BlankLines int64
	// DuplicatesDropped counts rows dropped by DedupeFirst or DedupeMax
	// (run and qrels together).
	DuplicatesDropped int64
	// QrelsRows is the number of qrels lines read (TREC only).
	QrelsRows int64
	// RunOnlyQueries counts queries of the run with no judgment (TREC).
	RunOnlyQueries int64
	// QrelsOnlyQueries counts judged queries absent from the run (TREC).
	QrelsOnlyQueries int64
	// UnjudgedItems counts run items without a judgment; they got label 0.
	UnjudgedItems int64
	// UnrankedJudged counts judged documents absent from the run.
	UnrankedJudged int64
	// UnrankedRelevant counts those of UnrankedJudged with label >= 1.
	UnrankedRelevant int64
}

// Reader yields the queries of an input one at a time.
type Reader interface {
	// Next reads the next query into q, reusing q's slices. It returns
	// io.EOF after the last query, and any other error on bad input; after
	// an error the Reader should only be closed.
	Next(q *Query) error
	// Stats returns the counters so far.
	Stats() Stats
	// HasWeights reports whether queries carry per-item weights.
	HasWeights() bool
	// Close releases the files and goroutines of the Reader.
	Close() error
}

// ParseError reports bad input at a given place.
type ParseError struct {
	// File is the input's name.
	File string
	// Line is the 1-based line (or row) number; 0 when not applicable.
	Line int64
	// Field names the offending field or column; empty for a whole-line
	// problem.
	Field string
	// Value is the offending value (truncated when long).
	Value string
	// NoValue is set when the problem is not one value (a missing field,
	// a count mismatch); Value is then not shown.
	NoValue bool
	// Msg says what is wrong.
	Msg string
	// Err is an underlying error, if any.
	Err error
}

// Error formats the error as `file:line: field F: value "V": msg`; the
// field part is left out for a whole-line problem (which quotes the line
// instead), and the value part when NoValue is set.
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Detail())
	return b.String()
}

// Detail is the error without its `file:line: ` prefix, for a report that
// gives the place apart (a Beam dead letter).
func (e *ParseError) Detail() string {
	var b strings.Builder
	switch {
	case e.Field != "" && !e.NoValue:
		fmt.Fprintf(&b, "field %s: value %q: ", e.Field, e.Value)
	case e.Field != "":
		fmt.Fprintf(&b, "field %s: ", e.Field)
	case e.Value != "":
		fmt.Fprintf(&b, "line %q: ", e.Value)
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

const maxValueLen = 80

// clip returns b as a string of at most maxValueLen bytes.
func clip(b []byte) string {
	if len(b) > maxValueLen {
		return string(b[:maxValueLen]) + "..."
	}
	return string(b)
}
