package runio

import (
	"bytes"
	"fmt"
	"io"

	"github.com/rankmetrics/rankmetrics/runio/internal/lineidx"
	"golang.org/x/sys/cpu"
)

// TRECMode selects the rules by which TREC run and qrels lines are read:
// runio's own (eval, compare) or trec_eval's, per version (the
// rankmetrics trec_eval command). The modes differ as follows.
//
//   - Line limit: [TRECStrict] takes [Options.MaxLineBytes] bytes besides
//     the "\n" or "\r\n" and names --max-line-bytes when a line is longer;
//     the trec_eval modes count the terminator too and say
//     `field line: longer than N bytes`.
//   - Blank lines (only spaces, tabs and a "\r"): skipped and counted in
//     [Stats.BlankLines] by TRECStrict; trec_eval skips run lines of C
//     white space (also "\v" and "\f") and rejects blank qrels lines.
//   - Comments: trec_eval 10.0 and TRECStrict skip run lines whose first
//     non-blank byte is '#' and qrels lines that start with '#' (unless
//     the line holds a NUL byte); 9.0.8 has none, nor TRECStrict with
//     [Options.TRECNoComments].
//   - Fields: TRECStrict cuts at every byte up to ' ' (every control byte
//     separates); trec_eval cuts at C's isspace bytes only, so a control
//     byte such as "\x01" stays in its field, and a NUL byte anywhere in
//     a line is an error (trec_eval's C strings end there).
//   - Field counts: both want at least 6 run fields (ignoring the rest)
//     and exactly 4 qrels fields; TRECStrict quotes a wrong line, trec_eval
//     names the missing or unexpected field.
//
// The numbers in the fields are read by the front end: [ParseScore] and
// [ParseRel] in runio, C's atof and atol (metric/treceval) for trec_eval.
type TRECMode uint8

const (
	// TRECStrict is runio's rules (the default).
	TRECStrict TRECMode = iota
	// TRECEval10 is trec_eval 10.0's rules ('#' comment lines).
	TRECEval10
	// TRECEval908 is trec_eval 9.0.8's rules (no comment lines).
	TRECEval908
)

// TRECScanner reads the lines of one TREC run or qrels file and cuts them
// into fields by the rules of its [TRECMode]. It is the one line scanner
// and field splitter of TREC input: runio's TREC reader and the
// trec_eval front end (internal/trecfile) both read through it.
type TRECScanner struct {
	lr     *lineReader
	qrels  bool
	mode   TRECMode
	fields [][]byte
	held   bool
	// TRECStrict: the field count, the other file's, and what a line is
	want, other int
	what        string
	comments    bool // skip 10.0's comment lines
	// vec: the lines come from recs[ri:rn], lineidx's records of the
	// lines from the line reader's position on (see Next), where they
	// describe a line exactly; the others go through read.
	vec    bool
	hash   bool // a '#' can start a comment line (TRECStrict's comments, 10.0)
	ri, rn int
	// cool lines go byte by byte before the next call of the kernel,
	// after backoff misses (see Next).
	cool, backoff int
	recs          [recBatch]lineidx.Rec
	// A scanner writes its fields at every line, on the goroutine of its
	// file: the pad keeps the qrels' and the run's scanners (and line
	// readers) off each other's cache lines. Allocated side by side, they
	// made eval --unsorted error take 0.40-0.59 s where the same work
	// took 0.33-0.36 s (the 5M+5M-line pair, 2 cores).
	_ cpu.CacheLinePad
}

// NewTRECScanner returns a scanner of r, a run file or (qrels) a qrels
// file named name in errors, with the buffer size and line limit of opts.
func NewTRECScanner(r io.Reader, name string, qrels bool, mode TRECMode, opts *Options) *TRECScanner {
	return newTRECScanner(newLineReader(r, name, opts), qrels, mode, opts)
}

// NewTRECBytesScanner returns a scanner of the lines of data, read in
// place: the fields point into data.
func NewTRECBytesScanner(data []byte, name string, qrels bool, mode TRECMode, opts *Options) *TRECScanner {
	return newTRECScanner(newBytesLineReader(data, name, opts), qrels, mode, opts)
}

func newTRECScanner(lr *lineReader, qrels bool, mode TRECMode, opts *Options) *TRECScanner {
	lr.trecEval = mode != TRECStrict
	s := &TRECScanner{lr: lr, qrels: qrels, mode: mode, fields: make([][]byte, 0, 8), comments: !opts.TRECNoComments,
		want: 6, other: 4, what: "a run line has 6 fields (qid Q0 docno rank score tag)",
		vec: lineidx.Fast && indexable(lr), hash: mode == TRECStrict && !opts.TRECNoComments || mode == TRECEval10}
	if qrels {
		s.want, s.other, s.what = 4, 6, "a qrels line has 4 fields (qid iter docno rel)"
	}
	return s
}

// Next returns the fields of the next data line (valid until the next
// call), or io.EOF after the last line. A run line has at least 6 fields
// (only the first 6 are returned), a qrels line exactly 4.
func (s *TRECScanner) Next() ([][]byte, error) {
	if s.held {
		s.held = false
		return s.fields, nil
	}
	if !s.vec {
		return s.read()
	}
	l := s.lr
	if s.ri == s.rn {
		// No record of the line at pos (a long line, the end of the
		// window): its next lines go byte by byte, twice as many after
		// each such miss in a row, so that a file of long lines does not
		// pay for a kernel call at every line.
		if s.cool > 0 {
			s.cool--
		} else if s.ri, s.rn = 0, lineidx.Index(l.win[l.pos:], s.recs[:], s.mode != TRECStrict); s.rn == 0 {
			s.backoff = min(2*s.backoff+1, recBatch)
			s.cool = s.backoff
		} else {
			s.backoff = 0
		}
	}
	if s.ri < s.rn && s.indexed() {
		return s.fields, nil
	}
	// read reads the line (and the lines it skips) byte by byte. The
	// records of the lines after them still hold unless it moved the
	// window.
	pos, win := l.pos, l.wins
	f, err := s.read()
	if l.wins != win {
		s.ri, s.rn = 0, 0
		return f, err
	}
	for s.ri < s.rn && pos < l.pos {
		pos += int(s.recs[s.ri][0]) + 1
		s.ri++
	}
	if pos != l.pos {
		s.ri, s.rn = 0, 0
	}
	return f, err
}

// indexable reports whether the lines of lr can come from lineidx's
// records: every line those describe is shorter than lineidx.Window, so
// below lr's line limit however it is counted (lineReader.raw).
func indexable(lr *lineReader) bool { return lr.max >= lineidx.Window }

// recBatch is how many lines a call of lineidx.Index describes.
const recBatch = 64

// indexed reads the line at the line reader's position from its record,
// recs[ri], as read would, when it is a data line with the right field
// count: it sets s.fields and moves the line reader past the line, and
// reports whether it did. Its line is shorter than lineidx.Window, hence
// than the line limit (vec), and the record spans its fields as read cuts
// them: a "\r" before the "\n" is a separator in every mode.
func (s *TRECScanner) indexed() bool {
	r := &s.recs[s.ri]
	l := s.lr
	ln := int(r[0])
	b := l.win[l.pos : l.pos+ln]
	if !s.dataRec(r, b) {
		return false
	}
	f := s.fields[:8]
	if s.qrels {
		f = f[:4]
	} else {
		f[4] = b[r[10]:r[11]]
		f[5] = b[r[12]:r[13]]
		f = f[:6]
	}
	f[0] = b[r[2]:r[3]]
	f[1] = b[r[4]:r[5]]
	f[2] = b[r[6]:r[7]]
	f[3] = b[r[8]:r[9]]
	s.fields = f
	l.line++
	l.start = l.off
	l.off += int64(ln + 1)
	l.pos += ln + 1
	s.ri++
	return true
}

// dataRec reports whether record r of line b describes a data line with
// the right field count, one that indexed takes (the one test of a line
// for every reader of the records).
func (s *TRECScanner) dataRec(r *lineidx.Rec, b []byte) bool {
	n := r[1]
	if s.qrels {
		// Exactly 4 fields (lineidx.NUL is more), and the first byte
		// no comment's '#'.
		return n == 4 && (b[0] != '#' || !s.hash)
	}
	// At least 6 fields, no NUL byte, and the first field does not start
	// with a comment's '#': a line is one when its first byte after C
	// white space is '#' (isComment10), and what is before its first
	// field is separators only.
	return n >= 6 && n != lineidx.NUL && (b[r[2]] != '#' || !s.hash)
}

// Unread makes the next call of Next return the last line's fields
// again, for a reader that finds the start of the next group of lines.
func (s *TRECScanner) Unread() { s.held = true }

// Name is the file's name in errors.
func (s *TRECScanner) Name() string { return s.lr.name }

// Line is the physical line number (from 1) of the last line returned.
func (s *TRECScanner) Line() int64 { return s.lr.line }

// Span returns the byte offsets of the last line returned: its start and
// the start of the line after it.
func (s *TRECScanner) Span() (start, end int64) { return s.lr.start, s.lr.off }

// BlankLines counts the blank lines skipped so far.
func (s *TRECScanner) BlankLines() int64 { return s.lr.blank }

// Reset makes s read r from its start, numbering its first line
// firstLine and its first byte 0, keeping s's buffers.
func (s *TRECScanner) Reset(r io.Reader, firstLine int64) {
	s.lr.reset(r, firstLine)
	s.held = false
	s.ri, s.rn, s.cool, s.backoff = 0, 0, 0, 0
}

// ResetBytes makes s read the lines of data in place, numbering its first
// line firstLine and its first byte 0.
func (s *TRECScanner) ResetBytes(data []byte, firstLine int64) {
	s.lr.resetBytes(data, firstLine)
	s.held = false
	s.ri, s.rn, s.cool, s.backoff = 0, 0, 0, 0
}

// ErrorAt returns a [*ParseError] at the last line returned, for a field
// (the value shown) that the front end rejects.
func (s *TRECScanner) ErrorAt(field string, value []byte, msg string) error {
	return &ParseError{File: s.lr.name, Line: s.lr.line, Field: field, Value: clip(value), Msg: msg}
}

// countError says that TRECStrict line b has n fields.
func (s *TRECScanner) countError(b []byte, n int) error {
	hint := swapHint(n, s.other)
	return &ParseError{File: s.lr.name, Line: s.lr.line, Value: clip(b),
		Msg: fmt.Sprintf("%s, found %d%s", s.what, n, hint)}
}

// commentIn10 reports whether trec_eval 10.0 skips line b as a comment
// (TRECEval10's rules in read): see isComment10.
func (s *TRECScanner) commentIn10(b []byte) bool { return isComment10(b, s.qrels) }

// isComment10 reports whether trec_eval 10.0 skips line b of a qrels file
// (qrels) or a run as a comment: a line without NUL bytes whose first byte
// is '#' in qrels, or whose first byte after white space is '#' in a run.
func isComment10(b []byte, qrels bool) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	if !qrels {
		b = bytes.TrimLeft(b, " \t\n\v\f\r")
	}
	return len(b) > 0 && b[0] == '#'
}

var (
	runFieldNames   = [...]string{"1 (qid)", "2 (iteration)", "3 (docno)", "4 (rank)", "5 (score)", "6 (run id)"}
	qrelsFieldNames = [...]string{"1 (qid)", "2 (iteration)", "3 (docno)", "4 (relevance)"}
)

// read reads the next data line by the mode's rules.
func (s *TRECScanner) read() ([][]byte, error) {
	if s.mode == TRECStrict {
		for {
			b, err := s.lr.next()
			if err != nil {
				return nil, err
			}
			if s.comments && (b[0] == '#' || !s.qrels && b[0] <= ' ') && s.commentIn10(b) {
				continue
			}
			// At most want+1 fields are kept, so a hostile line of
			// millions of fields costs no memory; the error counts the
			// rest. A run line may have more than 6 fields, as in
			// trec_eval: the rest are ignored.
			f := splitFields(b, s.fields[:0], ctlSpace, s.want+1)
			if !s.qrels && len(f) > s.want {
				f = f[:s.want]
			}
			s.fields = f
			if len(f) != s.want {
				return nil, s.countError(b, countFields(b, ctlSpace))
			}
			return f, nil
		}
	}
	for {
		b, err := s.lr.raw()
		if err != nil {
			return nil, err
		}
		b = s.lr.counted(b)
		if s.qrels {
			if s.mode == TRECEval10 && len(b) > 0 && b[0] == '#' {
				if bytes.IndexByte(b, 0) >= 0 {
					return nil, s.nulError()
				}
				continue
			}
			f, nul := splitCFields(b, s.fields[:0], 5)
			s.fields = f
			if nul {
				return nil, s.nulError()
			}
			if len(f) < 4 {
				return nil, s.lineError(qrelsFieldNames[len(f)], "missing: a qrels line is 'qid iter docno rel'")
			}
			if len(f) > 4 {
				return nil, s.lineError("5", "unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)")
			}
			return f, nil
		}
		i := 0
		for i < len(b) && b[i] <= ' ' && cSpace>>b[i]&1 != 0 {
			i++
		}
		if i == len(b) {
			s.lr.blank++
			continue
		}
		if s.mode == TRECEval10 && b[i] == '#' {
			if bytes.IndexByte(b, 0) >= 0 {
				return nil, s.nulError()
			}
			continue
		}
		f, nul := splitCFields(b[i:], s.fields[:0], 6)
		s.fields = f
		if nul {
			return nil, s.nulError()
		}
		if len(f) < 6 {
			return nil, s.lineError(runFieldNames[len(f)], "missing: a run line is 'qid iter docno rank score runid'")
		}
		return f, nil
	}
}

// TRECFields cuts b into at most max fields (appended to out, passed
// empty) by the separators of [TRECStrict]: every byte up to ' '. It is
// the splitter the TRECStrict scanner uses, for a reader that needs the
// first fields of a line the scanner rejected.
func TRECFields(b []byte, out [][]byte, max int) [][]byte {
	return splitFields(b, out, ctlSpace, max)
}

// lineError is a trec_eval mode error: the field, no value.
func (s *TRECScanner) lineError(field, msg string) error {
	return &ParseError{File: s.lr.name, Line: s.lr.line, Field: field, NoValue: true, Msg: msg}
}

// separators is the set of bytes that separate fields, all at most ' ':
// byte c is one when c <= ' ' and bit c is set.
type separators uint64

const (
	// ctlSpace: white space and every control byte (runio's rules).
	ctlSpace separators = 1<<(' '+1) - 1
	// cSpace: C's isspace in the C locale (trec_eval's rules).
	cSpace separators = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\v' | 1<<'\f' | 1<<'\r'
)

// has says whether byte c separates fields. (One compare passes every byte
// above ' ': the loops test a byte as c > ' ' || the bit of c is clear.)
func (sep separators) has(c byte) bool { return c <= ' ' && sep>>c&1 != 0 }

// countFields returns how many fields splitFields would find in b with no
// maximum, without storing them.
func countFields(b []byte, sep separators) int {
	n := 0
	in := false
	for _, c := range b {
		field := !sep.has(c)
		if field && !in {
			n++
		}
		in = field
	}
	return n
}

// splitFields cuts b at runs of separator bytes into at most max fields,
// appended to out (passed empty); a field never holds a separator. It goes
// byte by byte: reading eight bytes at a time (the high bits of
// (w - 0x21 per byte) &^ w) measured 1.3x slower on TREC run lines, whose
// fields are short.
func splitFields(b []byte, out [][]byte, sep separators, max int) [][]byte {
	for i := 0; i < len(b) && len(out) < max; i++ {
		if !sep.has(b[i]) {
			j := i + 1
			for j < len(b) && !sep.has(b[j]) {
				j++
			}
			out = append(out, b[i:j])
			i = j
		}
	}
	return out
}
