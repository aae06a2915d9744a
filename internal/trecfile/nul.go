package trecfile

import (
	"bufio"
	"bytes"
	"io"
)

// trec_eval reads its files into one C string: a NUL byte at the start of
// a line ends its line loop, so the rest of the file is never read. A NUL
// byte inside a line makes it read past the string (a crash); the scanner
// refuses such lines.

// nulCut reads r up to the first NUL byte that starts a line.
type nulCut struct {
	r    io.Reader
	bol  bool // the next byte starts a line
	done bool
}

func cutAtLineNUL(r io.Reader) io.Reader { return &nulCut{r: r, bol: true} }

func (c *nulCut) Read(p []byte) (int, error) {
	if c.done {
		return 0, io.EOF
	}
	n, err := c.r.Read(p)
	for i := 0; i < n; {
		k := bytes.IndexByte(p[i:n], 0)
		if k < 0 {
			break
		}
		i += k
		if i == 0 && c.bol || i > 0 && p[i-1] == '\n' {
			n, c.done = i, true
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		i++
	}
	if n > 0 {
		c.bol = p[n-1] == '\n'
	}
	return n, err
}

// cutDataAtLineNUL is cutAtLineNUL for a file's content.
func cutDataAtLineNUL(data []byte) []byte {
	for i := 0; i < len(data); {
		k := bytes.IndexByte(data[i:], 0)
		if k < 0 {
			break
		}
		i += k
		if i == 0 || data[i-1] == '\n' {
			return data[:i]
		}
		i++
	}
	return data
}

// stdinChunk is the size of the chunks trec_eval 10.0 reads standard
// input in (fgets into a buffer of 10000 bytes).
const stdinChunk = 10000 - 1

// stdinReader reads standard input as trec_eval 10.0 does: in chunks that
// end after a newline or at stdinChunk bytes, each cut at its first NUL
// byte (the rest of the chunk, newline included, is lost).
type stdinReader struct {
	br      *bufio.Reader
	pending []byte
	own     []byte
}

// StdinReader returns a reader of r, standard input, that gives what
// trec_eval 10.0 reads from it: a NUL byte drops the rest of its chunk
// (up to the next newline, included, or 9999 bytes from the chunk's
// start).
func StdinReader(r io.Reader) io.Reader {
	return &stdinReader{br: bufio.NewReaderSize(r, 1<<16)}
}

func (s *stdinReader) Read(p []byte) (int, error) {
	for len(s.pending) == 0 {
		b, err := s.br.Peek(stdinChunk)
		if len(b) == 0 {
			if err == nil || err == bufio.ErrBufferFull {
				err = io.ErrNoProgress
			}
			return 0, err
		}
		if k := bytes.IndexByte(b, '\n'); k >= 0 {
			b = b[:k+1]
		}
		chunk := b
		if k := bytes.IndexByte(chunk, 0); k >= 0 {
			chunk = chunk[:k]
		}
		s.own = append(s.own[:0], chunk...)
		s.pending = s.own
		if _, err := s.br.Discard(len(b)); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.pending)
	s.pending = s.pending[n:]
	return n, nil
}
