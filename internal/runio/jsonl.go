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
	s := &jsonlSource{lr: newLineReader(r, name, opts.bufferSize()), cols: cols}
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
				if single[k-1], err = s.number(name); err != nil {
					return err
				}
			case 5, 6, 7:
				name := [...]string{5: s.plural.Label, 6: s.plural.Score, 7: s.plural.Weight}[k]
				dst := [...]*[]float64{5: &s.labels, 6: &s.scores, 7: &s.weights}[k]
				if err := s.numberArray(name, dst); err != nil {
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
	sp, err := s.strSpan()
	if err != nil {
		return nil, err
	}
	return s.strBuf[sp[0]:sp[1]], nil
}

func (s *jsonlSource) strSpan() ([2]int, error) {
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
					r2 := rune(-1)
					if sc.i+1 < len(sc.b) && sc.b[sc.i] == '\\' && sc.b[sc.i+1] == 'u' {
						sc.i += 2
						if r2, ok = sc.hex4(); !ok {
							return [2]int{}, s.syntax(sc.b)
						}
					}
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
		return s.strSpan()
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

// number parses a JSON number, or Python's NaN, Infinity and -Infinity.
func (s *jsonlSource) number(field string) (float64, error) {
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
	return f, nil
}

func (s *jsonlSource) numberArray(field string, dst *[]float64) error {
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
		name := field + "[" + strconv.Itoa(len(*dst)) + "]"
		if tok == nil || !validJSONNumber(tok) {
			if tok == nil {
				tok = sc.rest()
			}
			return s.errAt(name, clip(tok), "not a number")
		}
		f, ok := parseFloat(tok)
		if !ok {
			return s.errAt(name, clip(tok), "not a number")
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
	b []byte
	i int
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
	if s.i+4 > len(s.b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.b[s.i:s.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	s.i += 4
	return rune(v), true
}

// skip skips any JSON value.
func (s *jscan) skip() error {
	if s.i >= len(s.b) {
		return errSyntax
	}
	switch c := s.b[s.i]; c {
	case '"':
		s.i++
		for s.i < len(s.b) {
			switch s.b[s.i] {
			case '\\':
				s.i += 2
			case '"':
				s.i++
				return nil
			default:
				if s.b[s.i] < 0x20 {
					return errSyntax
				}
				s.i++
			}
		}
		return errSyntax
	case '{', '[':
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.i++
		s.ws()
		if s.eat(closer) {
			return nil
		}
		for {
			s.ws()
			if c == '{' {
				if s.i >= len(s.b) || s.b[s.i] != '"' {
					return errSyntax
				}
				if err := s.skip(); err != nil {
					return err
				}
				s.ws()
				if !s.eat(':') {
					return errSyntax
				}
				s.ws()
			}
			if err := s.skip(); err != nil {
				return err
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			if s.eat(closer) {
				return nil
			}
			return errSyntax
		}
	}
	tok := s.numberToken()
	switch string(tok) {
	case "true", "false", "null":
		return nil
	}
	if tok == nil || !validJSONNumber(tok) {
		return errSyntax
	}
	return nil
}

var errSyntax = fmt.Errorf("invalid JSON")
