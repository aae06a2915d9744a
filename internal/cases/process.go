package cases

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine is the longest input line Process reads unless told
// otherwise, in bytes.
const DefaultMaxLine = 256 << 20

// Process reads cases from r, one per line, and writes one answer line per
// case to w, in order: TF-Ranking's MAP through Run, the other metrics and
// MAP conventions (see Family) through RunFamily. Each answer is written,
// and flushed when w is a *bufio.Writer, before the next line is read, so a
// client can send one case and wait for its answer over a pipe.
//
// A bad case, and a line longer than maxLine bytes (DefaultMaxLine when
// maxLine <= 0; its answer names the line and flag), gets an error answer
// and the next lines are still answered. Process returns the number of
// answers, and an error only when reading or writing fails or ctx is done,
// which it notices while waiting for a line too; every answer before that
// has been written. Blank lines are skipped. When ctx ends during a read
// of r, Process returns at once; the goroutine blocked in that read ends
// when the read returns.
func Process(ctx context.Context, r io.Reader, w io.Writer, maxLine int) (n int, err error) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the reader
	lines := make(chan inputLine)
	next := make(chan struct{})
	go readLines(ctx, r, maxLine, lines, next)
	flusher, _ := w.(interface{ Flush() error })
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		var l inputLine
		select {
		case <-ctx.Done():
			return n, fmt.Errorf("interrupted after %d answers, each written: %w", n, context.Cause(ctx))
		case l = <-lines:
		}
		switch {
		case l.err != nil:
			return n, fmt.Errorf("line %d: %w", l.num, l.err)
		case l.eof:
			return n, nil
		}
		if a, ok := answer(l); ok {
			if err := writeAnswer(bw, flusher, a); err != nil {
				return n, fmt.Errorf("writing the answer to line %d: %w", l.num, err)
			}
			n++
		}
		select {
		case next <- struct{}{}:
		case <-ctx.Done():
		}
	}
}

// answer returns the answer to line l, and false for a blank line.
func answer(l inputLine) (Answer, bool) {
	if l.length > l.max {
		return Answer{Error: fmt.Sprintf("line %d: the line is %d bytes long, over the limit of %d; raise it with --max-line (rankmetrics compute) or split the case: %v",
			l.num, l.length, l.max, ErrCase)}, true
	}
	text := bytes.TrimSpace(l.text)
	if len(text) == 0 {
		return Answer{}, false
	}
	c, fam, err := DecodeFamily(text)
	switch {
	case err != nil:
		return Answer{ID: c.ID, Error: fmt.Sprintf("line %d: %v", l.num, err)}, true
	case IsFamily(&c, fam):
		return RunFamily(&c, fam), true
	}
	return Run(&c), true
}

// writeAnswer writes a and a newline to w through bw, a buffer over w,
// and flushes both.
func writeAnswer(bw *bufio.Writer, flusher interface{ Flush() error }, a Answer) error {
	a.encode(bw)
	bw.WriteByte('\n')
	if err := bw.Flush(); err != nil {
		return err
	}
	if flusher != nil {
		return flusher.Flush()
	}
	return nil
}

// inputLine is one line of the input, or its end.
type inputLine struct {
	num  int
	text []byte // without the newline; valid until the reader is told next
	// length is the length of the line; text is empty when it is over max.
	length, max int
	eof         bool
	err         error
}

// readLines sends the lines of r to lines, one at a time: it reads the
// next line only after a receive from next, so text can be reused. It
// keeps at most max+1 bytes of a line, counting the rest, and stops when
// ctx is done or after sending the end of the input or an error.
func readLines(ctx context.Context, r io.Reader, max int, lines chan<- inputLine, next <-chan struct{}) {
	br := bufio.NewReaderSize(r, 64<<10)
	var lb lineBuf
	for num := 1; ; num++ {
		l := inputLine{num: num, max: max}
		lb.reset()
		for {
			frag, err := br.ReadSlice('\n')
			l.length += len(frag)
			if lb.n <= max {
				lb.write(frag[:min(len(frag), max+1-lb.n)])
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			switch {
			case err == nil:
				l.length-- // the newline
			case errors.Is(err, io.EOF):
				l.eof = l.length == 0
			default:
				l.err = fmt.Errorf("reading: %w", err)
			}
			break
		}
		if l.length <= max {
			l.text = bytes.TrimSuffix(lb.bytes(), []byte("\n"))
		}
		select {
		case lines <- l:
		case <-ctx.Done():
			return
		}
		if l.eof || l.err != nil {
			return
		}
		select {
		case <-next:
		case <-ctx.Done():
			return
		}
	}
}

// lineBuf collects the fragments of a line. A line that fits in buf, the
// longest line so far, is copied there; a longer one is kept in chunks of
// an eighth of its length so far and then copied, once, into a new buf of
// exactly its length. A line of n bytes thus allocates about 2.1n bytes,
// where growing one buffer by doubling allocates up to 4n.
type lineBuf struct {
	buf    []byte
	chunks [][]byte
	n      int // bytes written since the last reset
}

// reset empties b, keeping buf.
func (b *lineBuf) reset() {
	b.buf, b.chunks, b.n = b.buf[:0], nil, 0
}

// write appends p to the line.
func (b *lineBuf) write(p []byte) {
	b.n += len(p)
	if b.chunks == nil && len(b.buf)+len(p) <= cap(b.buf) {
		b.buf = append(b.buf, p...)
		return
	}
	for len(p) > 0 {
		if k := len(b.chunks); k == 0 || len(b.chunks[k-1]) == cap(b.chunks[k-1]) {
			b.chunks = append(b.chunks, make([]byte, 0, min(max(b.n/8, 64<<10), 16<<20)))
		}
		c := &b.chunks[len(b.chunks)-1]
		m := min(len(p), cap(*c)-len(*c))
		*c = append(*c, p[:m]...)
		p = p[m:]
	}
}

// bytes returns the line, valid until the next reset.
func (b *lineBuf) bytes() []byte {
	if b.chunks != nil {
		buf := make([]byte, 0, b.n)
		buf = append(buf, b.buf...)
		for _, c := range b.chunks {
			buf = append(buf, c...)
		}
		b.buf, b.chunks = buf, nil
	}
	return b.buf
}
