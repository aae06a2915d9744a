package runio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// Writer writes queries in one of the formats Reader reads, so that data
// can be converted and tests can round-trip every format.
type Writer interface {
	// WriteQuery writes one query.
	WriteQuery(q *Query) error
	// Close flushes buffered data; it does not close the underlying
	// io.Writers.
	Close() error
}

// appendNum formats v so that parsing it gives back the same float64.
func appendNum(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

func checkQuery(q *Query, needDocs bool) error {
	n := len(q.Scores)
	if len(q.Labels) != n {
		return fmt.Errorf("query %q: %d labels for %d scores", q.QID, len(q.Labels), n)
	}
	if q.Weights != nil && len(q.Weights) != n {
		return fmt.Errorf("query %q: %d weights for %d scores", q.QID, len(q.Weights), n)
	}
	if needDocs && len(q.Docs) != n {
		return fmt.Errorf("query %q: %d document ids for %d scores", q.QID, len(q.Docs), n)
	}
	if q.QID == "" {
		return errors.New("empty qid")
	}
	for i, s := range q.Scores {
		if math.IsNaN(s) {
			return fmt.Errorf("query %q: item %d: NaN score", q.QID, i)
		}
	}
	return nil
}

// DelimitedWriter writes TSV or CSV with a header.
type DelimitedWriter struct {
	w         *bufio.Writer
	delim     byte
	cols      Columns
	withW     bool
	withD     bool
	buf       []byte
	wroteHead bool
}

// NewDelimitedWriter returns a writer of TSV (delim '\t') or CSV (',') with
// the given columns; the weight and doc columns are written when withWeights
// and withDocs are set. Values containing the delimiter, a quote or a line
// break are rejected for TSV and quoted for CSV.
func NewDelimitedWriter(w io.Writer, delim byte, cols Columns, withWeights, withDocs bool) *DelimitedWriter {
	c, _, _ := cols.WithDefaults()
	return &DelimitedWriter{w: bufio.NewWriterSize(w, 1<<20), delim: delim, cols: c, withW: withWeights, withD: withDocs}
}

func (d *DelimitedWriter) field(b []byte, s string) ([]byte, error) {
	if strings.ContainsAny(s, "\"\r\n"+string(d.delim)) {
		if d.delim == '\t' {
			return nil, fmt.Errorf("value %q cannot be written to TSV", s)
		}
		if strings.ContainsAny(s, "\r\n") {
			return nil, fmt.Errorf("value %q has a line break", s)
		}
		b = append(b, '"')
		b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
		return append(b, '"'), nil
	}
	return append(b, s...), nil
}

func (d *DelimitedWriter) header() error {
	names := []string{d.cols.QID}
	if d.withD {
		names = append(names, d.cols.Doc)
	}
	names = append(names, d.cols.Label, d.cols.Score)
	if d.withW {
		names = append(names, d.cols.Weight)
	}
	b := d.buf[:0]
	var err error
	for i, n := range names {
		if i > 0 {
			b = append(b, d.delim)
		}
		if b, err = d.field(b, n); err != nil {
			return err
		}
	}
	b = append(b, '\n')
	d.buf = b
	_, err = d.w.Write(b)
	d.wroteHead = true
	return err
}

// WriteQuery writes one line per item.
func (d *DelimitedWriter) WriteQuery(q *Query) error {
	if !d.wroteHead {
		if err := d.header(); err != nil {
			return err
		}
	}
	if err := checkQuery(q, d.withD); err != nil {
		return err
	}
	if d.withW && q.Weights == nil {
		return fmt.Errorf("query %q has no weights", q.QID)
	}
	qid, err := d.field(nil, q.QID)
	if err != nil {
		return err
	}
	for i := range q.Scores {
		b := append(d.buf[:0], qid...)
		if d.withD {
			b = append(b, d.delim)
			if b, err = d.field(b, q.Docs[i]); err != nil {
				return err
			}
		}
		b = append(b, d.delim)
		b = appendNum(b, q.Labels[i])
		b = append(b, d.delim)
		b = appendNum(b, q.Scores[i])
		if d.withW {
			b = append(b, d.delim)
			b = appendNum(b, q.Weights[i])
		}
		b = append(b, '\n')
		d.buf = b
		if _, err := d.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Close writes the header if nothing was written, and flushes.
func (d *DelimitedWriter) Close() error {
	if !d.wroteHead {
		if err := d.header(); err != nil {
			return err
		}
	}
	return d.w.Flush()
}

// JSONLWriter writes JSON Lines, one item or one list per line.
type JSONLWriter struct {
	w     *bufio.Writer
	cols  Columns
	lists bool
	buf   []byte
}

// NewJSONLWriter returns a JSON Lines writer: one list per line when lists
// is set, else one item per line. Weights and docs are written when the
// query has them. Infinite scores are written as Infinity and -Infinity,
// as Python's json module does.
func NewJSONLWriter(w io.Writer, cols Columns, lists bool) *JSONLWriter {
	c, _, _ := cols.WithDefaults()
	return &JSONLWriter{w: bufio.NewWriterSize(w, 1<<20), cols: c, lists: lists}
}

func appendJSONNum(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "Infinity"...)
	case math.IsInf(v, -1):
		return append(b, "-Infinity"...)
	}
	return appendNum(b, v)
}

// WriteQuery writes the query.
func (j *JSONLWriter) WriteQuery(q *Query) error {
	if err := checkQuery(q, false); err != nil {
		return err
	}
	withD := len(q.Docs) > 0 || (q.Docs != nil && len(q.Scores) == 0)
	if withD && len(q.Docs) != len(q.Scores) {
		return fmt.Errorf("query %q: %d document ids for %d scores", q.QID, len(q.Docs), len(q.Scores))
	}
	key := func(b []byte, k string) []byte {
		b = strconv.AppendQuote(b, k)
		return append(b, ':')
	}
	str := func(b []byte, s string) []byte { return appendJSONString(b, s) }
	if j.lists {
		b := append(j.buf[:0], '{')
		b = key(b, j.cols.QID)
		b = str(b, q.QID)
		arr := func(b []byte, name string, v []float64) []byte {
			b = append(b, ',')
			b = key(b, name)
			b = append(b, '[')
			for i, x := range v {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendJSONNum(b, x)
			}
			return append(b, ']')
		}
		if withD {
			b = append(b, ',')
			b = key(b, j.cols.Doc+"s")
			b = append(b, '[')
			for i, d := range q.Docs {
				if i > 0 {
					b = append(b, ',')
				}
				b = str(b, d)
			}
			b = append(b, ']')
		}
		b = arr(b, j.cols.Label+"s", q.Labels)
		b = arr(b, j.cols.Score+"s", q.Scores)
		if q.Weights != nil {
			b = arr(b, j.cols.Weight+"s", q.Weights)
		}
		b = append(b, "}\n"...)
		j.buf = b
		_, err := j.w.Write(b)
		return err
	}
	for i := range q.Scores {
		b := append(j.buf[:0], '{')
		b = key(b, j.cols.QID)
		b = str(b, q.QID)
		if withD {
			b = append(b, ',')
			b = key(b, j.cols.Doc)
			b = str(b, q.Docs[i])
		}
		b = append(b, ',')
		b = key(b, j.cols.Label)
		b = appendJSONNum(b, q.Labels[i])
		b = append(b, ',')
		b = key(b, j.cols.Score)
		b = appendJSONNum(b, q.Scores[i])
		if q.Weights != nil {
			b = append(b, ',')
			b = key(b, j.cols.Weight)
			b = appendJSONNum(b, q.Weights[i])
		}
		b = append(b, "}\n"...)
		j.buf = b
		if _, err := j.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// Close flushes.
func (j *JSONLWriter) Close() error { return j.w.Flush() }

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// TRECWriter writes a qrels file and a run file.
type TRECWriter struct {
	qrels *bufio.Writer
	run   *bufio.Writer
	tag   string
	buf   []byte
}

// NewTRECWriter returns a writer of qrels and run lines. Each query's items
// are written to the run in the given order with ranks 1, 2, ...; every
// item and every unranked judgment is written to the qrels. Queries need
// document ids. trec_eval reads labels as integers, so write integral
// labels for it.
func NewTRECWriter(qrels, run io.Writer, tag string) *TRECWriter {
	return &TRECWriter{qrels: bufio.NewWriterSize(qrels, 1<<20), run: bufio.NewWriterSize(run, 1<<20), tag: tag}
}

func validTRECToken(s string) error {
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("TREC field %q is empty or has white space", s)
	}
	return nil
}

// WriteQuery writes the query's run lines (unless Match is
// MatchQrelsOnly) and its qrels lines (unless Match is MatchRunOnly).
func (t *TRECWriter) WriteQuery(q *Query) error {
	if err := checkQuery(q, true); err != nil {
		return err
	}
	if err := validTRECToken(q.QID); err != nil {
		return err
	}
	if len(q.UnrankedDocs) != len(q.UnrankedLabels) {
		return fmt.Errorf("query %q: %d unranked document ids for %d labels", q.QID, len(q.UnrankedDocs), len(q.UnrankedLabels))
	}
	for _, d := range q.Docs {
		if err := validTRECToken(d); err != nil {
			return err
		}
	}
	if q.Match != MatchRunOnly {
		for i, d := range q.Docs {
			if err := t.qrel(q.QID, d, q.Labels[i]); err != nil {
				return err
			}
		}
		for i, d := range q.UnrankedDocs {
			if err := validTRECToken(d); err != nil {
				return err
			}
			if err := t.qrel(q.QID, d, q.UnrankedLabels[i]); err != nil {
				return err
			}
		}
	}
	if q.Match != MatchQrelsOnly {
		for i, d := range q.Docs {
			b := append(t.buf[:0], q.QID...)
			b = append(b, " Q0 "...)
			b = append(b, d...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, int64(i+1), 10)
			b = append(b, ' ')
			b = appendNum(b, q.Scores[i])
			b = append(b, ' ')
			b = append(b, t.tag...)
			b = append(b, '\n')
			t.buf = b
			if _, err := t.run.Write(b); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *TRECWriter) qrel(qid, doc string, label float64) error {
	b := append(t.buf[:0], qid...)
	b = append(b, " 0 "...)
	b = append(b, doc...)
	b = append(b, ' ')
	b = appendNum(b, label)
	b = append(b, '\n')
	t.buf = b
	_, err := t.qrels.Write(b)
	return err
}

// Close flushes both files.
func (t *TRECWriter) Close() error {
	return errors.Join(t.qrels.Flush(), t.run.Flush())
}

// ParquetWriter writes a Parquet file with a string qid column, an optional
// string doc column and DOUBLE label, score and optional weight columns.
type ParquetWriter struct {
	w      *parquet.GenericWriter[any]
	withW  bool
	withD  bool
	idx    map[string]int
	rows   []parquet.Row
	ncols  int
	closed bool
}

// NewParquetWriter returns a Parquet writer with the given columns.
func NewParquetWriter(w io.Writer, cols Columns, withWeights, withDocs bool) *ParquetWriter {
	c, _, _ := cols.WithDefaults()
	g := parquet.Group{
		c.QID:   parquet.String(),
		c.Label: parquet.Leaf(parquet.DoubleType),
		c.Score: parquet.Leaf(parquet.DoubleType),
	}
	if withWeights {
		g[c.Weight] = parquet.Leaf(parquet.DoubleType)
	}
	if withDocs {
		g[c.Doc] = parquet.String()
	}
	schema := parquet.NewSchema("ranking", g)
	p := &ParquetWriter{w: parquet.NewGenericWriter[any](w, schema), withW: withWeights, withD: withDocs, idx: map[string]int{}}
	for _, name := range []string{"qid", "label", "score", "weight", "doc"} {
		col := map[string]string{"qid": c.QID, "label": c.Label, "score": c.Score, "weight": c.Weight, "doc": c.Doc}[name]
		if leaf, ok := schema.Lookup(col); ok {
			p.idx[name] = leaf.ColumnIndex
			p.ncols++
		}
	}
	return p
}

// WriteQuery writes one row per item.
func (p *ParquetWriter) WriteQuery(q *Query) error {
	if err := checkQuery(q, p.withD); err != nil {
		return err
	}
	if p.withW && q.Weights == nil {
		return fmt.Errorf("query %q has no weights", q.QID)
	}
	p.rows = p.rows[:0]
	for i := range q.Scores {
		r := make(parquet.Row, p.ncols)
		r[p.idx["qid"]] = parquet.ByteArrayValue([]byte(q.QID)).Level(0, 0, p.idx["qid"])
		r[p.idx["label"]] = parquet.DoubleValue(q.Labels[i]).Level(0, 0, p.idx["label"])
		r[p.idx["score"]] = parquet.DoubleValue(q.Scores[i]).Level(0, 0, p.idx["score"])
		if p.withW {
			r[p.idx["weight"]] = parquet.DoubleValue(q.Weights[i]).Level(0, 0, p.idx["weight"])
		}
		if p.withD {
			r[p.idx["doc"]] = parquet.ByteArrayValue([]byte(q.Docs[i])).Level(0, 0, p.idx["doc"])
		}
		p.rows = append(p.rows, r)
	}
	_, err := p.w.WriteRows(p.rows)
	return err
}

// Close writes the file footer.
func (p *ParquetWriter) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	return p.w.Close()
}
