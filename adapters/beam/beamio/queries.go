package beamio

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/runio"
)

// ReadJSONL reads JSON Lines files matched by the globs into a
// PCollection of rm.Chunk for rm.GroupChunks, with the keys of
// opts.Columns; ReadRKM1 reads RKM1 files (queries "1".."Q", no document
// ids, no weights). Both read each file whole on one worker through
// runio's reader, the one `rankmetrics eval` uses, with the same limits
// (opts.MaxLineBytes, opts.MaxInputBytes): the values, the checks and the
// messages are eval's. A file need not be sorted by qid (it is grouped as
// eval --unsorted group groups it), and a query may span files. A row's
// Pos is its file and its 0-based number among the rows of the file in
// the order eval reads them (a query's rows together).
//
// Repeated documents within one file are handled by the reader with
// dedupe, as eval handles them; under rm.DedupeError a repeat fails the
// file. A file that cannot be read to the end goes to the dead letters
// with the reason (file, line, field, as eval names them), and so does
// every query with a row in it (see rm.Chunk.FileFailed). Repeats across
// files are handled by rm.GroupChunks.
func ReadJSONL(s beam.Scope, globs []string, dedupe rm.Dedupe, opts Options) rm.Step {
	s = s.Scope("rankmetrics.ReadJSONL")
	return readQueries(s, globs, runio.FormatJSONL, dedupe, opts)
}

// ReadRKM1 reads RKM1 files; see ReadJSONL.
func ReadRKM1(s beam.Scope, globs []string, opts Options) rm.Step {
	s = s.Scope("rankmetrics.ReadRKM1")
	return readQueries(s, globs, runio.FormatRKM1, rm.DedupeError, opts)
}

func readQueries(s beam.Scope, globs []string, f runio.Format, dedupe rm.Dedupe, opts Options) rm.Step {
	fn := &queryFileFn{Format: uint8(f), Dedupe: dedupe, Columns: opts.Columns, MaxLineBytes: opts.MaxLineBytes, MaxInputBytes: opts.MaxInputBytes}
	rows, dead, counts := beam.ParDo3(s, fn, files(s, globs))
	return rm.Step{Output: rows, DeadLetters: dead, Counts: counts}
}

// queryFileFn reads one file with a runio reader of Format.
type queryFileFn struct {
	Format        uint8
	Dedupe        rm.Dedupe
	Columns       Columns
	MaxLineBytes  int64
	MaxInputBytes int64
}

// ProcessElement reads one file.
func (f *queryFileFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	limit := f.MaxInputBytes
	if limit <= 0 {
		limit = DefaultMaxInputBytes
	}
	format := runio.Format(f.Format)
	ra, size, closeFn, reason, err := openWhole(ctx, path, limit, format.String())
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var c rm.Counts
	var rows int64
	if reason == "" {
		defer closeFn()
		rows, err = f.read(ctx, path, ra, size, rm.NewChunker(emit), &c)
		if err == nil || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			if c != (rm.Counts{}) {
				counts(c)
			}
			return err
		}
		reason = placeless(err).Error()
		var pe *runio.ParseError
		if errors.As(err, &pe) && pe.Line > 0 {
			reason = fmt.Sprintf("line %d: %s", pe.Line, reason)
		}
	}
	if rows > 0 {
		reason = fmt.Sprintf("the file cannot be read past row %d: %s; every query with a row in it goes to the dead letters", rows, reason)
		emit(rm.Chunk{File: path, FileFailed: true, Reason: reason})
	}
	c.FileErrors++
	c.DeadLetters++
	counts(c)
	dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path, Offset: rows}, Reason: reason})
	return nil
}

// read emits the rows of the file's queries, numbered in read order, and
// returns how many it emitted.
func (f *queryFileFn) read(ctx context.Context, path string, ra io.ReaderAt, size int64, ch *rm.Chunker, c *rm.Counts) (int64, error) {
	opts := runio.Options{Format: runio.Format(f.Format), Columns: f.Columns, Unsorted: runio.UnsortedGroup, Dedupe: f.Dedupe,
		KeepDocs: true, MaxLineBytes: int(f.MaxLineBytes), MaxInputBytes: f.MaxInputBytes}
	var r runio.Reader
	var err error
	if opts.Format == runio.FormatRKM1 {
		r, err = runio.NewRKM1Reader(ctx, ra, size, path)
	} else {
		r, err = runio.NewJSONLReader(ctx, io.NewSectionReader(ra, 0, size), path, opts)
	}
	if err != nil {
		return 0, err
	}
	defer r.Close()
	var q runio.Query
	var n int64
	defer ch.Flush()
	for {
		if err := r.Next(&q); err == io.EOF {
			break
		} else if err != nil {
			return n, err
		}
		for i := range q.Scores {
			it := rm.Item{Label: q.Labels[i], Score: q.Scores[i], Offset: n}
			if q.Docs != nil {
				it.Doc = q.Docs[i]
			}
			if q.Weights != nil {
				it.Weight, it.HasWeight = q.Weights[i], true
			}
			ch.Add(q.QID, path, it)
			n++
		}
	}
	st := r.Stats()
	c.Records += st.Rows
	c.Rows += st.Rows
	c.BlankLines += st.BlankLines
	c.DuplicatesDropped += st.DuplicatesDropped
	return n, nil
}
