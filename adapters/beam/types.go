package beam

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/runio"
)

// Pos says where a record was read: the file and, for text input, the byte
// offset at which its line starts in the (decompressed) file, or, for
// Parquet input, its 0-based row number in the file. Within a query, items
// are ordered by Pos: by file name, then offset. That is the order of the
// lines of one file, and the order of the files' concatenation when they
// are named in sorted order (as a glob expands), whatever order the runner
// delivers them in.
type Pos struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
}

// String returns "file@offset".
func (p Pos) String() string { return p.File + "@" + strconv.FormatInt(p.Offset, 10) }

// Compare orders positions by file name, then offset.
func (p Pos) Compare(o Pos) int {
	if c := strings.Compare(p.File, o.File); c != 0 {
		return c
	}
	return cmp.Compare(p.Offset, o.Offset)
}

// Row is one ranked item as read from the input: the element type of the
// collection GroupLists takes. For TREC input it is a run line, whose Label
// is not used (labels come from the qrels).
type Row struct {
	// QID is the query the item belongs to. Never empty.
	QID string
	// Doc is the document id, or "" when the input has none. Duplicate
	// (qid, doc) pairs are handled by the Dedupe policy.
	Doc string
	// Label is the relevance label: relevant when >= 1.
	Label float64
	// Score is the ranking score. Never NaN.
	Score float64
	// Weight is the item's weight when HasWeight is set. Finite.
	Weight float64
	// HasWeight says the input had a weight for this item. A query is
	// weighted when every one of its rows has a weight, and unweighted
	// (TF-Ranking's "no weights", 1 everywhere) when none has; a query
	// that mixes both is sent to the dead letters.
	HasWeight bool
	// Pos is where the row was read; it fixes the item order of a query.
	Pos Pos
}

// Chunk holds consecutive rows of one query read from one file: what the
// readers of package beamio emit. Input sorted by qid then travels in a
// few elements per query instead of one per row, which makes the shuffle
// much cheaper; unsorted input gives chunks of one row.
//
// A chunk also carries what a reader rejected, so that a query is never
// evaluated on part of its rows: Rejected counts rows of the query that the
// reader sent to the dead letters (the first of them at RejectedAt, for
// Reason), and a chunk with FileFailed set (and no QID) says that File
// could not be read to the end. The grouping steps send every row of such
// a query to the dead letters.
type Chunk struct {
	QID  string
	File string
	// Qrels marks a chunk of TREC qrels lines (JoinTREC sets it): its
	// items are judgments. Other chunks hold ranked items.
	Qrels bool
	Items []Item
	// Rejected counts rows of the query rejected by the reader; Reason is
	// the reason of the one at offset RejectedAt of File.
	Rejected   int64
	RejectedAt int64
	Reason     string
	// FileFailed says File could not be read to the end, for Reason.
	FileFailed bool
}

// Item is one row of a Chunk. For TREC qrels chunks Label is the
// judgment and Score is not used; for run chunks Label is not used.
type Item struct {
	Doc       string
	Label     float64
	Score     float64
	Weight    float64
	HasWeight bool
	// Offset is the row's Pos.Offset in the chunk's file.
	Offset int64
}

// appendRows appends the rows of c to rows.
func (c *Chunk) appendRows(rows []Row) []Row {
	for _, it := range c.Items {
		rows = append(rows, Row{QID: c.QID, Doc: it.Doc, Label: it.Label, Score: it.Score, Weight: it.Weight,
			HasWeight: it.HasWeight, Pos: Pos{File: c.File, Offset: it.Offset}})
	}
	return rows
}

// MaxChunkItems is the most items a Chunk holds.
const MaxChunkItems = 4096

// Chunker gathers rows into Chunks as a reader reads them.
type Chunker struct {
	cur  Chunk
	emit func(Chunk)
}

// NewChunker returns a Chunker that passes full chunks to emit.
func NewChunker(emit func(Chunk)) *Chunker { return &Chunker{emit: emit} }

func (c *Chunker) empty() bool { return len(c.cur.Items) == 0 && c.cur.Rejected == 0 }

// start makes the chunk being gathered one of qid and file, emitting the
// current one first if it is of another query or file, or full.
func (c *Chunker) start(qid, file string) {
	if !c.empty() && (c.cur.QID != qid || c.cur.File != file || len(c.cur.Items) == MaxChunkItems) {
		c.Flush()
	}
	c.cur.QID, c.cur.File = qid, file
}

// Add adds a row read from file. A row of another query or file than the
// chunk's starts a new chunk.
func (c *Chunker) Add(qid, file string, it Item) {
	c.start(qid, file)
	c.cur.Items = append(c.cur.Items, it)
}

// Reject records that the row of query qid at offset of file was sent to
// the dead letters for reason, so that the whole query is (see Chunk).
func (c *Chunker) Reject(qid, file string, offset int64, reason string) {
	c.start(qid, file)
	if c.cur.Rejected == 0 || offset < c.cur.RejectedAt {
		c.cur.RejectedAt, c.cur.Reason = offset, reason
	}
	c.cur.Rejected++
}

// Flush emits the chunk being gathered, if any.
func (c *Chunker) Flush() {
	if c.empty() {
		return
	}
	c.emit(c.cur)
	c.cur = Chunk{}
}

// Judgment is one line of a TREC qrels file.
type Judgment struct {
	QID   string
	Doc   string
	Label float64
	Pos   Pos
}

// Match tells, for TREC input, which of the run and the qrels have a
// query: runio's type, so that a List is the Query eval reads.
type Match = runio.Match

const (
	// MatchBoth: the query is in the run and in the qrels (always the case
	// for single-file formats).
	MatchBoth = runio.MatchBoth
	// MatchRunOnly: the run ranks documents for a query without any
	// judgment; every label is 0.
	MatchRunOnly = runio.MatchRunOnly
	// MatchQrelsOnly: the qrels judge a query the run has no line for.
	MatchQrelsOnly = runio.MatchQrelsOnly
)

// Query is one query's ranked list as `rankmetrics eval` reads it (runio's
// Query): QID, Labels, Scores, Weights (nil for none), Docs (nil when the
// input has no document ids), and for TREC input Match, UnrankedLabels and
// UnrankedDocs (the judged documents the run does not rank, in qrels
// order) and Unjudged (the ranked documents the qrels do not judge).
type Query = runio.Query

// List is one query's ranked list, its items in Pos order: the element
// type of the collection EvaluateLists takes. It is the Query that
// `rankmetrics eval` evaluates, built by the same dedupe and join rules,
// with the counts of building it.
type List struct {
	Query
	// Counts holds what building the list counted (items, duplicates,
	// unjudged items, ...). It travels with the list into the report.
	Counts Counts
}

// QueryValue is the result of one query: per measure, its value and its
// list weight, in the order of the measures given to Evaluate.
type QueryValue struct {
	QID string
	// Value holds the query's value per measure (its AP for map, its
	// NDCG for ndcg@5, its P_10 for P_10...).
	Value []float64
	// Weight holds the query's list weight per measure: the weight of its
	// value in the mean (TF-Ranking's list weight; 1 for trec_eval's
	// measures).
	Weight []float64
	// Counts is the Counts of the query's List, with Queries = 1 and Items
	// its ranked items.
	Counts Counts
}

// Stage names the step of the pipeline that rejected a record.
type Stage string

const (
	// StageParse rejects one input record: a malformed line or row.
	StageParse Stage = "parse"
	// StageGroup rejects every row of a query when the query cannot be
	// built: duplicate documents under DedupeError, or weighted and
	// unweighted rows mixed.
	StageGroup Stage = "group"
	// StageEvaluate rejects a whole query that the metric refused.
	StageEvaluate Stage = "evaluate"
)

// DeadLetter is an input the pipeline could not use, with the reason. Every
// record read ends up either in a query's result or in a DeadLetter.
type DeadLetter struct {
	// Stage is the step that rejected it.
	Stage Stage `json:"stage"`
	// Pos is where the record was read; empty for StageEvaluate, which
	// rejects a whole query.
	Pos Pos `json:"pos"`
	// QID is the record's query, when it is known.
	QID string `json:"qid,omitempty"`
	// Reason says what is wrong, naming the field and value.
	Reason string `json:"reason"`
	// Record is the offending line (clipped to MaxRecordLen bytes), or a
	// rendering of the row.
	Record string `json:"record,omitempty"`
	// Rows is the number of input rows the dead letter stands for: 1 for
	// a record, 0 for a whole file, and the ranked items of the query for
	// StageEvaluate.
	Rows int64 `json:"rows"`
}

// MaxRecordLen is the longest Record a DeadLetter keeps; longer lines are
// clipped and marked with their full length.
const MaxRecordLen = 4096

// ClipRecord returns line clipped to MaxRecordLen bytes, with a note of the
// full length when it was clipped.
func ClipRecord(line string) string {
	if len(line) <= MaxRecordLen {
		return line
	}
	return line[:MaxRecordLen] + fmt.Sprintf("... (%d bytes in all)", len(line))
}

// String formats the dead letter as one line of text.
func (d DeadLetter) String() string {
	var b strings.Builder
	b.WriteString(string(d.Stage))
	if d.Pos.File != "" {
		b.WriteString(" ")
		b.WriteString(d.Pos.String())
	}
	if d.QID != "" {
		fmt.Fprintf(&b, " qid %q", d.QID)
	}
	b.WriteString(": ")
	b.WriteString(d.Reason)
	if d.Record != "" {
		fmt.Fprintf(&b, ": %q", d.Record)
	}
	return b.String()
}

// renderRow renders a row for a dead letter: a qrels line (qrels set)
// has no score.
func renderRow(r *Row, qrels bool) string {
	if qrels {
		return fmt.Sprintf("qid=%s doc=%s label=%v", r.QID, r.Doc, r.Label)
	}
	s := fmt.Sprintf("qid=%s doc=%s label=%v score=%v", r.QID, r.Doc, r.Label, r.Score)
	if r.HasWeight {
		s += fmt.Sprintf(" weight=%v", r.Weight)
	}
	return s
}
