package runio

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
)

// Format is an input format.
type Format uint8

const (
	// FormatAuto detects the format from the file name.
	FormatAuto Format = iota
	// FormatTREC is a qrels file plus a run file.
	FormatTREC
	// FormatTSV is tab-separated values with a header.
	FormatTSV
	// FormatCSV is comma-separated values with a header.
	FormatCSV
	// FormatJSONL is JSON Lines.
	FormatJSONL
	// FormatParquet is Apache Parquet.
	FormatParquet
	// FormatRKM1 is the dense binary benchmark format.
	FormatRKM1
)

var formatNames = [...]string{"auto", "trec", "tsv", "csv", "jsonl", "parquet", "rkm1"}

// String returns the format's flag spelling.
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat parses a format name as spelled on the command line.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "", "auto":
		return FormatAuto, nil
	case "trec":
		return FormatTREC, nil
	case "tsv":
		return FormatTSV, nil
	case "csv":
		return FormatCSV, nil
	case "jsonl", "ndjson":
		return FormatJSONL, nil
	case "parquet":
		return FormatParquet, nil
	case "rkm1", "bin":
		return FormatRKM1, nil
	}
	return FormatAuto, fmt.Errorf("unknown input format %q (want one of auto, trec, tsv, csv, jsonl, parquet, rkm1)", s)
}

// DetectFormat returns the format implied by a file name's extension, looking
// through a trailing ".gz". TREC files have no standard extension, so
// ".qrels", ".run" and ".trec" are recognised and anything else is an error.
func DetectFormat(path string) (Format, error) {
	name := strings.ToLower(filepath.Base(path))
	name = strings.TrimSuffix(name, ".gz")
	switch filepath.Ext(name) {
	case ".tsv", ".tab":
		return FormatTSV, nil
	case ".csv":
		return FormatCSV, nil
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".parquet", ".pq":
		return FormatParquet, nil
	case ".bin", ".rkm", ".rkm1":
		return FormatRKM1, nil
	case ".qrels", ".run", ".trec":
		return FormatTREC, nil
	}
	return FormatAuto, fmt.Errorf("cannot tell the format of %q from its extension; name it with --input-format (trec, tsv, csv, jsonl, parquet, rkm1)", path)
}

// UnsortedPolicy says what to do with input not sorted by qid.
type UnsortedPolicy uint8

const (
	// UnsortedError streams the input and fails at the first qid that
	// sorts before the previous one.
	UnsortedError UnsortedPolicy = iota
	// UnsortedGroup reads the whole input into memory and groups it by qid.
	UnsortedGroup
	// UnsortedAuto reads input in any line order (the command line's
	// default). A TREC file that can be read again (a file, not
	// compressed) is scanned first for its qids: sorted, it streams as
	// with UnsortedError; with each qid's lines in one block, in any
	// order, the blocks are read one at a time in qid order, so memory
	// holds the largest; with scattered lines it is gathered as with
	// UnsortedGroup. The check reads the qids only, in ranges of 8 MiB
	// on every CPU. A file read once (gzipped, standard input) is
	// decompressed and parsed once, its queries returned 16384 lines
	// behind the reading: out of order within those lines it is gathered;
	// out of order later, the rest is gathered with the queries not yet
	// returned, and a qid that does not come after the last query
	// returned is an error naming --unsorted group. TREC
	// queries come in the order of CompareQID
	// whatever the line order. A single-file format (TSV, CSV, JSON
	// Lines, Parquet) is read ahead by 16384 rows: if their qids are out
	// of order (a shuffled file, q9 before q10, 19 before 2) it is gathered
	// as with UnsortedGroup, its queries in order of first appearance;
	// else it streams as with UnsortedError, and a qid out of order later
	// is an error that names --unsorted group (RKM1 is sorted by
	// construction). With Options.Restartable a pair of plain TREC
	// files is streamed without the scan, and read again with it if it
	// is not sorted (see [Options.Restartable]).
	UnsortedAuto
)

// ParseUnsortedPolicy parses "auto", "error" or "group".
func ParseUnsortedPolicy(s string) (UnsortedPolicy, error) {
	switch s {
	case "error":
		return UnsortedError, nil
	case "group":
		return UnsortedGroup, nil
	case "auto":
		return UnsortedAuto, nil
	}
	return UnsortedError, fmt.Errorf("unknown unsorted policy %q (want auto, error or group)", s)
}

// String returns "error", "group" or "auto".
func (p UnsortedPolicy) String() string {
	switch p {
	case UnsortedGroup:
		return "group"
	case UnsortedAuto:
		return "auto"
	}
	return "error"
}

// DedupePolicy says what to do with a repeated (qid, doc) pair.
type DedupePolicy uint8

const (
	// DedupeError makes a duplicate an error.
	DedupeError DedupePolicy = iota
	// DedupeFirst keeps the first occurrence and drops the others.
	DedupeFirst
	// DedupeMax keeps one item at the position of the first occurrence
	// with the largest score (run and single-file formats) or the largest
	// label (qrels) among the occurrences. Its other fields (label,
	// weight) come from the occurrence that holds that maximum, the first
	// one on a tie.
	DedupeMax
)

// ParseDedupePolicy parses "error", "first" or "max".
func ParseDedupePolicy(s string) (DedupePolicy, error) {
	switch s {
	case "error", "":
		return DedupeError, nil
	case "first":
		return DedupeFirst, nil
	case "max":
		return DedupeMax, nil
	}
	return DedupeError, fmt.Errorf("unknown dedupe policy %q (want error, first or max)", s)
}

// String returns "error", "first" or "max".
func (p DedupePolicy) String() string {
	switch p {
	case DedupeFirst:
		return "first"
	case DedupeMax:
		return "max"
	}
	return "error"
}

// Columns names the columns (TSV, CSV, Parquet) or keys (JSON Lines) to read.
// The zero value means the defaults of [DefaultColumns]. In JSON Lines the
// list form uses the plural keys: the name followed by "s".
type Columns struct {
	QID    string
	Label  string
	Score  string
	Weight string
	Doc    string
}

// DefaultColumns are qid, label, score, weight and doc. Weight and doc are
// optional when left at their defaults: they are read if present.
var DefaultColumns = Columns{QID: "qid", Label: "label", Score: "score", Weight: "weight", Doc: "doc"}

// WithDefaults fills empty names from DefaultColumns and reports which of
// the optional ones were set explicitly (and so are required).
func (c Columns) WithDefaults() (out Columns, weightRequired, docRequired bool) {
	out = c
	if out.QID == "" {
		out.QID = DefaultColumns.QID
	}
	if out.Label == "" {
		out.Label = DefaultColumns.Label
	}
	if out.Score == "" {
		out.Score = DefaultColumns.Score
	}
	weightRequired = out.Weight != "" && out.Weight != DefaultColumns.Weight
	if out.Weight == "" {
		out.Weight = DefaultColumns.Weight
	}
	docRequired = out.Doc != "" && out.Doc != DefaultColumns.Doc
	if out.Doc == "" {
		out.Doc = DefaultColumns.Doc
	}
	return out, weightRequired, docRequired
}

// Options configures a Reader. The zero value is usable.
type Options struct {
	// Format is the input format; FormatAuto detects it from the name.
	Format Format
	// Columns names the columns to read.
	Columns Columns
	// Unsorted says what to do with input not sorted by qid.
	Unsorted UnsortedPolicy
	// Dedupe says what to do with repeated (qid, doc) pairs.
	Dedupe DedupePolicy
	// Restartable, under UnsortedAuto, lets a TREC pair whose two files
	// can both be read again (files, gzipped or not; not standard input)
	// stream at once as if sorted, without the scan of their qids: any
	// error a query of it meets (a qid out of order, or any other) wraps
	// [ErrRestart], and the caller then closes the reader, drops what it
	// computed and reads again with Restartable off (see [Restarting]),
	// which scans a plain file first and gathers a gzipped one, and gives
	// today's result and errors. Other inputs ignore it.
	Restartable bool
	// restarted is set by Restarting for its second read: a gzipped file
	// is gathered rather than read behind a lag, so that a qid out of
	// order late in it is read, not refused.
	restarted bool
	// KeepDocs fills Query.Docs and Query.UnrankedDocs.
	KeepDocs bool
	// Stdin is read for the path "-".
	Stdin io.Reader
	// BufferSize is the read buffer size in bytes (default 1 MiB).
	BufferSize int
	// Workers, when 4 or more, parses each TREC file of a pair with half
	// that many goroutines (the two files are parsed at the same time,
	// each by a goroutine of its own otherwise), plus one that reads (and
	// decompresses) it in
	// pieces of 64 KiB cut at line ends: the queries, their order, the
	// counts and the first error in file order are those of one worker.
	// With 2 or 3, a gzipped file is decompressed by one goroutine and
	// parsed by another. A file read block by block (UnsortedAuto) is
	// parsed by one.
	Workers int
	// parChunk, when not 0, replaces parChunkSize (tests)
	parChunk int
	// BytesRead, when not nil, is increased by the number of bytes read
	// from the files (as stored, so compressed bytes for gzip input), for
	// progress reports. It is updated from the reading goroutines.
	BytesRead *atomic.Int64
	// Positions, when not empty, says that TSV or CSV input has no header
	// and names its columns in order (see [ParsePositions]).
	Positions []string
	// MaxLineBytes bounds the length of one line of a text input (TREC,
	// TSV, CSV, JSON Lines), terminator excluded; a longer line is an
	// error. Zero means [DefaultMaxLineBytes].
	MaxLineBytes int
	// TRECNoComments reads TREC lines that start with '#' as data, as
	// trec_eval 9.0.8 does, instead of skipping them as comments, as
	// trec_eval 10.0 does.
	TRECNoComments bool
	// MaxInputBytes bounds the decompressed size of an input that is read
	// whole into memory (a gzipped or piped Parquet or RKM1 file); a larger
	// one is an error. Zero means [DefaultMaxInputBytes].
	MaxInputBytes int64
}

// Column roles of [Options.Positions]: "-" is a column that is not read.
var positionRoles = []string{"qid", "doc", "label", "score", "weight", "-"}

// ParsePositions parses the column roles of a headerless TSV or CSV file,
// comma-separated and in order: qid, label and score once each, doc and
// weight at most once, and "-" for any column to ignore, as in
// "qid,-,doc,-,score" for a TREC run saved as TSV without its rank and tag.
// The empty string means the input has a header (nil).
func ParsePositions(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	roles := strings.Split(s, ",")
	seen := map[string]bool{}
	for _, r := range roles {
		if !slices.Contains(positionRoles, r) {
			return nil, fmt.Errorf("unknown column %q in %q (want qid, doc, label, score, weight, or - to skip a column)", r, s)
		}
		if r != "-" && seen[r] {
			return nil, fmt.Errorf("column %s appears twice in %q", r, s)
		}
		seen[r] = true
	}
	for _, r := range []string{"qid", "label", "score"} {
		if !seen[r] {
			return nil, fmt.Errorf("no %s column in %q (qid, label and score are required)", r, s)
		}
	}
	return roles, nil
}

// DefaultMaxLineBytes is the default longest line: 64 MiB, far above any
// real line (a JSON list of 1M items is about 30 MB).
const DefaultMaxLineBytes = 64 << 20

// DefaultMaxInputBytes is the default largest decompressed input read
// whole: 4 GiB.
const DefaultMaxInputBytes = 4 << 30

func (o *Options) maxLine() int {
	if o.MaxLineBytes <= 0 {
		return DefaultMaxLineBytes
	}
	return o.MaxLineBytes
}

func (o *Options) maxInput() int64 {
	if o.MaxInputBytes <= 0 {
		return DefaultMaxInputBytes
	}
	return o.MaxInputBytes
}

func (o *Options) bufferSize() int {
	if o.BufferSize <= 0 {
		return 1 << 20
	}
	return max(o.BufferSize, 64)
}
