package runio

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// parquetSource reads the named columns of a Parquet file row group by row
// group, a batch of values at a time, so memory stays bounded by the batch
// and the pages in flight.
type parquetSource struct {
	name   string
	file   *parquet.File
	groups []parquet.RowGroup
	next_  int
	left   int64 // rows left in the current row group
	row    int64 // rows read so far (the current row's 1-based number)
	cols   Columns
	qid    *pcol
	label  *pcol
	score  *pcol
	weight *pcol
	doc    *pcol
	closer io.Closer
	broken error // set once parquet-go panicked: the reader state is lost
}

type pcol struct {
	name string
	idx  int
	kind parquet.Kind
	r    parquet.ColumnChunkValueReader
	buf  []parquet.Value
	pos  int
	n    int
	// The text of the last integer id, reused while the id repeats.
	lastInt  int64
	lastText []byte
	hasLast  bool
}

// NewParquetReader returns a Reader over a Parquet file with the columns
// named in opts.Columns. Numeric columns may be INT32, INT64, FLOAT or
// DOUBLE; the qid and doc columns may be strings or integers.
func NewParquetReader(ctx context.Context, r io.ReaderAt, size int64, name string, opts Options) (Reader, error) {
	src, err := newParquetSource(r, size, name, opts)
	if err != nil {
		return nil, err
	}
	return newStreamReader(ctx, src, name, opts), nil
}

// corrupt turns a panic of parquet-go, which it raises on some corrupt
// files (a bad offset or length in the metadata or a page), into an error.
func corrupt(name string, row int64, p any) error {
	return &ParseError{File: name, Line: row, Msg: "corrupt Parquet file", Err: fmt.Errorf("the Parquet decoder failed: %v", p)}
}

// checkParquetFooter checks the file's magic bytes and footer length before
// parquet-go sees it: OpenFile allocates the footer length as read, so a
// corrupt length made a 4 KB file allocate up to 4 GB.
func checkParquetFooter(r io.ReaderAt, size int64, name string) error {
	var tail [8]byte
	if size < 12 {
		return &ParseError{File: name, Field: "size", Value: strconv.FormatInt(size, 10), Msg: "not a Parquet file: too short"}
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return &ParseError{File: name, Msg: "cannot read the Parquet footer", Err: err}
	}
	if string(tail[4:]) != "PAR1" {
		return &ParseError{File: name, Field: "magic", Value: string(tail[4:]), Msg: "not a Parquet file (no PAR1 at the end)"}
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return &ParseError{File: name, Field: "footer length", Value: strconv.FormatInt(n, 10),
			Msg: fmt.Sprintf("corrupt Parquet file: the footer cannot be longer than the %d-byte file", size)}
	}
	return nil
}

func newParquetSource(r io.ReaderAt, size int64, name string, opts Options) (s *parquetSource, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, corrupt(name, 0, p)
		}
	}()
	if err := checkParquetFooter(r, size, name); err != nil {
		return nil, err
	}
	f, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", name, err)
	}
	cols, wReq, dReq := opts.Columns.WithDefaults()
	s = &parquetSource{name: name, file: f, groups: f.RowGroups(), cols: cols}
	if c, ok := r.(io.Closer); ok {
		s.closer = c
	}
	schema := f.Schema()
	lookup := func(col string, required, isID bool) (*pcol, error) {
		leaf, ok := schema.Lookup(col)
		if !ok {
			if required {
				return nil, &ParseError{File: name, Field: col, NoValue: true, Msg: fmt.Sprintf("no column named %q in the schema %s", col, schemaColumns(schema))}
			}
			return nil, nil
		}
		if leaf.MaxRepetitionLevel > 0 {
			return nil, &ParseError{File: name, Field: col, NoValue: true, Msg: "repeated columns are not supported"}
		}
		k := leaf.Node.Type().Kind()
		switch k {
		case parquet.Int32, parquet.Int64:
		case parquet.Float, parquet.Double:
			if isID {
				return nil, &ParseError{File: name, Field: col, NoValue: true, Msg: fmt.Sprintf("column type %s cannot be an id (want a string or an integer)", k)}
			}
		case parquet.ByteArray, parquet.FixedLenByteArray:
			if !isID {
				return nil, &ParseError{File: name, Field: col, NoValue: true, Msg: fmt.Sprintf("column type %s is not numeric", k)}
			}
		default:
			return nil, &ParseError{File: name, Field: col, NoValue: true, Msg: fmt.Sprintf("unsupported column type %s", k)}
		}
		return &pcol{name: col, idx: leaf.ColumnIndex, kind: k, buf: make([]parquet.Value, 1024)}, nil
	}
	if s.qid, err = lookup(cols.QID, true, true); err != nil {
		return nil, err
	}
	if s.label, err = lookup(cols.Label, true, false); err != nil {
		return nil, err
	}
	if s.score, err = lookup(cols.Score, true, false); err != nil {
		return nil, err
	}
	if s.weight, err = lookup(cols.Weight, wReq, false); err != nil {
		return nil, err
	}
	if s.doc, err = lookup(cols.Doc, dReq, true); err != nil {
		return nil, err
	}
	var idx []int
	for _, c := range s.all() {
		idx = append(idx, c.idx)
	}
	if err := checkPages(r, size, name, f.Metadata(), idx); err != nil {
		return nil, err
	}
	return s, nil
}

func schemaColumns(s *parquet.Schema) string {
	var names []string
	for _, p := range s.Columns() {
		n := ""
		for i, x := range p {
			if i > 0 {
				n += "."
			}
			n += x
		}
		names = append(names, n)
	}
	return fmt.Sprint(names)
}

func (s *parquetSource) all() []*pcol {
	out := []*pcol{s.qid, s.label, s.score}
	if s.weight != nil {
		out = append(out, s.weight)
	}
	if s.doc != nil {
		out = append(out, s.doc)
	}
	return out
}

func (s *parquetSource) hasWeights() bool  { return s.weight != nil }
func (s *parquetSource) hasDocs() bool     { return s.doc != nil }
func (s *parquetSource) docField() string  { return s.cols.Doc }
func (s *parquetSource) blankLines() int64 { return 0 }

func (s *parquetSource) close() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corrupt(s.name, 0, p)
		}
	}()
	for _, c := range s.all() {
		if c.r != nil {
			err = errors.Join(err, c.r.Close())
			c.r = nil
		}
	}
	if s.closer != nil {
		err = errors.Join(err, s.closer.Close())
	}
	return err
}

func (s *parquetSource) openGroup() error {
	for _, c := range s.all() {
		if c.r != nil {
			if err := c.r.Close(); err != nil {
				return fmt.Errorf("%s: column %s: %w", s.name, c.name, err)
			}
		}
	}
	g := s.groups[s.next_]
	s.next_++
	chunks := g.ColumnChunks()
	for _, c := range s.all() {
		c.r = parquet.NewColumnChunkValueReader(chunks[c.idx])
		c.pos, c.n = 0, 0
	}
	s.left = g.NumRows()
	return nil
}

func (s *parquetSource) value(c *pcol) (parquet.Value, error) {
	if c.pos >= c.n {
		n, err := c.r.ReadValues(c.buf)
		if n == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return parquet.Value{}, &ParseError{File: s.name, Line: s.row, Field: c.name, NoValue: true, Msg: "cannot read the column", Err: err}
		}
		c.pos, c.n = 0, n
	}
	v := c.buf[c.pos]
	c.pos++
	if v.IsNull() {
		return v, &ParseError{File: s.name, Line: s.row, Field: c.name, Value: "null", Msg: "missing value"}
	}
	return v, nil
}

func (s *parquetSource) num(c *pcol) (float64, error) {
	v, err := s.value(c)
	if err != nil {
		return 0, err
	}
	switch c.kind {
	case parquet.Int32:
		return float64(v.Int32()), nil
	case parquet.Int64:
		x := v.Int64()
		if x > 1<<53 || x < -(1<<53) {
			return 0, &ParseError{File: s.name, Line: s.row, Field: c.name, Value: strconv.FormatInt(x, 10), Msg: "integer too large to be exact in float64"}
		}
		return float64(x), nil
	case parquet.Float:
		return float64(v.Float()), nil
	}
	return v.Double(), nil
}

func (s *parquetSource) id(c *pcol) ([]byte, error) {
	v, err := s.value(c)
	if err != nil {
		return nil, err
	}
	var x int64
	switch c.kind {
	case parquet.Int32:
		x = int64(v.Int32())
	case parquet.Int64:
		x = v.Int64()
	default:
		return v.ByteArray(), nil
	}
	if !c.hasLast || x != c.lastInt {
		c.lastText = strconv.AppendInt(c.lastText[:0], x, 10)
		c.lastInt, c.hasLast = x, true
	}
	return c.lastText, nil
}

// next reads one row. A panic inside parquet-go (a corrupt page) becomes an
// error here, on the goroutine that reads, and every later call returns it.
func (s *parquetSource) next(r *row) (err error) {
	if s.broken != nil {
		return s.broken
	}
	defer func() {
		if p := recover(); p != nil {
			s.broken = corrupt(s.name, s.row, p)
			err = s.broken
		}
	}()
	for s.left == 0 {
		if s.next_ >= len(s.groups) {
			return io.EOF
		}
		if err := s.openGroup(); err != nil {
			return err
		}
	}
	s.left--
	s.row++
	r.line = s.row
	if r.qid, err = s.id(s.qid); err != nil {
		return err
	}
	if len(r.qid) == 0 {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.QID, Msg: "empty qid"}
	}
	if r.label, err = s.num(s.label); err != nil {
		return err
	}
	if msg := CheckLabel(r.label); msg != "" {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.Label, Value: strconv.FormatFloat(r.label, 'g', -1, 64), Msg: msg}
	}
	if r.score, err = s.num(s.score); err != nil {
		return err
	}
	if math.IsNaN(r.score) {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.Score, Value: "NaN", Msg: "NaN score"}
	}
	if s.weight != nil {
		if r.weight, err = s.num(s.weight); err != nil {
			return err
		}
		if math.IsNaN(r.weight) {
			return &ParseError{File: s.name, Line: s.row, Field: s.cols.Weight, Value: "NaN", Msg: "NaN weight"}
		}
	}
	if s.doc != nil {
		if r.doc, err = s.id(s.doc); err != nil {
			return err
		}
		if len(r.doc) == 0 {
			return &ParseError{File: s.name, Line: s.row, Field: s.cols.Doc, Msg: "empty document id"}
		}
	}
	return nil
}
