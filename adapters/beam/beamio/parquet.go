package beamio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/runio"
)

// ReadParquet reads Parquet files matched by the globs into a PCollection
// of rm.Chunk for rm.GroupChunks, with the column names of opts.Columns.
// Numeric columns may be INT32, INT64, FLOAT or DOUBLE; the qid and doc
// columns strings or integers. Each file is read by one worker, row group
// by row group, through runio's Parquet reader, the one `rankmetrics eval`
// uses: its checks of the footer and the pages, its values and its
// messages. A row's Pos is its file and its 0-based row number. A row that
// eval rejects (a null, an empty id, an infinite label, a NaN score or
// weight) goes to the dead letters, and reading goes on; a file without a
// needed column sends every row to the dead letters.
//
// A file that cannot be read to the end (corrupt, truncated, or over
// opts.MaxInputBytes when it must be read into memory) goes to the dead
// letters with the reason, and so does every query with a row in it (see
// rm.Chunk.FileFailed): a query is never evaluated on part of its rows.
// Panics of the Parquet library on corrupt input are recovered into such
// a dead letter.
//
// Beam's own parquetio is not used: it decodes into one fixed Go struct
// (so column names and types cannot be chosen at run time), reads a whole
// file into memory, and fails the whole file on one bad row.
func ReadParquet(s beam.Scope, globs []string, opts Options) rm.Step {
	s = s.Scope("rankmetrics.ReadParquet")
	fn := &parquetFn{Columns: opts.Columns, MaxInputBytes: opts.MaxInputBytes}
	rows, dead, counts := beam.ParDo3(s, fn, files(s, globs))
	return rm.Step{Output: rows, DeadLetters: dead, Counts: counts}
}

type parquetFn struct {
	Columns       Columns
	MaxInputBytes int64
}

// errOverLimit is returned by readLimited for input over its limit.
var errOverLimit = errors.New("over the limit")

// readLimited reads r to the end into memory, or fails with errOverLimit
// after more than limit bytes.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errOverLimit
	}
	return data, nil
}

// openWhole returns random access to a file: a local file is opened as
// such; a remote or gzip-compressed one is read into memory, up to limit
// bytes (decompressed). A file that cannot be used (over the limit, bad
// gzip data) gives a reason for its dead letter; err is for failures to
// open or read it, which a retry may cure.
func openWhole(ctx context.Context, path string, limit int64, format string) (ra io.ReaderAt, size int64, closeFn func(), reason string, err error) {
	var src io.Reader
	closeFn = func() {}
	where := "a remote file is read into memory"
	if !strings.Contains(path, "://") {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, nil, "", err
		}
		var magic [2]byte
		if n, _ := f.ReadAt(magic[:], 0); n < 2 || magic != [2]byte{0x1f, 0x8b} {
			st, err := f.Stat()
			if err != nil {
				f.Close()
				return nil, 0, nil, "", err
			}
			return f, st.Size(), func() { f.Close() }, "", nil
		}
		defer f.Close()
		src = f
	} else {
		rc, err := openRaw(ctx, path)
		if err != nil {
			return nil, 0, nil, "", err
		}
		defer rc.Close()
		src = rc
	}
	br := bufio.NewReader(src)
	if m, err := br.Peek(2); err == nil && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, 0, nil, "gzip: " + err.Error(), nil
		}
		data, err := readLimited(zr, limit)
		if errors.Is(err, errOverLimit) {
			return nil, 0, nil, overLimit(limit, "a gzip-compressed "+format+" file is decompressed into memory"), nil
		}
		if err != nil {
			return nil, 0, nil, "gzip: " + err.Error(), nil
		}
		return bytes.NewReader(data), int64(len(data)), closeFn, "", nil
	}
	data, err := readLimited(br, limit)
	if errors.Is(err, errOverLimit) {
		return nil, 0, nil, overLimit(limit, where), nil
	}
	if err != nil {
		return nil, 0, nil, "", err
	}
	return bytes.NewReader(data), int64(len(data)), closeFn, "", nil
}

// overLimit is the reason given for a file over the MaxInputBytes limit:
// rankmetrics eval's, naming the same flag, and why the file is read whole.
func overLimit(limit int64, why string) string {
	return runio.InputTooLarge(limit) + "; " + why
}

// ProcessElement reads one Parquet file.
func (f *parquetFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	limit := f.MaxInputBytes
	if limit <= 0 {
		limit = DefaultMaxInputBytes
	}
	ra, size, closeFn, reason, err := openWhole(ctx, path, limit, "Parquet")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if reason != "" {
		counts(rm.Counts{FileErrors: 1, DeadLetters: 1})
		dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path}, Reason: "not a readable Parquet file: " + reason})
		return nil
	}
	defer closeFn()
	c, err := readParquet(ctx, path, ra, size, f.Columns, emit, dead)
	if c != (rm.Counts{}) {
		counts(c)
	}
	return err
}

// recovered runs fn and turns a panic into an error: runio recovers the
// panics of the Parquet library it reads through; this catches any other.
// The Parquet library
// panics on some corrupt input (bad offsets or lengths in its metadata);
// with ReadModeSync it reads on the calling goroutine, so the panic can be
// caught here.
func recovered(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the Parquet library failed on it: %v", p)
		}
	}()
	return fn()
}

// readParquet reads the rows of one Parquet file of size bytes. A file it
// cannot read to the end is one dead letter, and a Chunk marked
// FileFailed when rows of it were already emitted; the only error it
// returns is the context's.
func readParquet(ctx context.Context, path string, ra io.ReaderAt, size int64, columns Columns, emit func(rm.Chunk), dead func(rm.DeadLetter)) (rm.Counts, error) {
	var c rm.Counts
	ch := rm.NewChunker(emit)
	var rowNum int64
	err := recovered(func() error { return readParquetRows(ctx, path, ra, size, columns, ch, dead, &c, &rowNum) })
	ch.Flush()
	if err == nil || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return c, err
	}
	reason := "not a readable Parquet file: " + err.Error()
	if rowNum > 0 {
		reason = fmt.Sprintf("the Parquet file cannot be read past row %d: %v; every query with a row in it goes to the dead letters", rowNum, err)
		emit(rm.Chunk{File: path, FileFailed: true, Reason: reason})
	}
	c.FileErrors++
	c.DeadLetters++
	dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path, Offset: rowNum}, Reason: reason})
	return c, nil
}

// readParquetRows reads the rows of a Parquet file into ch through
// runio's Parquet reader, counting them in c and the rows read in
// *rowNum; a rejected row goes to the dead letters and reading goes on.
// It returns the error that stops the reading.
func readParquetRows(ctx context.Context, path string, ra io.ReaderAt, size int64, columns Columns, ch *rm.Chunker, dead func(rm.DeadLetter), c *rm.Counts, rowNum *int64) error {
	pr, err := runio.OpenParquetRows(ra, size, path, columns)
	if err != nil {
		return placeless(err)
	}
	defer pr.Close()
	if serr := pr.SchemaError(); serr != nil {
		why := reason(serr)
		c.FileErrors++
		c.DeadLetters++
		dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path}, Reason: "schema: " + why})
		n, err := pr.NumRows()
		if err != nil {
			return placeless(err)
		}
		for i := range n {
			if i&0xfff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			c.Records++
			c.ParseErrors++
			c.DeadLetters++
			dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path, Offset: i}, Reason: "the file's schema: " + why, Rows: 1})
		}
		return nil
	}
	hasW, hasD := pr.HasWeights(), pr.HasDocs()
	var names []string
	var r runio.Row
	for {
		if *rowNum&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rowErr, err := pr.Next(&r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return placeless(err)
		}
		pos := rm.Pos{File: path, Offset: *rowNum}
		*rowNum++
		c.Records++
		if rowErr != nil {
			if names == nil {
				names = pr.Columns()
			}
			reject(c, ch, dead, pos, string(r.QID), reason(rowErr), renderParquet(names, pr.Values()))
			continue
		}
		c.Rows++
		it := rm.Item{Label: r.Label, Score: r.Score, Offset: pos.Offset}
		if hasW {
			it.Weight, it.HasWeight = r.Weight, true
		}
		if hasD {
			it.Doc = string(r.Doc)
		}
		ch.Add(string(r.QID), path, it)
	}
}

// renderParquet shows the values of a rejected row, for its dead letter.
func renderParquet(names []string, vals []parquet.Value) string {
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name)
		b.WriteByte('=')
		if vals[i].IsNull() {
			b.WriteString("null")
		} else {
			b.WriteString(vals[i].String())
		}
	}
	return rm.ClipRecord(b.String())
}
