package beamio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/internal/runio"
)

// ReadParquet reads Parquet files matched by the globs into a PCollection
// of rm.Chunk for rm.GroupChunks, with the column names of opts.Columns.
// Numeric columns may be INT32, INT64, FLOAT or DOUBLE; the qid and doc
// columns strings or integers. Each file is read by one worker, row group by row group; a
// row's Pos is its file and its 0-based row number. A row with a null, a
// NaN score or a non-finite weight goes to the dead letters; a file without
// a needed column sends every row to the dead letters.
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

// recovered runs fn and turns a panic into an error. The Parquet library
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

// numRows returns the number of rows of the file, checked against the
// sum of its row groups' (they differ in a corrupt file).
func numRows(pf *parquet.File) (int64, error) {
	var sum int64
	for _, g := range pf.RowGroups() {
		n := g.NumRows()
		if n < 0 || sum+n < sum {
			return 0, fmt.Errorf("row group of %d rows", n)
		}
		sum += n
	}
	if sum != pf.NumRows() {
		return 0, fmt.Errorf("the file says %d rows, its row groups %d", pf.NumRows(), sum)
	}
	return sum, nil
}

// readParquetRows reads the rows of a Parquet file into ch, counting them
// in c and the rows read in *rowNum; it returns the first error.
func readParquetRows(ctx context.Context, path string, ra io.ReaderAt, size int64, columns Columns, ch *rm.Chunker, dead func(rm.DeadLetter), c *rm.Counts, rowNum *int64) error {
	// runio's checks of the footer and of the page headers run before
	// parquet-go allocates what they claim.
	if err := runio.CheckParquet(ra, size, path); err != nil {
		return placeless(err)
	}
	pf, err := parquet.OpenFile(ra, size, parquet.FileReadMode(parquet.ReadModeSync))
	if err != nil {
		return err
	}
	cols, wReq, dReq := columns.WithDefaults()
	schema := pf.Schema()
	var reason string
	qid, r := lookupColumn(schema, cols.QID, true, true)
	reason = r
	label, r := lookupColumn(schema, cols.Label, true, false)
	reason = cmpReason(reason, r)
	score, r := lookupColumn(schema, cols.Score, true, false)
	reason = cmpReason(reason, r)
	weight, r := lookupColumn(schema, cols.Weight, wReq, false)
	reason = cmpReason(reason, r)
	doc, r := lookupColumn(schema, cols.Doc, dReq, true)
	reason = cmpReason(reason, r)
	if reason != "" {
		c.FileErrors++
		c.DeadLetters++
		dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path}, Reason: "schema: " + reason})
		n, err := numRows(pf)
		if err != nil {
			return err
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
			dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path, Offset: i}, Reason: "the file's schema: " + reason, Rows: 1})
		}
		return nil
	}
	all := []*pcol{qid, label, score}
	if weight != nil {
		all = append(all, weight)
	}
	if doc != nil {
		all = append(all, doc)
	}
	if _, err := numRows(pf); err != nil {
		return err
	}
	idx := make([]int, len(all))
	for i, pc := range all {
		idx[i] = pc.idx
	}
	if err := runio.CheckParquetPages(ra, size, path, pf.Metadata(), idx); err != nil {
		return placeless(err)
	}
	vals := make([]parquet.Value, len(all))
	for _, g := range pf.RowGroups() {
		chunks := g.ColumnChunks()
		for _, pc := range all {
			if pc.idx < 0 || pc.idx >= len(chunks) {
				return fmt.Errorf("row group without column %s", pc.name)
			}
			pc.r = parquet.NewColumnChunkValueReader(chunks[pc.idx])
			pc.pos, pc.n = 0, 0
		}
		for range g.NumRows() {
			if *rowNum&0xfff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			for i, pc := range all {
				if vals[i], err = pc.next(); err != nil {
					return err
				}
			}
			pos := rm.Pos{File: path, Offset: *rowNum}
			*rowNum++
			c.Records++
			row, reason := parquetRow(all, vals, weight != nil, doc != nil)
			if reason != "" {
				reject(c, ch, dead, pos, row.QID, reason, renderParquet(all, vals))
				continue
			}
			c.Rows++
			ch.Add(row.QID, path, rm.Item{Doc: row.Doc, Label: row.Label, Score: row.Score, Weight: row.Weight, HasWeight: row.HasWeight, Offset: pos.Offset})
		}
		for _, pc := range all {
			if err := pc.r.Close(); err != nil {
				return fmt.Errorf("column %s: %w", pc.name, err)
			}
		}
	}
	return nil
}

// pcol reads one column of a row group value by value.
type pcol struct {
	name string
	idx  int
	kind parquet.Kind
	r    parquet.ColumnChunkValueReader
	buf  []parquet.Value
	pos  int
	n    int
}

func (c *pcol) next() (parquet.Value, error) {
	if c.pos >= c.n {
		n, err := c.r.ReadValues(c.buf)
		if n == 0 {
			if err == nil || errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return parquet.Value{}, fmt.Errorf("column %s: %w", c.name, err)
		}
		c.pos, c.n = 0, n
	}
	v := c.buf[c.pos]
	c.pos++
	return v, nil
}

// lookupColumn finds a column and checks its type.
func lookupColumn(schema *parquet.Schema, name string, required, isID bool) (*pcol, string) {
	leaf, ok := schema.Lookup(name)
	if !ok {
		if required {
			return nil, fmt.Sprintf("no column named %q", name)
		}
		return nil, ""
	}
	if leaf.MaxRepetitionLevel > 0 {
		return nil, fmt.Sprintf("column %q is repeated", name)
	}
	k := leaf.Node.Type().Kind()
	switch k {
	case parquet.Int32, parquet.Int64:
	case parquet.Float, parquet.Double:
		if isID {
			return nil, fmt.Sprintf("column %q of type %s cannot be an id (want a string or an integer)", name, k)
		}
	case parquet.ByteArray, parquet.FixedLenByteArray:
		if !isID {
			return nil, fmt.Sprintf("column %q of type %s is not numeric", name, k)
		}
	default:
		return nil, fmt.Sprintf("column %q has unsupported type %s", name, k)
	}
	return &pcol{name: name, idx: leaf.ColumnIndex, kind: k, buf: make([]parquet.Value, 1024)}, ""
}

func number(c *pcol, v parquet.Value) (float64, string) {
	if v.IsNull() {
		return 0, fmt.Sprintf("field %s: missing value (null)", c.name)
	}
	switch c.kind {
	case parquet.Int32:
		return float64(v.Int32()), ""
	case parquet.Int64:
		x := v.Int64()
		if x > 1<<53 || x < -(1<<53) {
			return 0, fmt.Sprintf("field %s: value %d: integer too large to be exact in float64", c.name, x)
		}
		return float64(x), ""
	case parquet.Float:
		return float64(v.Float()), ""
	}
	return v.Double(), ""
}

func id(c *pcol, v parquet.Value) (string, string) {
	if v.IsNull() {
		return "", fmt.Sprintf("field %s: missing value (null)", c.name)
	}
	switch c.kind {
	case parquet.Int32:
		return strconv.FormatInt(int64(v.Int32()), 10), ""
	case parquet.Int64:
		return strconv.FormatInt(v.Int64(), 10), ""
	}
	return string(v.ByteArray()), ""
}

func cmpReason(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// parquetRow converts the values of one row (qid, label, score, then
// weight and doc when present).
func parquetRow(cols []*pcol, vals []parquet.Value, hasWeight, hasDoc bool) (rm.Row, string) {
	var r rm.Row
	var reason string
	if r.QID, reason = id(cols[0], vals[0]); reason != "" {
		return r, reason
	}
	if r.QID == "" {
		return r, fmt.Sprintf("field %s: empty qid", cols[0].name)
	}
	if r.Label, reason = number(cols[1], vals[1]); reason != "" {
		return r, reason
	}
	if msg := runio.CheckLabel(r.Label); msg != "" {
		return r, fmt.Sprintf("field %s: value \"%v\": %s", cols[1].name, r.Label, msg)
	}
	if r.Score, reason = number(cols[2], vals[2]); reason != "" {
		return r, reason
	}
	if math.IsNaN(r.Score) {
		return r, fmt.Sprintf("field %s: value \"NaN\": NaN score", cols[2].name)
	}
	i := 3
	if hasWeight {
		if r.Weight, reason = number(cols[i], vals[i]); reason != "" {
			return r, reason
		}
		if math.IsNaN(r.Weight) || math.IsInf(r.Weight, 0) {
			return r, fmt.Sprintf("field %s: value \"%v\": a weight must be finite", cols[i].name, r.Weight)
		}
		r.HasWeight = true
		i++
	}
	if hasDoc {
		if r.Doc, reason = id(cols[i], vals[i]); reason != "" {
			return r, reason
		}
		if r.Doc == "" {
			return r, fmt.Sprintf("field %s: empty document id", cols[i].name)
		}
	}
	return r, ""
}

func renderParquet(cols []*pcol, vals []parquet.Value) string {
	var b strings.Builder
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c.name)
		b.WriteByte('=')
		if vals[i].IsNull() {
			b.WriteString("null")
		} else {
			b.WriteString(vals[i].String())
		}
	}
	return rm.ClipRecord(b.String())
}
