package runio

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

// parChunkSize is the size of the pieces, cut at line ends, in which a
// TREC file is parsed by several goroutines (Options.Workers).
const parChunkSize = 64 << 10

// parLine is one data line of a chunk: its qid and docno point into the
// chunk's bytes; line is its physical line number within the chunk.
// The fields are offsets, not slices, so that the garbage collector has
// no pointers to follow in the lines of the chunks in flight.
type parLine struct {
	v              float64
	qidOff, docOff uint32
	qidLen, docLen uint32
	line, blank    uint32 // blank: blank lines of the chunk before it
}

// parChunk is a piece of a TREC file, whole lines, and what a worker found
// in it.
type parChunk struct {
	buf   []byte // the bytes (data is buf[:len])
	data  []byte
	lines []parLine
	phys  int64 // physical lines in data
	// blank: blank lines in data; errBlank: before the error
	blank, errBlank int64
	// err: the chunk's first error (its line numbers counted from the
	// chunk's first line), after lines; readErr: the read failed after
	// data
	err, readErr error
	done         chan struct{}
}

// parReader parses a TREC file with workers goroutines and gives its data
// lines in file order, as the TRECStrict scanner and trecParser.value do
// one after the other: the same lines, values, blank line count, and the
// first error in file order with its line number. One goroutine reads the
// file (and so decompresses gzip) and cuts it into chunks at line ends;
// the workers parse chunks; next takes them in order.
type parReader struct {
	p     *trecParser
	r     io.Reader
	opts  *Options
	work  chan *parChunk
	order chan *parChunk
	free  chan *parChunk
	stop  chan struct{}
	wg    sync.WaitGroup

	cur, prev *parChunk
	i         int
	base      int64 // physical lines before cur
	blankBase int64 // blank lines before cur
	blank     int64 // blank lines before the last line returned
	line      int64 // line number of the last line returned
	held      bool
	err       error
}

func newParReader(p *trecParser, r io.Reader, workers int, opts *Options) *parReader {
	pr := &parReader{p: p, r: r, opts: opts, work: make(chan *parChunk, workers), order: make(chan *parChunk, 2*workers),
		free: make(chan *parChunk, 4*workers+8), stop: make(chan struct{})}
	pr.wg.Add(1 + workers)
	go pr.read()
	for range workers {
		go pr.parse()
	}
	return pr
}

// read cuts the file into chunks of whole lines. A line longer than the
// limit and without its end in a chunk's bytes ends the reading: its
// chunk is all of it, which the worker reports as too long.
func (pr *parReader) read() {
	defer pr.wg.Done()
	defer close(pr.work)
	defer close(pr.order)
	var carry []byte
	maxLine := pr.opts.maxLine()
	size := parChunkSize
	if pr.opts.parChunk > 0 {
		size = pr.opts.parChunk
	}
	for {
		var c *parChunk
		select {
		case c = <-pr.free:
		default:
			c = &parChunk{}
		}
		c.done = make(chan struct{})
		c.readErr, c.err = nil, nil
		buf := append(c.buf[:0], carry...)
		last := false
		for {
			if len(buf) >= size {
				if k := bytes.LastIndexByte(buf, '\n'); k >= 0 {
					c.data = buf[:k+1]
					carry = append(carry[:0], buf[k+1:]...)
					break
				}
				if len(buf) > maxLine+2 {
					c.data, last = buf, true
					break
				}
			}
			if cap(buf)-len(buf) < 4096 {
				nb := make([]byte, len(buf), max(size+8<<10, 2*len(buf)))
				copy(nb, buf)
				buf = nb
			}
			n, err := pr.r.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				c.data, last = buf, true
				break
			}
			if err != nil {
				// The lines before the error, then the error at the
				// next line, as the line reader reports it.
				k := bytes.LastIndexByte(buf, '\n')
				c.data, c.readErr, last = buf[:k+1], err, true
				break
			}
		}
		c.buf = buf
		select {
		case pr.order <- c:
		case <-pr.stop:
			return
		}
		select {
		case pr.work <- c:
		case <-pr.stop:
			return
		}
		if last {
			return
		}
	}
}

// parse is a worker: it parses chunks until there are no more.
func (pr *parReader) parse() {
	defer pr.wg.Done()
	p := pr.p
	sc := newTRECScanner(newBytesLineReader(nil, p.sc.Name(), pr.opts), p.sc.qrels, TRECStrict, pr.opts)
	for c := range pr.work {
		sc.ResetBytes(c.data, 1)
		blank := sc.lr.blank
		c.lines = c.lines[:0]
		for {
			f, err := sc.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				c.err, c.errBlank = err, sc.lr.blank-blank
				break
			}
			v, msg := p.parseValue(f)
			if msg != "" {
				c.err, c.errBlank = p.valueErrorIn(sc, f, msg), sc.lr.blank-blank
				break
			}
			c.lines = append(c.lines, parLine{v: v, qidOff: offsetIn(c.data, f[0]), qidLen: uint32(len(f[0])),
				docOff: offsetIn(c.data, f[2]), docLen: uint32(len(f[2])), line: uint32(sc.Line()), blank: uint32(sc.lr.blank - blank)})
		}
		c.phys, c.blank = sc.lr.line, sc.lr.blank-blank
		close(c.done)
	}
}

// next returns the next data line, or io.EOF after the last one.
func (pr *parReader) next() (qid, doc []byte, v float64, err error) {
	if pr.held {
		pr.held = false
		l := &pr.cur.lines[pr.i-1]
		d := pr.cur.data
		return d[l.qidOff : l.qidOff+l.qidLen], d[l.docOff : l.docOff+l.docLen], l.v, nil
	}
	for pr.cur == nil || pr.i == len(pr.cur.lines) {
		if pr.err != nil {
			return nil, nil, 0, pr.err
		}
		if pr.cur != nil {
			c := pr.cur
			if err := c.err; err != nil {
				var pe *ParseError
				if errors.As(err, &pe) {
					pe.Line += pr.base
				}
				pr.err, pr.blank = err, pr.blankBase+c.errBlank
				continue
			}
			pr.blank = pr.blankBase + c.blank
			if c.readErr != nil {
				pr.err = &ParseError{File: pr.p.sc.Name(), Line: pr.base + c.phys + 1, Msg: "cannot read", Err: c.readErr}
				continue
			}
			pr.base += c.phys
			pr.blankBase += c.blank
			// The lines of prev may still be held by the caller (the
			// last line returned): prev goes back only now.
			if pr.prev != nil {
				pr.recycle(pr.prev)
			}
			pr.prev = c
		}
		c, ok := <-pr.order
		if !ok {
			pr.cur = nil
			pr.err = io.EOF
			return nil, nil, 0, io.EOF
		}
		<-c.done
		pr.cur, pr.i = c, 0
	}
	l := &pr.cur.lines[pr.i]
	pr.i++
	pr.line, pr.blank = pr.base+int64(l.line), pr.blankBase+int64(l.blank)
	d := pr.cur.data
	return d[l.qidOff : l.qidOff+l.qidLen], d[l.docOff : l.docOff+l.docLen], l.v, nil
}

// offsetIn is the offset of field f in data, which holds it.
func offsetIn(data, f []byte) uint32 {
	if len(f) == 0 {
		return 0
	}
	return uint32(cap(data) - cap(f))
}

func (pr *parReader) recycle(c *parChunk) {
	c.data = nil
	select {
	case pr.free <- c:
	default:
	}
}

// close stops the reading goroutine and the workers.
func (pr *parReader) close() {
	close(pr.stop)
	// Drain what the reader sent, so that the workers end.
	go func() {
		for range pr.order {
		}
	}()
	pr.wg.Wait()
}
