package runio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"golang.org/x/sys/cpu"
)

// lineReader reads lines without allocating: the returned slice points into
// the bufio buffer (or into an own buffer for lines longer than it) and is
// valid until the next call. It scans a window of the buffered bytes, so a
// line costs one IndexByte and no call into bufio.
type lineReader struct {
	name  string
	br    *bufio.Reader
	win   []byte // buffered bytes not yet consumed, from pos
	pos   int
	long  []byte
	line  int64
	blank int64
	eof   bool
	max   int // longest line accepted, terminator excluded
	// start and off are the byte offsets of the last line returned and
	// of the next one.
	start, off int64
	// trecEval measures and reports lines as the trec_eval front end
	// does: the terminator ("\n", and a "\r" before it) counts toward
	// max, and the errors are its `field line:` ones.
	trecEval bool
	size     int // buffer size, for a reader made by reset
	// wins counts the windows: every change of win but the moves of pos
	// (a TRECScanner keeps records of the lines in a window).
	wins uint64
	// The qrels' and the run's readers run on two goroutines and write
	// their fields at every line: without the pad, two of them could
	// share a cache line (see TRECScanner).
	_ cpu.CacheLinePad
}

// newLineReader reads r with the buffer size and line limit of opts. The
// window never exceeds the limit by more than the terminator, so every
// longer line goes through longLine, which enforces the limit.
func newLineReader(r io.Reader, name string, opts *Options) *lineReader {
	size, maxLine := opts.bufferSize(), opts.maxLine()
	if size > maxLine+2 {
		size = max(maxLine+2, 16)
	}
	br, ok := r.(*bufio.Reader)
	if st, isStream := r.(*stream); isStream {
		br, ok = st.Reader, true
	}
	if !ok || br.Size() < size {
		br = bufio.NewReaderSize(r, size)
	}
	return &lineReader{name: name, br: br, max: maxLine, size: size}
}

// newBytesLineReader reads the lines of data in place: the returned lines
// point into data.
func newBytesLineReader(data []byte, name string, opts *Options) *lineReader {
	l := &lineReader{name: name, max: opts.maxLine(), size: opts.bufferSize()}
	l.resetBytes(data, 1)
	return l
}

// reset makes l read r from its start, numbering its first line
// firstLine, keeping l's buffers.
func (l *lineReader) reset(r io.Reader, firstLine int64) {
	if l.br == nil {
		l.br = bufio.NewReaderSize(r, l.size)
	} else {
		l.br.Reset(r)
	}
	l.win, l.pos, l.eof = nil, 0, false
	l.line, l.start, l.off = firstLine-1, 0, 0
	l.wins++
}

// resetBytes makes l read the lines of data in place, numbering its
// first line firstLine: the whole input is the window, already at its end.
func (l *lineReader) resetBytes(data []byte, firstLine int64) {
	l.win, l.pos, l.eof = data, 0, true
	l.line, l.start, l.off = firstLine-1, 0, 0
	l.wins++
}

// refill discards the consumed bytes and makes the window hold more than
// the rest it held, or reports io.EOF (with the rest still in the window)
// or bufio.ErrBufferFull.
func (l *lineReader) refill() error {
	l.wins++
	if _, err := l.br.Discard(l.pos); err != nil {
		return err
	}
	rest := len(l.win) - l.pos
	l.pos = 0
	w, err := l.br.Peek(rest + 1)
	if err == nil || len(w) > rest {
		l.win, _ = l.br.Peek(l.br.Buffered())
		return nil
	}
	l.win = w
	if err == io.EOF {
		l.eof = true
	}
	return err
}

// next returns the next non-blank line without its line terminator ("\n"
// or "\r\n"), or io.EOF.
func (l *lineReader) next() ([]byte, error) {
	for {
		b, err := l.raw()
		if err != nil {
			return nil, err
		}
		b = l.counted(b)
		if isBlank(b) {
			l.blank++
			continue
		}
		return b, nil
	}
}

// counted counts line b, returned by raw, and returns it without a
// trailing "\r": next's line, blank or not.
func (l *lineReader) counted(b []byte) []byte {
	l.line++
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// raw returns the next line without its "\n".
func (l *lineReader) raw() ([]byte, error) {
	for {
		if i := bytes.IndexByte(l.win[l.pos:], '\n'); i >= 0 {
			b := l.win[l.pos : l.pos+i]
			l.pos += i + 1
			l.start = l.off
			l.off += int64(i + 1)
			if len(b) < l.max { // within the limit, however it is counted
				return b, nil
			}
			return l.check(b, true)
		}
		if l.eof {
			if l.pos < len(l.win) {
				b := l.win[l.pos:]
				l.pos = len(l.win)
				l.start = l.off
				l.off += int64(len(b))
				return l.check(b, false)
			}
			return nil, io.EOF
		}
		err := l.refill()
		switch {
		case err == nil || err == io.EOF:
		case errors.Is(err, bufio.ErrBufferFull):
			return l.longLine()
		default:
			return nil, l.readErr(err)
		}
	}
}

// readErr reports a failed read (a gzip or disk error) at the next line.
func (l *lineReader) readErr(err error) error {
	if l.trecEval {
		return fmt.Errorf("%s: %w", l.name, err)
	}
	return &ParseError{File: l.name, Line: l.line + 1, Msg: "cannot read", Err: err}
}

// check returns b, or an error if it is longer than the limit. A "\r"
// before the "\n" does not count, except in trec_eval mode, where the
// whole terminator (nl: b had one) does.
func (l *lineReader) check(b []byte, nl bool) ([]byte, error) {
	n := len(b)
	switch {
	case l.trecEval:
		if nl {
			n++
		}
	case n > 0 && b[n-1] == '\r':
		n--
	}
	if n > l.max {
		return nil, l.tooLong()
	}
	return b, nil
}

func (l *lineReader) tooLong() error {
	if l.trecEval {
		return &ParseError{File: l.name, Line: l.line + 1, Field: "line", NoValue: true,
			Msg: fmt.Sprintf("longer than %d bytes", l.max)}
	}
	return &ParseError{File: l.name, Line: l.line + 1,
		Msg: LineTooLong(l.max)}
}

// longLine reads a line longer than the buffer, whose start fills it.
func (l *lineReader) longLine() ([]byte, error) {
	l.long = append(l.long[:0], l.win...)
	l.wins++
	l.br.Discard(len(l.win))
	l.win, l.pos = nil, 0
	for {
		b, err := l.br.ReadSlice('\n')
		// Stop before holding more than the limit (plus "\r\n").
		if len(l.long)+len(b) > l.max+2 {
			return nil, l.tooLong()
		}
		l.long = append(l.long, b...)
		switch {
		case err == nil:
			l.start = l.off
			l.off += int64(len(l.long))
			return l.check(l.long[:len(l.long)-1], true)
		case errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			l.eof = true
			l.start = l.off
			l.off += int64(len(l.long))
			return l.check(l.long, false)
		default:
			return nil, l.readErr(err)
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
