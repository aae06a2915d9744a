package runio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// lineReader reads lines without allocating: the returned slice points into
// the bufio buffer (or into an own buffer for lines longer than it) and is
// valid until the next call.
type lineReader struct {
	name  string
	br    *bufio.Reader
	long  []byte
	line  int64
	blank int64
}

func newLineReader(r io.Reader, name string, size int) *lineReader {
	br, ok := r.(*bufio.Reader)
	if st, isStream := r.(*stream); isStream {
		br, ok = st.Reader, true
	}
	if !ok || br.Size() < size {
		br = bufio.NewReaderSize(r, size)
	}
	return &lineReader{name: name, br: br}
}

// next returns the next non-blank line without its line terminator ("\n"
// or "\r\n"), or io.EOF.
func (l *lineReader) next() ([]byte, error) {
	for {
		b, err := l.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			l.long = append(l.long[:0], b...)
			for err == bufio.ErrBufferFull {
				b, err = l.br.ReadSlice('\n')
				l.long = append(l.long, b...)
			}
			b = l.long
		}
		if err != nil && !(err == io.EOF && len(b) > 0) {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("%s: line %d: %w", l.name, l.line+1, err)
		}
		l.line++
		n := len(b)
		if n > 0 && b[n-1] == '\n' {
			n--
			if n > 0 && b[n-1] == '\r' {
				n--
			}
		}
		b = b[:n]
		if isBlank(b) {
			l.blank++
			if errors.Is(err, io.EOF) {
				return nil, io.EOF
			}
			continue
		}
		return b, nil
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
