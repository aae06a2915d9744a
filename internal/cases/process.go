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
			if err := writeAnswer(w, flusher, a); err != nil {
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

// writeAnswer writes a and a newline to w, and flushes it.
func writeAnswer(w io.Writer, flusher interface{ Flush() error }, a Answer) error {
	b := append(a.Marshal(), '\n')
	if _, err := w.Write(b); err != nil {
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
	var buf []byte
	for num := 1; ; num++ {
		l := inputLine{num: num, max: max}
		buf = buf[:0]
		for {
			frag, err := br.ReadSlice('\n')
			l.length += len(frag)
			if len(buf) <= max {
				buf = append(buf, frag[:min(len(frag), max+1-len(buf))]...)
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			switch {
			case err == nil:
				l.length-- // the newline
				buf = bytes.TrimSuffix(buf, []byte("\n"))
			case errors.Is(err, io.EOF):
				l.eof = l.length == 0
			default:
				l.err = fmt.Errorf("reading: %w", err)
			}
			break
		}
		if l.length <= max {
			l.text = buf
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
