package runio

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonlSource reads JSON Lines: one item or one list per line.
//
// It keeps its own scanner rather than github.com/go-json-experiment/json's
// jsontext, which issue 10 suggested: jsontext rejects the NaN, Infinity and
// -Infinity literals that Python's json module writes (and ±Inf scores are
// legal), and in a same-run benchmark (medians of 8 interleaved runs) its
// token reader alone took 2.0x the time per item of this whole reader on
// one-list-per-line input (452 vs 224 ns/item; the reader is the critical
// path of eval there), and 1.35x on one item per line although it did none
// of the grouping and duplicate checks: over the 1.5x bound on lists.
type jsonlSource struct {
	lr     *lineReader
	cols   Columns
	plural Columns
	closer io.Closer

	withW bool
	withD bool

	// The current line's items.
	qid     []byte
	docs    [][]byte
	labels  []float64
	scores  []float64
	weights []float64
	pos     int
	line    int64
	primed  bool // the first line was parsed by the constructor

	sc     jscan
	strBuf []byte // unescaped strings of the line
	spans  [][2]int
}

// NewJSONLReader returns a Reader over JSON Lines input. The first line
// decides whether the input has weights and document ids; every other line
// must then have them too.
func NewJSONLReader(ctx context.Context, r io.Reader, name string, opts Options) (Reader, error) {
	src, err := newJSONLSource(r, name, opts)
	if err != nil {
		return nil, err
	}
	return newStreamReader(ctx, src, name, opts), nil
}

func newJSONLSource(r io.Reader, name string, opts Options) (*jsonlSource, error) {
	cols, wReq, dReq := opts.Columns.WithDefaults()
	s := &jsonlSource{lr: newLineReader(r, name, &opts), cols: cols}
	s.plural = Columns{QID: cols.QID, Label: cols.Label + "s", Score: cols.Score + "s", Weight: cols.Weight + "s", Doc: cols.Doc + "s"}
	if c, ok := r.(io.Closer); ok {
		s.closer = c
	}
	err := s.readLine(true)
	if err == io.EOF {
		s.primed = false
		s.pos = 0
		s.labels = s.labels[:0]
		s.withW, s.withD = wReq, dReq
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	if wReq && !s.withW {
		return nil, &ParseError{File: name, Line: s.line, Field: cols.Weight, NoValue: true, Msg: "missing weight"}
	}
	if dReq && !s.withD {
		return nil, &ParseError{File: name, Line: s.line, Field: cols.Doc, NoValue: true, Msg: "missing document id"}
	}
	s.primed = true
	return s, nil
}

func (s *jsonlSource) hasWeights() bool  { return s.withW }
func (s *jsonlSource) hasDocs() bool     { return s.withD }
func (s *jsonlSource) docField() string  { return s.cols.Doc }
func (s *jsonlSource) blankLines() int64 { return s.lr.blank }
func (s *jsonlSource) close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

func (s *jsonlSource) next(r *row) error {
	for s.pos >= len(s.labels) {
		if s.primed {
			s.primed = false
		} else if err := s.readLine(false); err != nil {
			return err
		}
	}
	i := s.pos
	s.pos++
	r.qid = s.qid
	r.label = s.labels[i]
	r.score = s.scores[i]
	if s.withW {
		r.weight = s.weights[i]
	}
	if s.withD {
		r.doc = s.docs[i]
	}
	r.line = s.line
	return nil
}

func (s *jsonlSource) errAt(field, value, msg string) error {
	return &ParseError{File: s.lr.name, Line: s.lr.line, Field: field, Value: value, Msg: msg}
}

// errField reports a problem with a field as a whole (no single value).
func (s *jsonlSource) errField(field, msg string) error {
	return &ParseError{File: s.lr.name, Line: s.lr.line, Field: field, NoValue: true, Msg: msg}
}

// readLine parses the next line into the item arrays. With first set, it
// decides whether weights and docs are present.
func (s *jsonlSource) readLine(first bool) error {
	b, err := s.lr.next()
	if err != nil {
		return err
	}
	s.line = s.lr.line
	s.pos = 0
	s.labels, s.scores, s.weights, s.docs = s.labels[:0], s.scores[:0], s.weights[:0], s.docs[:0]
	s.strBuf = s.strBuf[:0]
	s.spans = s.spans[:0]
	s.qid = nil
	sc := &s.sc
	sc.b, sc.i = b, 0
	var seen [9]bool // qid label score weight doc labels scores weights docs
	var qidSpan [2]int
	var docSpan [2]int
	single := [3]float64{}
	sc.ws()
	if !sc.eat('{') {
		return s.errAt("", clip(b), "expected a JSON object")
	}
	sc.ws()
	if !sc.eat('}') {
		for {
			sc.ws()
			key, err := s.str()
			if err != nil {
				return err
			}
			sc.ws()
			if !sc.eat(':') {
				return s.syntax(b)
			}
			sc.ws()
			k := s.keyIndex(key)
			if k >= 0 {
				if seen[k] {
					return s.errField(string(key), "key appears twice")
				}
				seen[k] = true
			}
			switch k {
			case 0:
				if qidSpan, err = s.idValue(s.cols.QID); err != nil {
					return err
				}
			case 4:
				if docSpan, err = s.idValue(s.cols.Doc); err != nil {
					return err
				}
			case 1, 2, 3:
				name := [...]string{1: s.cols.Label, 2: s.cols.Score, 3: s.cols.Weight}[k]
				if single[k-1], err = s.number(name, k == 1); err != nil {
					return err
				}
			case 5, 6, 7:
				name := [...]string{5: s.plural.Label, 6: s.plural.Score, 7: s.plural.Weight}[k]
				dst := [...]*[]float64{5: &s.labels, 6: &s.scores, 7: &s.weights}[k]
				if err := s.numberArray(name, dst, k == 5); err != nil {
					return err
				}
			case 8:
				if err := s.idArray(); err != nil {
					return err
				}
			default:
				if err := sc.skip(); err != nil {
					return s.syntax(b)
				}
			}
			sc.ws()
			if sc.eat(',') {
				continue
			}
			if sc.eat('}') {
				break
			}
			return s.syntax(b)
		}
	}
	sc.ws()
	if sc.i != len(b) {
		return s.syntax(b)
	}
	if !seen[0] {
		return s.errField(s.cols.QID, "missing qid")
	}
	s.qid = s.strBuf[qidSpan[0]:qidSpan[1]]
	if len(s.qid) == 0 {
		return s.errAt(s.cols.QID, "", "empty qid")
	}
	isList := seen[5] || seen[6] || seen[7] || seen[8]
	isItem := seen[1] || seen[2] || seen[3] || seen[4]
	if isList && isItem {
		return s.errAt("", clip(b), fmt.Sprintf("mixes item keys (%s, %s) and list keys (%s, %s)", s.cols.Label, s.cols.Score, s.plural.Label, s.plural.Score))
	}
	var hasW, hasD bool
	if isList {
		if !seen[5] {
			return s.errField(s.plural.Label, "missing labels")
		}
		if !seen[6] {
			return s.errField(s.plural.Score, "missing scores")
		}
		n := len(s.labels)
		if n == 0 {
			return s.errAt(s.plural.Label, "[]", "empty list")
		}
		if len(s.scores) != n {
			return s.errField(s.plural.Score, fmt.Sprintf("%d scores for %d labels", len(s.scores), n))
		}
		hasW, hasD = seen[7], seen[8]
		if hasW && len(s.weights) != n {
			return s.errField(s.plural.Weight, fmt.Sprintf("%d weights for %d labels", len(s.weights), n))
		}
		if hasD && len(s.spans) != n {
			return s.errField(s.plural.Doc, fmt.Sprintf("%d document ids for %d labels", len(s.spans), n))
		}
		for i, sc := range s.scores {
			if math.IsNaN(sc) {
				return s.errAt(fmt.Sprintf("%s[%d]", s.plural.Score, i), "NaN", "NaN score")
			}
		}
		for i, w := range s.weights {
			if math.IsNaN(w) {
				return s.errAt(fmt.Sprintf("%s[%d]", s.plural.Weight, i), "NaN", "NaN weight")
			}
		}
	} else {
		if !seen[1] {
			return s.errField(s.cols.Label, "missing label")
		}
		if !seen[2] {
			return s.errField(s.cols.Score, "missing score")
		}
		if math.IsNaN(single[1]) {
			return s.errAt(s.cols.Score, "NaN", "NaN score")
		}
		if math.IsNaN(single[2]) {
			return s.errAt(s.cols.Weight, "NaN", "NaN weight")
		}
		hasW, hasD = seen[3], seen[4]
		s.labels = append(s.labels, single[0])
		s.scores = append(s.scores, single[1])
		if hasW {
			s.weights = append(s.weights, single[2])
		}
		if hasD {
			s.spans = append(s.spans, docSpan)
		}
	}
	if first {
		s.withW, s.withD = hasW, hasD
	}
	if hasW != s.withW {
		if hasW {
			return s.errField(s.cols.Weight, "weight given but the first line has none")
		}
		return s.errField(s.cols.Weight, "missing weight (the first line has one)")
	}
	if hasD != s.withD {
		if hasD {
			return s.errField(s.cols.Doc, "document id given but the first line has none")
		}
		return s.errField(s.cols.Doc, "missing document id (the first line has one)")
	}
	for _, sp := range s.spans {
		d := s.strBuf[sp[0]:sp[1]]
		if len(d) == 0 {
			return s.errAt(s.cols.Doc, "", "empty document id")
		}
		s.docs = append(s.docs, d)
	}
	return nil
}

func (s *jsonlSource) keyIndex(k []byte) int {
	switch string(k) {
	case s.cols.QID:
		return 0
	case s.cols.Label:
		return 1
	case s.cols.Score:
		return 2
	case s.cols.Weight:
		return 3
	case s.cols.Doc:
		return 4
	case s.plural.Label:
		return 5
	case s.plural.Score:
		return 6
	case s.plural.Weight:
		return 7
	case s.plural.Doc:
		return 8
	}
	return -1
}

func (s *jsonlSource) syntax(b []byte) error {
	return s.errAt("", clip(b), fmt.Sprintf("invalid JSON at byte %d", s.sc.i+1))
}

// str parses a JSON string, appending its unescaped bytes to strBuf and
// returning them.
func (s *jsonlSource) str() ([]byte, error) {
	sp, err := s.strSpan("key")
	if err != nil {
		return nil, err
	}
	return s.strBuf[sp[0]:sp[1]], nil
}

// strSpan parses a JSON string into strBuf and returns its span there;
// field names it in errors ("" for an object key).
func (s *jsonlSource) strSpan(field string) ([2]int, error) {
	sc := &s.sc
	start := len(s.strBuf)
	if !sc.eat('"') {
		return [2]int{}, s.syntax(sc.b)
	}
	for {
		if sc.i >= len(sc.b) {
			return [2]int{}, s.syntax(sc.b)
		}
		c := sc.b[sc.i]
		switch {
		case c == '"':
			sc.i++
			return [2]int{start, len(s.strBuf)}, nil
		case c < 0x20:
			return [2]int{}, s.syntax(sc.b)
		case c == '\\':
			if sc.i+1 >= len(sc.b) {
				return [2]int{}, s.syntax(sc.b)
			}
			e := sc.b[sc.i+1]
			sc.i += 2
			switch e {
			case '"', '\\', '/':
				s.strBuf = append(s.strBuf, e)
			case 'b':
				s.strBuf = append(s.strBuf, '\b')
			case 'f':
				s.strBuf = append(s.strBuf, '\f')
			case 'n':
				s.strBuf = append(s.strBuf, '\n')
			case 'r':
				s.strBuf = append(s.strBuf, '\r')
			case 't':
				s.strBuf = append(s.strBuf, '\t')
			case 'u':
				r, ok := sc.hex4()
				if !ok {
					return [2]int{}, s.syntax(sc.b)
				}
				if utf16.IsSurrogate(r) {
					// Only a high surrogate escape followed by a low one
					// is a character. encoding/json reads a lone one as
					// U+FFFD, which would merge distinct ids ("q\udc80"
					// and "q\udc81"): it is an error here.
					at := sc.i - 6
					r2, ok := rune(0), false
					if r < 0xdc00 && sc.i+1 < len(sc.b) && sc.b[sc.i] == '\\' && sc.b[sc.i+1] == 'u' {
						r2, ok = peekHex4(sc.b, sc.i+2)
					}
					if !ok || r2 < 0xdc00 || r2 > 0xdfff {
						return [2]int{}, s.errAt(field, string(sc.b[at:at+6]),
							fmt.Sprintf("invalid string: lone UTF-16 surrogate escape at byte %d (not a character)", at+1))
					}
					sc.i += 6
					r = utf16.DecodeRune(r, r2)
				}
				s.strBuf = utf8.AppendRune(s.strBuf, r)
			default:
				return [2]int{}, s.syntax(sc.b)
			}
		default:
			j := sc.i
			for j < len(sc.b) && sc.b[j] != '"' && sc.b[j] != '\\' && sc.b[j] >= 0x20 {
				j++
			}
			s.strBuf = append(s.strBuf, sc.b[sc.i:j]...)
			sc.i = j
		}
	}
}

// idValue parses a qid or doc: a string, or a number kept as written.
func (s *jsonlSource) idValue(field string) ([2]int, error) {
	sc := &s.sc
	if sc.i < len(sc.b) && sc.b[sc.i] == '"' {
		return s.strSpan(field)
	}
	tok := sc.numberToken()
	if tok == nil || !validJSONNumber(tok) {
		return [2]int{}, s.errAt(field, clip(sc.rest()), "expected a string or a number")
	}
	start := len(s.strBuf)
	s.strBuf = append(s.strBuf, tok...)
	return [2]int{start, len(s.strBuf)}, nil
}

func (s *jsonlSource) idArray() error {
	sc := &s.sc
	if !sc.eat('[') {
		return s.errAt(s.plural.Doc, clip(sc.rest()), "expected an array")
	}
	sc.ws()
	if sc.eat(']') {
		return nil
	}
	for {
		sc.ws()
		sp, err := s.idValue(s.plural.Doc)
		if err != nil {
			return err
		}
		s.spans = append(s.spans, sp)
		sc.ws()
		if sc.eat(',') {
			continue
		}
		if sc.eat(']') {
			return nil
		}
		return s.syntax(sc.b)
	}
}

// number parses a JSON number, or Python's NaN, Infinity and -Infinity;
// with label set, an infinite value is an error.
func (s *jsonlSource) number(field string, label bool) (float64, error) {
	tok := s.sc.numberToken()
	if tok == nil {
		return 0, s.errAt(field, clip(s.sc.rest()), "not a number")
	}
	if !validJSONNumber(tok) {
		return 0, s.errAt(field, clip(tok), "not a number")
	}
	f, ok := parseFloat(tok)
	if !ok {
		return 0, s.errAt(field, clip(tok), "not a number")
	}
	if label && math.IsInf(f, 0) {
		return 0, s.errAt(field, clip(tok), msgInfLabel)
	}
	return f, nil
}

func (s *jsonlSource) numberArray(field string, dst *[]float64, label bool) error {
	sc := &s.sc
	if !sc.eat('[') {
		return s.errAt(field, clip(sc.rest()), "expected an array")
	}
	sc.ws()
	if sc.eat(']') {
		return nil
	}
	for {
		sc.ws()
		tok := sc.numberToken()
		name := func() string { return field + "[" + strconv.Itoa(len(*dst)) + "]" } // on errors only
		if tok == nil || !validJSONNumber(tok) {
			if tok == nil {
				tok = sc.rest()
			}
			return s.errAt(name(), clip(tok), "not a number")
		}
		f, ok := parseFloat(tok)
		if !ok {
			return s.errAt(name(), clip(tok), "not a number")
		}
		if label && math.IsInf(f, 0) {
			return s.errAt(name(), clip(tok), msgInfLabel)
		}
		*dst = append(*dst, f)
		sc.ws()
		if sc.eat(',') {
			continue
		}
		if sc.eat(']') {
			return nil
		}
		return s.syntax(sc.b)
	}
}

// validJSONNumber checks the JSON number grammar, plus NaN, Infinity and
// -Infinity as Python's json module writes them.
func validJSONNumber(b []byte) bool {
	switch string(b) {
	case "NaN", "Infinity", "-Infinity":
		return true
	}
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return false
	}
	if b[i] == '0' {
		i++
	} else if b[i] >= '1' && b[i] <= '9' {
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
	} else {
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		if i == j {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := i
		for i < len(b) && b[i]-'0' <= 9 {
			i++
		}
		if i == j {
			return false
		}
	}
	return i == len(b)
}

// jscan is a cursor over one JSON line.
type jscan struct {
	b     []byte
	i     int
	stack []byte // skip's open arrays and objects
}

func (s *jscan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\r', '\n':
			s.i++
		default:
			return
		}
	}
}

func (s *jscan) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *jscan) rest() []byte { return s.b[s.i:] }

// numberToken returns the maximal run of number characters (letters
// included, for NaN and Infinity), or nil.
func (s *jscan) numberToken() []byte {
	j := s.i
	for j < len(s.b) {
		c := s.b[j]
		if c-'0' <= 9 || c == '-' || c == '+' || c == '.' || c|0x20 >= 'a' && c|0x20 <= 'z' {
			j++
			continue
		}
		break
	}
	if j == s.i {
		return nil
	}
	tok := s.b[s.i:j]
	s.i = j
	return tok
}

func (s *jscan) hex4() (rune, bool) {
	r, ok := peekHex4(s.b, s.i)
	if ok {
		s.i += 4
	}
	return r, ok
}

// peekHex4 decodes the four hex digits at b[i:].
func peekHex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			c = c | 0x20 - 'a' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// skip skips any JSON value. It is iterative: the open arrays and objects
// are a stack of their closing bytes (s.stack, reused across lines), so
// nesting costs one byte per level of a line already in memory, never a
// Go stack frame.
func (s *jscan) skip() error {
	stack := s.stack[:0]
	defer func() { s.stack = stack[:0] }()
	for {
		// A value starts at s.i.
		if s.i >= len(s.b) {
			return errSyntax
		}
		switch c := s.b[s.i]; c {
		case '"':
			if err := s.skipString(); err != nil {
				return err
			}
		case '{', '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			s.i++
			s.ws()
			if !s.eat(closer) {
				stack = append(stack, closer)
				if closer == '}' {
					if err := s.skipKey(); err != nil {
						return err
					}
				}
				s.ws()
				continue
			}
		default:
			tok := s.numberToken()
			switch string(tok) {
			case "true", "false", "null":
			default:
				if tok == nil || !validJSONNumber(tok) {
					return errSyntax
				}
			}
		}
		// A value ended: close what it ends, or go on to the next one.
		for {
			if len(stack) == 0 {
				return nil
			}
			s.ws()
			top := stack[len(stack)-1]
			if s.eat(top) {
				stack = stack[:len(stack)-1]
				continue
			}
			if !s.eat(',') {
				return errSyntax
			}
			s.ws()
			if top == '}' {
				if err := s.skipKey(); err != nil {
					return err
				}
			}
			s.ws()
			break
		}
	}
}

// skipKey skips an object key and its colon.
func (s *jscan) skipKey() error {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return errSyntax
	}
	if err := s.skipString(); err != nil {
		return err
	}
	s.ws()
	if !s.eat(':') {
		return errSyntax
	}
	return nil
}

// skipString skips a string, checking its escapes' syntax.
func (s *jscan) skipString() error {
	s.i++
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			if s.i+1 >= len(s.b) {
				return errSyntax
			}
			switch s.b[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				s.i += 2
				if _, ok := s.hex4(); !ok {
					return errSyntax
				}
			default:
				return errSyntax
			}
		case c < 0x20:
			return errSyntax
		default:
			s.i++
		}
	}
	return errSyntax
}

var errSyntax = fmt.Errorf("invalid JSON")
