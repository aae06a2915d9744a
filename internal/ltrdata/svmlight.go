package ltrdata

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// DefaultMaxFeatures is the largest feature index [Read] accepts unless
// [WithMaxFeatures] says otherwise. Features are stored densely, so an absurd
// index would otherwise allocate an absurd amount of memory.
const DefaultMaxFeatures = 1 << 16

// maxLineBytes bounds the length of one line.
const maxLineBytes = 16 << 20

// ParseError reports malformed SVMlight/LETOR input.
type ParseError struct {
	// File is the name given to the reader ("" when unknown).
	File string
	// Line is the 1-based line number.
	Line int
	// Field is the 1-based whitespace-separated field of the line, or 0 when
	// the error concerns the whole line.
	Field int
	// Text is the offending field (or line) text, shortened when long.
	Text string
	// Err is the underlying cause.
	Err error
}

// Error implements error.
func (e *ParseError) Error() string {
	file := e.File
	if file == "" {
		file = "<input>"
	}
	if e.Field == 0 {
		return fmt.Sprintf("%s:%d: %v", file, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: field %d %q: %v", file, e.Line, e.Field, e.Text, e.Err)
}

// Unwrap returns the underlying cause.
func (e *ParseError) Unwrap() error { return e.Err }

// ReadOption configures [Read] and [ReadFile].
type ReadOption func(*readConfig)

type readConfig struct {
	name        string
	numFeatures int // 0: infer from the data
	maxFeatures int
}

// WithName sets the file name used in error messages.
func WithName(name string) ReadOption { return func(c *readConfig) { c.name = name } }

// WithNumFeatures fixes the number of features: indices above n are an error
// and the dataset has exactly n features even if the highest index in the
// file is lower. Without it the dataset has as many features as the highest
// index seen. n = 0 means infer.
func WithNumFeatures(n int) ReadOption { return func(c *readConfig) { c.numFeatures = n } }

// WithMaxFeatures sets the largest feature index accepted when the number of
// features is inferred (default [DefaultMaxFeatures]).
func WithMaxFeatures(n int) ReadOption { return func(c *readConfig) { c.maxFeatures = n } }

// ReadFile reads an SVMlight/LETOR file. Errors name the file.
func ReadFile(path string, opts ...ReadOption) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ltrdata: %w", err)
	}
	defer f.Close()
	return Read(f, append([]ReadOption{WithName(path)}, opts...)...)
}

type sparseDoc struct {
	label   float64
	comment string
	idx     []int32
	val     []float64
}

type pendingQuery struct {
	id        string
	firstLine int
	docs      []sparseDoc
	comments  bool
}

// Read parses SVMlight/LETOR text (see the package documentation for the
// format). It never drops or rewrites values: every line becomes one document
// of its query, in file order, and feature values keep their full float64
// precision. Non-finite labels or feature values, duplicate feature indices,
// a missing qid and non-contiguous queries are errors of type [*ParseError].
func Read(r io.Reader, opts ...ReadOption) (*Dataset, error) {
	cfg := readConfig{maxFeatures: DefaultMaxFeatures}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.numFeatures < 0 {
		return nil, fmt.Errorf("ltrdata: WithNumFeatures(%d): want >= 0", cfg.numFeatures)
	}
	limit := cfg.maxFeatures
	if cfg.numFeatures > 0 {
		limit = cfg.numFeatures
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLineBytes)

	var (
		queries []pendingQuery
		cur     *pendingQuery
		done    = make(map[string]int) // qid -> first line of its block
		lineNo  int
		maxIdx  int
		fail    = func(field int, text string, err error) error {
			if len(text) > 64 {
				text = text[:61] + "..."
			}
			return &ParseError{File: cfg.name, Line: lineNo, Field: field, Text: text, Err: err}
		}
	)
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		body, comment, _ := strings.Cut(line, "#")
		fields := strings.Fields(body)
		if len(fields) == 0 {
			continue // blank line or comment line
		}
		if len(fields) < 2 {
			return nil, fail(0, line, errors.New("want at least a label and qid:<id>"))
		}
		label, err := parseFinite(fields[0])
		if err != nil {
			return nil, fail(1, fields[0], fmt.Errorf("label: %w", err))
		}
		id, ok := strings.CutPrefix(fields[1], "qid:")
		if !ok || id == "" {
			return nil, fail(2, fields[1], errors.New("want qid:<id>"))
		}
		doc := sparseDoc{label: label, comment: strings.TrimSpace(comment)}
		for f := 2; f < len(fields); f++ {
			is, vs, ok := strings.Cut(fields[f], ":")
			if !ok {
				return nil, fail(f+1, fields[f], errors.New("want <index>:<value>"))
			}
			idx, err := strconv.Atoi(is)
			if err != nil || idx < 1 {
				return nil, fail(f+1, fields[f], fmt.Errorf("feature index %q is not a positive integer", is))
			}
			if idx > limit {
				return nil, fail(f+1, fields[f], fmt.Errorf("feature index %d exceeds the limit of %d features", idx, limit))
			}
			v, err := parseFinite(vs)
			if err != nil {
				return nil, fail(f+1, fields[f], fmt.Errorf("feature %d: %w", idx, err))
			}
			if n := len(doc.idx); n > 0 && int(doc.idx[n-1]) >= idx {
				// Out of order: the usual files are sorted, so only then scan.
				for k, prev := range doc.idx {
					if int(prev) == idx {
						return nil, fail(f+1, fields[f], fmt.Errorf("feature %d repeats field %d", idx, k+3))
					}
				}
			}
			doc.idx = append(doc.idx, int32(idx))
			doc.val = append(doc.val, v)
			maxIdx = max(maxIdx, idx)
		}
		if cur == nil || cur.id != id {
			if first, ok := done[id]; ok {
				return nil, fail(2, fields[1], fmt.Errorf("qid %s appears again after other queries (its block started at line %d); lines of a query must be contiguous", id, first))
			}
			if cur != nil {
				done[cur.id] = cur.firstLine
			}
			queries = append(queries, pendingQuery{id: id, firstLine: lineNo})
			cur = &queries[len(queries)-1]
		}
		cur.docs = append(cur.docs, doc)
		cur.comments = cur.comments || doc.comment != ""
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: cfg.name, Line: lineNo + 1, Err: fmt.Errorf("reading: %w", err)}
	}

	n := maxIdx
	if cfg.numFeatures > 0 {
		n = cfg.numFeatures
	}
	ds := &Dataset{NumFeatures: n, Queries: make([]Query, len(queries))}
	for qi := range queries {
		p := &queries[qi]
		q := Query{ID: p.id, Labels: make([]float64, len(p.docs)), Features: make([]float64, len(p.docs)*n)}
		if p.comments {
			q.Comments = make([]string, len(p.docs))
		}
		for i, d := range p.docs {
			q.Labels[i] = d.label
			row := q.Features[i*n : (i+1)*n]
			for k, idx := range d.idx {
				row[idx-1] = d.val[k]
			}
			if p.comments {
				q.Comments[i] = d.comment
			}
		}
		ds.Queries[qi] = q
	}
	return ds, nil
}

func parseFinite(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("not a number: %w", err)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("value %v is not finite", v)
	}
	return v, nil
}

// Write writes d in SVMlight/LETOR format, one line per document with every
// feature written out (as LETOR files do) and the comment, if any, after
// " #". Numbers use the shortest representation that reads back to the same
// float64, so [Read] of the output gives back d exactly. d is validated first
// (see [Dataset.Validate]).
func Write(w io.Writer, d *Dataset) error {
	if err := d.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 64)
	for qi := range d.Queries {
		q := &d.Queries[qi]
		for i := range q.Len() {
			buf = strconv.AppendFloat(buf[:0], q.Labels[i], 'g', -1, 64)
			buf = append(buf, " qid:"...)
			buf = append(buf, q.ID...)
			for j, v := range q.Doc(i, d.NumFeatures) {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(j+1), 10)
				buf = append(buf, ':')
				buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			}
			if q.Comments != nil && q.Comments[i] != "" {
				buf = append(buf, " # "...)
				buf = append(buf, q.Comments[i]...)
			}
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("ltrdata: writing query %s: %w", q.ID, err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("ltrdata: writing: %w", err)
	}
	return nil
}

// WriteFile writes d to path in SVMlight/LETOR format (see [Write]).
func WriteFile(path string, d *Dataset) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("ltrdata: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("ltrdata: %w", cerr)
		}
	}()
	return Write(f, d)
}
