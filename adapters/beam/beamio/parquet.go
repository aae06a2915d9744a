package beamio

import (
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
)

// ReadParquet reads Parquet files matched by the globs into a PCollection
// of rm.Chunk for rm.GroupChunks, with the column names of opts.Columns.
// Numeric columns may be INT32, INT64, FLOAT or DOUBLE; the qid and doc
// columns strings or integers. Each file is read by one worker, row group by row group; a
// row's Pos is its file and its 0-based row number. A row with a null, a
// NaN score or a non-finite weight goes to the dead letters; a file without
// a needed column sends every row to the dead letters.
//
// Beam's own parquetio is not used: it decodes into one fixed Go struct
// (so column names and types cannot be chosen at run time), reads a whole
// file into memory, and fails the whole file on one bad row.
func ReadParquet(s beam.Scope, globs []string, opts Options) rm.Step {
	s = s.Scope("rankmetrics.ReadParquet")
	rows, dead, counts := beam.ParDo3(s, &parquetFn{Columns: opts.Columns}, files(s, globs))
	return rm.Step{Output: rows, DeadLetters: dead, Counts: counts}
}

type parquetFn struct {
	Columns Columns
}

// openParquet returns random access to a file: a local file is opened as
// such; a remote or gzip-compressed one is read into memory.
func openParquet(ctx context.Context, file fileio.ReadableFile) (io.ReaderAt, int64, func(), error) {
	path := file.Metadata.Path
	var data []byte
	if !strings.Contains(path, "://") {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, nil, err
		}
		var magic [2]byte
		if n, _ := f.ReadAt(magic[:], 0); n < 2 || magic != [2]byte{0x1f, 0x8b} {
			st, err := f.Stat()
			if err != nil {
				f.Close()
				return nil, 0, nil, err
			}
			return f, st.Size(), func() { f.Close() }, nil
		}
		data, err = io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, 0, nil, err
		}
	} else {
		rc, err := openRaw(ctx, path)
		if err != nil {
			return nil, 0, nil, err
		}
		data, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, 0, nil, err
		}
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, 0, nil, fmt.Errorf("gzip: %w", err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			return nil, 0, nil, fmt.Errorf("gzip: %w", err)
		}
	}
	return bytes.NewReader(data), int64(len(data)), func() {}, nil
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

// ProcessElement reads one Parquet file.
func (f *parquetFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(rm.Chunk), dead func(rm.DeadLetter), counts func(rm.Counts)) error {
	path := file.Metadata.Path
	var c rm.Counts
	ch := rm.NewChunker(emit)
	defer func() {
		ch.Flush()
		if c != (rm.Counts{}) {
			counts(c)
		}
	}()
	ra, size, closeFn, err := openParquet(ctx, file)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer closeFn()
	pf, err := parquet.OpenFile(ra, size)
	if err != nil {
		c.FileErrors++
		c.DeadLetters++
		dead(rm.DeadLetter{Stage: rm.StageParse, Pos: rm.Pos{File: path}, Reason: "not a readable Parquet file: " + err.Error()})
		return nil
	}
	cols, wReq, dReq := f.Columns.WithDefaults()
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
		for i := range pf.NumRows() {
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
	vals := make([]parquet.Value, len(all))
	var rowNum int64
	for _, g := range pf.RowGroups() {
		chunks := g.ColumnChunks()
		for _, pc := range all {
			pc.r = parquet.NewColumnChunkValueReader(chunks[pc.idx])
			pc.pos, pc.n = 0, 0
		}
		for range g.NumRows() {
			if rowNum&0xfff == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			for i, pc := range all {
				if vals[i], err = pc.next(); err != nil {
					return fmt.Errorf("%s: row %d: %w", path, rowNum, err)
				}
			}
			pos := rm.Pos{File: path, Offset: rowNum}
			rowNum++
			c.Records++
			row, reason := parquetRow(all, vals, weight != nil, doc != nil)
			if reason != "" {
				c.ParseErrors++
				c.DeadLetters++
				dead(rm.DeadLetter{Stage: rm.StageParse, Pos: pos, Reason: reason, Record: renderParquet(all, vals), Rows: 1})
				continue
			}
			c.Rows++
			ch.Add(row.QID, path, rm.Item{Doc: row.Doc, Label: row.Label, Score: row.Score, Weight: row.Weight, HasWeight: row.HasWeight, Offset: pos.Offset})
		}
		for _, pc := range all {
			if err := pc.r.Close(); err != nil {
				return fmt.Errorf("%s: column %s: %w", path, pc.name, err)
			}
		}
	}
	return nil
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
