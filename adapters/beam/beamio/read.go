package beamio

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/runio"
)

func init() {
	beam.RegisterType(reflect.TypeOf(Columns{}))
	register.DoFn6x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(rm.Chunk), func(rm.DeadLetter), func(rm.Counts), error](&delimFn{})
	register.DoFn6x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(rm.Chunk), func(rm.DeadLetter), func(rm.Counts), error](&runFn{})
	register.DoFn6x1[context.Context, *sdf.LockRTracker, fileio.ReadableFile, func(rm.Chunk), func(rm.DeadLetter), func(rm.Counts), error](&qrelsFn{})
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(rm.Chunk), func(rm.DeadLetter), func(rm.Counts), error](&parquetFn{})
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(rm.Chunk), func(rm.DeadLetter), func(rm.Counts), error](&queryFileFn{})
	register.Emitter1[rm.Chunk]()
	register.Emitter1[rm.DeadLetter]()
	register.Emitter1[rm.Counts]()
}

// Options configures the readers.
type Options struct {
	// Columns names the columns of TSV, CSV and Parquet input.
	Columns Columns
	// BlockSize is the size of the byte ranges text files are split into;
	// DefaultBlockSize when 0.
	BlockSize int64
	// MaxLineBytes is the longest line the text readers read (without its
	// newline); DefaultMaxLineBytes when 0. A longer line goes to the dead
	// letters, with its query when its qid can be read, and memory stays
	// bounded whatever the input.
	MaxLineBytes int64
	// MaxInputBytes is the most bytes read into memory for one file that
	// is read whole: a gzip-compressed Parquet file (decompressed) or a
	// Parquet file on a remote file system; DefaultMaxInputBytes when 0. A
	// larger file goes to the dead letters. It is the --max-input-bytes
	// of both rankmetrics eval and rankmetrics-beam.
	MaxInputBytes int64
	// Positions, when not empty, says that TSV and CSV files have no
	// header line and names their columns in order, as --columns of
	// rankmetrics eval (runio.ParsePositions parses it).
	Positions []string
}

// DefaultMaxLineBytes is the default Options.MaxLineBytes, the same as
// rankmetrics eval's --max-line-bytes: far above any real line of
// ranking output.
const DefaultMaxLineBytes = runio.DefaultMaxLineBytes

// DefaultMaxInputBytes is the default Options.MaxInputBytes, the same as
// rankmetrics eval's --max-input-bytes.
const DefaultMaxInputBytes = runio.DefaultMaxInputBytes

// files expands the globs (with Beam's file systems: local paths, gs://,
// ...) into the files to read, uncompressed as stored: gzip is detected
// from the content by the readers.
func files(s beam.Scope, globs []string) beam.PCollection {
	patterns := beam.CreateList(s, globs)
	matches := fileio.MatchAll(s, patterns, fileio.MatchEmptyDisallow())
	return fileio.ReadMatches(s, matches, fileio.ReadUncompressed())
}

// reject sends the record at pos to the dead letters and counts it; when
// its qid could be read, it also marks the query, so that the grouping step
// sends the whole query to the dead letters (see rm.Chunk).
func reject(c *rm.Counts, ch *rm.Chunker, dead func(rm.DeadLetter), pos rm.Pos, qid, reason, record string) {
	c.ParseErrors++
	c.DeadLetters++
	dead(rm.DeadLetter{Stage: rm.StageParse, Pos: pos, QID: qid, Reason: reason, Record: record, Rows: 1})
	if qid != "" {
		ch.Reject(qid, pos.File, pos.Offset, reason)
	}
}

// record returns what a dead letter keeps of a line.
func record(line []byte, long bool) string {
	if long {
		return clipLong(line)
	}
	return rm.ClipRecord(string(line))
}

// ReadDelimited reads TSV (delim '\t') or CSV (delim ',', with quoted
// fields on one line) files with a header line, matched by the globs, into
// a PCollection of rm.Chunk for rm.GroupChunks (or without one, when
// opts.Positions gives the columns in order). Files are split into byte
// ranges read in parallel, as Beam's textio does; gzip files are read
// whole. Each row's position is its file and the byte offset of its line.
// A malformed line, or one over opts.MaxLineBytes, goes to the dead letters
// with the reason, and so does every row of its query when its qid field
// can be read; a file whose header lacks a needed column sends every line
// to the dead letters.
func ReadDelimited(s beam.Scope, globs []string, delim byte, opts Options) rm.Step {
	s = s.Scope(fmt.Sprintf("rankmetrics.ReadDelimited(%q)", delim))
	fn := &delimFn{lineSplitter: lineSplitter{BlockSize: opts.BlockSize, MaxLineBytes: opts.MaxLineBytes}, Delim: delim, Columns: opts.Columns, Positions: opts.Positions}
	rows, dead, counts := beam.ParDo3(s, fn, files(s, globs))
	return rm.Step{Output: rows, DeadLetters: dead, Counts: counts}
}

type delimFn struct {
	lineSplitter
	Delim     byte
	Columns   Columns
	Positions []string
}

// ProcessElement reads the lines of one byte range of a file.
func (f *delimFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	var hline []byte
	hoff, hlong, hasHeader := int64(-1), false, false // no header line
	var err error
	if len(f.Positions) == 0 {
		if hline, hoff, hlong, hasHeader, err = firstLine(ctx, file, f.maxLine()); err != nil {
			return err
		}
	}
	var p *runio.DelimParser
	var hreason string
	switch {
	case len(f.Positions) > 0:
		if p, err = runio.NewHeaderlessDelimParser(path, f.Delim, f.Positions); err != nil {
			return err
		}
	case hlong:
		hreason = "header: " + longLine(f.maxLine())
	case hasHeader:
		if p, err = runio.NewDelimParser(hline, path, 0, f.Delim, f.Columns); err != nil {
			hreason = reason(err)
		}
	}
	var c rm.Counts
	var row rm.Row
	ch := rm.NewChunker(emit)
	blank, err := f.scan(ctx, rt, file, func(off int64, line []byte, long bool) {
		pos := rm.Pos{File: path, Offset: off}
		if off == hoff {
			c.HeaderLines++
			if hreason != "" {
				c.FileErrors++
				c.DeadLetters++
				dead(rm.DeadLetter{Stage: rm.StageParse, Pos: pos, Reason: hreason, Record: record(line, long)})
			}
			return
		}
		c.Records++
		var reason, qid string
		switch {
		case hreason != "":
			reason = "the file's " + hreason
		case long:
			reason, qid = longLine(f.maxLine()), delimitedQID(p, line, true)
		default:
			if reason = delimLine(p, line, &row); reason != "" {
				qid = delimitedQID(p, line, false)
			}
		}
		if reason != "" {
			reject(&c, ch, dead, pos, qid, reason, record(line, long))
			return
		}
		c.Rows++
		ch.Add(row.QID, path, rm.Item{Doc: row.Doc, Label: row.Label, Score: row.Score, Weight: row.Weight, HasWeight: row.HasWeight, Offset: off})
	})
	ch.Flush()
	c.BlankLines = blank
	if c != (rm.Counts{}) {
		counts(c)
	}
	return err
}

// ReadTREC reads TREC qrels ("qid iter docno rel") and run files ("qid Q0
// docno rank score tag"), matched by the globs, into two PCollections of
// rm.Chunk for rm.JoinTREC. The rank column is
// not used: items keep the run file's line order. A malformed line, or one
// over opts.MaxLineBytes, goes to the dead letters, and so does the whole
// query of its first field.
func ReadTREC(s beam.Scope, qrelsGlobs, runGlobs []string, opts Options) (qrels, run rm.Step) {
	s = s.Scope("rankmetrics.ReadTREC")
	split := lineSplitter{BlockSize: opts.BlockSize, MaxLineBytes: opts.MaxLineBytes}
	j, jdead, jcounts := beam.ParDo3(s, &qrelsFn{lineSplitter: split}, files(s.Scope("qrels"), qrelsGlobs))
	r, rdead, rcounts := beam.ParDo3(s, &runFn{lineSplitter: split}, files(s.Scope("run"), runGlobs))
	return rm.Step{Output: j, DeadLetters: jdead, Counts: jcounts}, rm.Step{Output: r, DeadLetters: rdead, Counts: rcounts}
}

type runFn struct {
	lineSplitter
}

// ProcessElement reads the run lines of one byte range of a file.
func (f *runFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	var c rm.Counts
	var row rm.Row
	sc := runio.NewTRECBytesScanner(nil, path, false, runio.TRECStrict, &runio.Options{MaxLineBytes: f.maxLine()})
	ch := rm.NewChunker(emit)
	blank, err := f.scan(ctx, rt, file, func(off int64, line []byte, long bool) {
		pos := rm.Pos{File: path, Offset: off}
		c.Records++
		if reason := f.parse(line, long, func() string { return parseRun(sc, line, &row) }); reason != "" {
			reject(&c, ch, dead, pos, trecQID(line, long), reason, record(line, long))
			return
		}
		c.Rows++
		ch.Add(row.QID, path, rm.Item{Doc: row.Doc, Score: row.Score, Offset: off})
	})
	ch.Flush()
	c.BlankLines = blank
	if c != (rm.Counts{}) {
		counts(c)
	}
	return err
}

type qrelsFn struct {
	lineSplitter
}

// ProcessElement reads the qrels lines of one byte range of a file.
func (f *qrelsFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	var c rm.Counts
	var j rm.Judgment
	sc := runio.NewTRECBytesScanner(nil, path, true, runio.TRECStrict, &runio.Options{MaxLineBytes: f.maxLine()})
	ch := rm.NewChunker(emit)
	blank, err := f.scan(ctx, rt, file, func(off int64, line []byte, long bool) {
		pos := rm.Pos{File: path, Offset: off}
		c.Records++
		if reason := f.parse(line, long, func() string { return parseQrels(sc, line, &j) }); reason != "" {
			reject(&c, ch, dead, pos, trecQID(line, long), reason, record(line, long))
			return
		}
		c.QrelsRows++
		ch.Add(j.QID, path, rm.Item{Doc: j.Doc, Label: j.Label, Offset: off})
	})
	ch.Flush()
	c.BlankLines = blank
	if c != (rm.Counts{}) {
		counts(c)
	}
	return err
}
