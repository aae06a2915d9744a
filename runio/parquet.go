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
	broken error // set once a read failed or parquet-go panicked: the reader state is lost
	// read holds the columns read, in the order qid, label, score, then
	// weight and doc when present; vals the current row's values.
	read      []*pcol
	vals      []parquet.Value
	schemaErr error // the schema lacks a column, or has one of a wrong type
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
	if s, err = openParquetSource(r, size, name, opts.Columns); err != nil {
		return nil, err
	}
	if s.schemaErr != nil {
		return nil, s.schemaErr
	}
	if c, ok := r.(io.Closer); ok {
		s.closer = c
	}
	return s, nil
}

// openParquetSource opens the file and finds the columns; when they are
// all there (else s.schemaErr says why), it checks their pages.
func openParquetSource(r io.ReaderAt, size int64, name string, columns Columns) (s *parquetSource, err error) {
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
	cols, wReq, dReq := columns.WithDefaults()
	s = &parquetSource{name: name, file: f, groups: f.RowGroups(), cols: cols}
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
		s.schemaErr = err
		return s, nil
	}
	if s.label, err = lookup(cols.Label, true, false); err != nil {
		s.schemaErr = err
		return s, nil
	}
	if s.score, err = lookup(cols.Score, true, false); err != nil {
		s.schemaErr = err
		return s, nil
	}
	if s.weight, err = lookup(cols.Weight, wReq, false); err != nil {
		s.schemaErr = err
		return s, nil
	}
	if s.doc, err = lookup(cols.Doc, dReq, true); err != nil {
		s.schemaErr = err
		return s, nil
	}
	s.read = s.all()
	s.vals = make([]parquet.Value, len(s.read))
	var idx []int
	for _, c := range s.read {
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
	for _, c := range s.read {
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
	for _, c := range s.read {
		if c.r != nil {
			if err := c.r.Close(); err != nil {
				return fmt.Errorf("%s: column %s: %w", s.name, c.name, err)
			}
		}
	}
	g := s.groups[s.next_]
	s.next_++
	chunks := g.ColumnChunks()
	for _, c := range s.read {
		c.r = parquet.NewColumnChunkValueReader(chunks[c.idx])
		c.pos, c.n = 0, 0
	}
	s.left = g.NumRows()
	return nil
}

// value reads the next value of column c.
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
	return v, nil
}

// present rejects a null value v of column c.
func (s *parquetSource) present(c *pcol, v parquet.Value) error {
	if v.IsNull() {
		return &ParseError{File: s.name, Line: s.row, Field: c.name, Value: "null", Msg: "missing value"}
	}
	return nil
}

func (s *parquetSource) num(c *pcol, v parquet.Value) (float64, error) {
	if err := s.present(c, v); err != nil {
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

func (s *parquetSource) id(c *pcol, v parquet.Value) ([]byte, error) {
	if err := s.present(c, v); err != nil {
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
// error here, on the goroutine that reads, and every later call returns it,
// as it does after a failed read; a rejected value does not stop reading
// (the row's values are all read before any is checked).
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
			s.broken = err
			return err
		}
	}
	s.left--
	s.row++
	r.line = s.row
	for i, c := range s.read {
		if s.vals[i], err = s.value(c); err != nil {
			s.broken = err
			return err
		}
	}
	return s.check(r)
}

// check converts and checks the values of the row just read.
func (s *parquetSource) check(r *row) (err error) {
	v := s.vals
	r.qid, r.doc = nil, nil
	if r.qid, err = s.id(s.qid, v[0]); err != nil {
		return err
	}
	if len(r.qid) == 0 {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.QID, Msg: "empty qid"}
	}
	if r.label, err = s.num(s.label, v[1]); err != nil {
		return err
	}
	if msg := CheckLabel(r.label); msg != "" {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.Label, Value: strconv.FormatFloat(r.label, 'g', -1, 64), Msg: msg}
	}
	if r.score, err = s.num(s.score, v[2]); err != nil {
		return err
	}
	if math.IsNaN(r.score) {
		return &ParseError{File: s.name, Line: s.row, Field: s.cols.Score, Value: "NaN", Msg: "NaN score"}
	}
	i := 3
	if s.weight != nil {
		if r.weight, err = s.num(s.weight, v[i]); err != nil {
			return err
		}
		if math.IsNaN(r.weight) {
			return &ParseError{File: s.name, Line: s.row, Field: s.cols.Weight, Value: "NaN", Msg: "NaN weight"}
		}
		i++
	}
	if s.doc != nil {
		if r.doc, err = s.id(s.doc, v[i]); err != nil {
			return err
		}
		if len(r.doc) == 0 {
			return &ParseError{File: s.name, Line: s.row, Field: s.cols.Doc, Msg: "empty document id"}
		}
	}
	return nil
}

// ParquetRows reads the rows of a Parquet file one at a time with the
// checks and messages of [NewParquetReader], for a reader that goes on
// past a rejected row (the Beam reader, which sends it to its dead
// letters).
type ParquetRows struct {
	s *parquetSource
	x row
}

// OpenParquetRows opens a Parquet file of size bytes, named name in
// errors, to read the columns cols. An error means the file cannot be
// read. A schema without a needed column, or with a column of a wrong
// type, is not an error here: [ParquetRows.SchemaError] reports it, and
// then the rows cannot be read, only counted. Closing p does not close r.
func OpenParquetRows(r io.ReaderAt, size int64, name string, cols Columns) (*ParquetRows, error) {
	s, err := openParquetSource(r, size, name, cols)
	if err != nil {
		return nil, err
	}
	return &ParquetRows{s: s}, nil
}

// SchemaError says why the schema cannot be read with the columns asked
// for, or is nil.
func (p *ParquetRows) SchemaError() error { return p.s.schemaErr }

// NumRows returns the number of rows of the file, the sum of its row
// groups', checked against the file's own count (they differ in a
// corrupt file).
func (p *ParquetRows) NumRows() (int64, error) {
	var sum int64
	for _, g := range p.s.groups {
		n := g.NumRows()
		if n < 0 || sum+n < sum {
			return 0, &ParseError{File: p.s.name, Msg: fmt.Sprintf("corrupt Parquet file: row group of %d rows", n)}
		}
		sum += n
	}
	if sum != p.s.file.NumRows() {
		return 0, &ParseError{File: p.s.name, Msg: fmt.Sprintf("corrupt Parquet file: the file says %d rows, its row groups %d", p.s.file.NumRows(), sum)}
	}
	return sum, nil
}

// HasWeights reports whether the file has a weight column.
func (p *ParquetRows) HasWeights() bool { return p.s.weight != nil }

// HasDocs reports whether the file has a doc column.
func (p *ParquetRows) HasDocs() bool { return p.s.doc != nil }

// Columns returns the names of the columns read, in the order of Values.
func (p *ParquetRows) Columns() []string {
	names := make([]string, len(p.s.read))
	for i, c := range p.s.read {
		names[i] = c.name
	}
	return names
}

// Values returns the values of the last row read, rejected or not (valid
// until the next call).
func (p *ParquetRows) Values() []parquet.Value { return p.s.vals }

// Next reads the next row into r. rowErr, a [*ParseError], says that the
// row's values are rejected; r.QID is then its qid if that was read, and
// Next may be called again for the next row. err is io.EOF after the last
// row, or the error that stops the reading (a corrupt file).
func (p *ParquetRows) Next(r *Row) (rowErr, err error) {
	x := &p.x
	e := p.s.next(x)
	r.QID, r.Doc, r.Label, r.Score, r.Weight = x.qid, x.doc, x.label, x.score, x.weight
	switch {
	case e == nil:
		return nil, nil
	case e == io.EOF || p.s.broken != nil:
		return nil, e
	}
	return e, nil
}

// Close releases the column readers.
func (p *ParquetRows) Close() error { return p.s.close() }
