package runio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// delimSource reads TSV or CSV with a header row.
type delimSource struct {
	DelimParser
	lr     *lineReader
	closer io.Closer
	noFast bool // tests: always take the general path
}

// DelimParser cuts the lines of a TSV or CSV file into fields and parses
// a data line into a [Row], by the columns its header names: the one
// parser of delimited lines, which runio's reader runs over a stream and
// the Beam reader over the lines of a byte range.
type DelimParser struct {
	name   string
	line   int64 // the line in errors (0: none)
	delim  byte
	quoted bool // CSV: fields may be quoted with '"'
	cols   Columns
	names  []string
	ncols  int
	iQID   int
	iLabel int
	iScore int
	iW     int // -1 when absent
	iDoc   int // -1 when absent
	fields [][]byte
	unq    []byte
	roles  []colRole // role of each column, for the fast path
	layout string    // where the columns come from, for messages
}

// Row is one data row as a [DelimParser] or [ParquetRows] parses it. QID
// and Doc point into the parser's buffers (or the line) and are valid
// until the next call. Doc is nil without a doc column, and Weight 0
// without a weight column.
type Row struct {
	QID, Doc             []byte
	Label, Score, Weight float64
}

// colRole is what a column holds.
type colRole uint8

const (
	roleOther colRole = iota
	roleQID
	roleLabel
	roleScore
	roleWeight
	roleDoc
)

// NewDelimitedReader returns a Reader over TSV (delim '\t') or CSV
// (delim ',', with RFC 4180 quoting on single lines) input with a header.
func NewDelimitedReader(ctx context.Context, r io.Reader, name string, delim byte, opts Options) (Reader, error) {
	src, err := newDelimSource(r, name, delim, delim == ',', opts)
	if err != nil {
		return nil, err
	}
	return newStreamReader(ctx, src, name, opts), nil
}

func newDelimSource(r io.Reader, name string, delim byte, quoted bool, opts Options) (*delimSource, error) {
	s := &delimSource{lr: newLineReader(r, name, &opts)}
	if c, ok := r.(io.Closer); ok {
		s.closer = c
	}
	var hdr []byte
	if len(opts.Positions) == 0 {
		var err error
		if hdr, err = s.lr.next(); err == io.EOF {
			return nil, &ParseError{File: name, Msg: "empty input: no header line"}
		} else if err != nil {
			return nil, err
		}
	}
	if err := s.init(hdr, name, s.lr.line, delim, quoted, opts.Columns, opts.Positions); err != nil {
		return nil, err
	}
	return s, nil
}

// NewDelimParser returns the parser of a TSV (delim '\t') or CSV (delim
// ',', with RFC 4180 quoting within a line) file named name in errors,
// whose header line is header (its line number headerLine, 0 if unknown),
// with the columns cols, as [NewDelimitedReader] reads it.
func NewDelimParser(header []byte, name string, headerLine int64, delim byte, cols Columns) (*DelimParser, error) {
	p := &DelimParser{}
	if err := p.init(header, name, headerLine, delim, delim == ',', cols, nil); err != nil {
		return nil, err
	}
	return p, nil
}

// NewHeaderlessDelimParser returns the parser of a TSV or CSV file without
// a header line, whose columns are given in order by positions (see
// [ParsePositions]), as [NewDelimitedReader] reads it with
// [Options.Positions].
func NewHeaderlessDelimParser(name string, delim byte, positions []string) (*DelimParser, error) {
	if len(positions) == 0 {
		return nil, errors.New("runio: a headerless file needs its columns in order")
	}
	p := &DelimParser{}
	if err := p.init(nil, name, 0, delim, delim == ',', Columns{}, positions); err != nil {
		return nil, err
	}
	return p, nil
}

// init reads the header line hdr, or the columns given in order by
// positions (then hdr is unused).
func (p *DelimParser) init(hdr []byte, name string, line int64, delim byte, quoted bool, columns Columns, positions []string) error {
	cols, wReq, dReq := columns.WithDefaults()
	*p = DelimParser{name: name, line: line, delim: delim, quoted: quoted, cols: cols}
	if len(positions) > 0 {
		// No header: the columns are given in order, under the default
		// names, which the errors then use.
		p.cols, wReq, dReq = DefaultColumns, false, false
		cols = p.cols
		p.names = positions
		p.layout = "given by --columns"
		p.ncols = len(p.names)
		hdr = []byte(strings.Join(p.names, string(delim)))
	} else {
		hdr = bytes.TrimPrefix(hdr, []byte("\xef\xbb\xbf"))
		fields, err := p.split(hdr)
		if err != nil {
			return err
		}
		p.layout = "in the header"
		p.ncols = len(fields)
		p.names = make([]string, len(fields))
		for i, f := range fields {
			p.names[i] = string(f)
		}
	}

	find := func(want string, required bool) (int, error) {
		at := -1
		for i, n := range p.names {
			if n == want {
				if at >= 0 {
					return -1, &ParseError{File: name, Line: line, Field: "header", Value: want, Msg: "column appears twice"}
				}
				at = i
			}
		}
		if at < 0 && required {
			return -1, &ParseError{File: name, Line: line, Field: "header", Value: clip(hdr),
				Msg: fmt.Sprintf("no column named %q (the first line must be a header naming the columns; for a file without one, give them in order with --columns, as in --columns qid,doc,label,score)", want)}
		}
		return at, nil
	}
	var err error
	if p.iQID, err = find(cols.QID, true); err != nil {
		return err
	}
	if p.iLabel, err = find(cols.Label, true); err != nil {
		return err
	}
	if p.iScore, err = find(cols.Score, true); err != nil {
		return err
	}
	if p.iW, err = find(cols.Weight, wReq); err != nil {
		return err
	}
	if p.iDoc, err = find(cols.Doc, dReq); err != nil {
		return err
	}
	p.roles = make([]colRole, p.ncols)
	for role, i := range map[colRole]int{roleQID: p.iQID, roleLabel: p.iLabel, roleScore: p.iScore, roleWeight: p.iW, roleDoc: p.iDoc} {
		if i >= 0 {
			p.roles[i] = role
		}
	}
	return nil
}

// HasWeights reports whether the file has a weight column.
func (p *DelimParser) HasWeights() bool { return p.iW >= 0 }

// HasDocs reports whether the file has a doc column.
func (p *DelimParser) HasDocs() bool { return p.iDoc >= 0 }

// Columns returns the column names read, defaults filled in.
func (p *DelimParser) Columns() Columns { return p.cols }

// QIDField returns the qid field of line b, or false when b cannot be
// split or has too few fields: for a report of a line that [Parse]
// rejects. It reuses the buffers of Parse.
func (p *DelimParser) QIDField(b []byte) ([]byte, bool) {
	f, err := p.split(b)
	if err != nil || len(f) <= p.iQID {
		return nil, false
	}
	return f[p.iQID], true
}

// IsQIDLast reports whether the qid column is the last one a line may
// hold (a line cut short may end inside it).
func (p *DelimParser) IsQIDLast(b []byte) bool {
	f, err := p.split(b)
	return err == nil && len(f) == p.iQID+1
}

// Parse parses the data line b (without its line terminator) into r, or
// returns a [*ParseError] (at line, 0 if unknown) saying why it cannot.
func (p *DelimParser) Parse(b []byte, line int64, r *Row) error {
	var x row
	p.line = line
	err := p.parse(b, &x)
	r.QID, r.Doc, r.Label, r.Score, r.Weight = x.qid, x.doc, x.label, x.score, x.weight
	return err
}

func (s *delimSource) hasWeights() bool  { return s.iW >= 0 }
func (s *delimSource) hasDocs() bool     { return s.iDoc >= 0 }
func (s *delimSource) docField() string  { return s.cols.Doc }
func (s *delimSource) blankLines() int64 { return s.lr.blank }
func (s *delimSource) close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// split cuts a line into fields (valid until the next call).
func (s *DelimParser) split(b []byte) ([][]byte, error) {
	f := s.fields[:0]
	if s.quoted && bytes.IndexByte(b, '"') >= 0 {
		return s.splitQuoted(b)
	}
	// Fields are short: a plain loop beats a call to bytes.IndexByte each.
	d := s.delim
	start := 0
	for i, c := range b {
		if c == d {
			f = append(f, b[start:i])
			start = i + 1
		}
	}
	f = append(f, b[start:])
	s.fields = f
	return f, nil
}

// splitQuoted handles RFC 4180 quoting within one line.
func (s *DelimParser) splitQuoted(b []byte) ([][]byte, error) {
	f := s.fields[:0]
	s.unq = s.unq[:0]
	type span struct{ a, b int }
	var spans []span
	i := 0
	for {
		if i < len(b) && b[i] == '"' {
			start := len(s.unq)
			i++
			for {
				j := bytes.IndexByte(b[i:], '"')
				if j < 0 {
					return nil, &ParseError{File: s.name, Line: s.line, Value: clip(b), Msg: "unterminated quoted field (quoted fields cannot span lines)"}
				}
				s.unq = append(s.unq, b[i:i+j]...)
				i += j + 1
				if i < len(b) && b[i] == '"' {
					s.unq = append(s.unq, '"')
					i++
					continue
				}
				break
			}
			spans = append(spans, span{start, len(s.unq)})
			if i == len(b) {
				break
			}
			if b[i] != s.delim {
				return nil, &ParseError{File: s.name, Line: s.line, Value: clip(b), Msg: fmt.Sprintf("unexpected %q after a closing quote", b[i])}
			}
			i++
			if i == len(b) {
				spans = append(spans, span{len(s.unq), len(s.unq)})
				break
			}
			continue
		}
		j := bytes.IndexByte(b[i:], s.delim)
		end := len(b)
		if j >= 0 {
			end = i + j
		}
		if q := bytes.IndexByte(b[i:end], '"'); q >= 0 {
			return nil, &ParseError{File: s.name, Line: s.line, Value: clip(b), Msg: "a quote inside an unquoted field"}
		}
		start := len(s.unq)
		s.unq = append(s.unq, b[i:end]...)
		spans = append(spans, span{start, len(s.unq)})
		if j < 0 {
			break
		}
		i = end + 1
		if i == len(b) {
			spans = append(spans, span{len(s.unq), len(s.unq)})
			break
		}
	}
	for _, sp := range spans {
		f = append(f, s.unq[sp.a:sp.b])
	}
	s.fields = f
	return f, nil
}

// fast parses the next line straight from the line reader's window in one
// pass, when it is plain: no quote, no "\r", ids non-empty, numbers in the
// exact decimal form of parseFastPrefix, and the whole line in the window.
// It reports false, consuming nothing, for any other line, which next then
// parses the general way (giving the same values, or the error).
func (s *delimSource) fast(r *row) bool {
	l := s.lr
	w := l.win[l.pos:]
	d := s.delim
	i := 0
	last := len(s.roles) - 1
	for col, role := range s.roles {
		start := i
		switch role {
		case roleLabel, roleScore, roleWeight:
			var v float64
			if c := w[i:min(i+2, len(w))]; len(c) == 2 && c[0]-'0' <= 9 && (c[1] == d || c[1] == '\n') {
				v = float64(c[0] - '0') // a one-digit label, the commonest field
				i++
			} else {
				f, n, ok := parseFastPrefix(w[i:])
				if !ok {
					return false
				}
				v = f
				i += n
			}
			switch role {
			case roleLabel:
				r.label = v
			case roleScore:
				r.score = v
			default:
				r.weight = v
			}
		default:
			for i < len(w) {
				c := w[i]
				if c == d || c == '\n' || c == '\r' || c == '"' {
					break
				}
				i++
			}
			switch role {
			case roleQID:
				if i == start {
					return false
				}
				r.qid = w[start:i]
			case roleDoc:
				if i == start {
					return false
				}
				r.doc = w[start:i]
			}
		}
		if i >= len(w) {
			return false
		}
		if col < last {
			if w[i] != d {
				return false
			}
		} else if w[i] != '\n' {
			return false
		}
		i++
	}
	if i-1 > l.max { // over the line limit: the general path reports it
		return false
	}
	l.pos += i
	l.line++
	r.line = l.line
	return true
}

func (s *delimSource) next(r *row) error {
	if !s.noFast && s.fast(r) {
		return nil
	}
	b, err := s.lr.next()
	if err != nil {
		return err
	}
	s.line = s.lr.line
	r.line = s.lr.line
	return s.parse(b, r)
}

// parse parses data line b into r; errors are at line s.line.
func (s *DelimParser) parse(b []byte, r *row) error {
	f, err := s.split(b)
	if err != nil {
		return err
	}
	if len(f) != s.ncols {
		return &ParseError{File: s.name, Line: s.line, Value: clip(b),
			Msg: fmt.Sprintf("expected %d fields as %s, found %d", s.ncols, s.layout, len(f))}
	}
	r.qid = f[s.iQID]
	if len(r.qid) == 0 {
		return s.fieldErr(s.cols.QID, r.qid, "empty qid")
	}
	var msg string
	if r.label, msg = ParseLabel(f[s.iLabel]); msg != "" {
		return s.fieldErr(s.cols.Label, f[s.iLabel], msg)
	}
	if r.score, msg = ParseScore(f[s.iScore]); msg != "" {
		return s.fieldErr(s.cols.Score, f[s.iScore], msg)
	}
	r.weight = 0
	if s.iW >= 0 {
		var ok bool
		if r.weight, ok = parseFloat(f[s.iW]); !ok {
			return s.fieldErr(s.cols.Weight, f[s.iW], "not a number")
		}
		if math.IsNaN(r.weight) {
			return s.fieldErr(s.cols.Weight, f[s.iW], "NaN weight")
		}
	}
	r.doc = nil
	if s.iDoc >= 0 {
		r.doc = f[s.iDoc]
		if len(r.doc) == 0 {
			return s.fieldErr(s.cols.Doc, r.doc, "empty document id")
		}
	}
	return nil
}

func (s *DelimParser) fieldErr(field string, v []byte, msg string) error {
	return &ParseError{File: s.name, Line: s.line, Field: field, Value: clip(v), Msg: msg}
}
