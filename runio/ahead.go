package runio

import (
	"bytes"
	"io"
	"sync"
)

// aheadPieces and aheadPieceSize: an aheadReader holds at most
// aheadPieces+1 pieces of aheadPieceSize bytes (the ones read ahead, and
// the one being read).
const (
	aheadPieces    = 3
	aheadPieceSize = 64 << 10
)

// aheadReader reads r on a goroutine of its own, ahead of its reader, in
// pieces handed over a channel: a gzipped file is decompressed on one
// goroutine while the scanner of its parser reads the pieces on another,
// through the same line reader and block loop (nextBlockScan) as a plain
// file. A read error of r comes after the bytes read before it, as from r.
type aheadReader struct {
	full chan aheadPiece
	free chan []byte
	stop chan struct{}
	wg   sync.WaitGroup
	// the piece being read: its unread bytes, its buffer, and the error
	// that follows them
	cur, buf []byte
	err      error
}

type aheadPiece struct {
	b   []byte
	err error
}

func newAheadReader(r io.Reader) *aheadReader {
	a := &aheadReader{full: make(chan aheadPiece, aheadPieces), free: make(chan []byte, aheadPieces+1),
		stop: make(chan struct{})}
	for range aheadPieces + 1 {
		a.free <- make([]byte, aheadPieceSize)
	}
	a.wg.Add(1)
	go a.fill(r)
	return a
}

// fill reads r into free pieces until an error (io.EOF at the end) or
// close.
func (a *aheadReader) fill(r io.Reader) {
	defer a.wg.Done()
	for {
		var b []byte
		select {
		case b = <-a.free:
		case <-a.stop:
			return
		}
		n, err := io.ReadFull(r, b)
		if err == io.ErrUnexpectedEOF {
			err = io.EOF
		}
		select {
		case a.full <- aheadPiece{b[:n], err}:
		case <-a.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

func (a *aheadReader) Read(p []byte) (int, error) {
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		if a.buf != nil {
			a.free <- a.buf[:cap(a.buf)]
			a.buf = nil
		}
		pc := <-a.full
		a.buf, a.cur, a.err = pc.b, pc.b, pc.err
	}
	n := copy(p, a.cur)
	a.cur = a.cur[n:]
	return n, nil
}

// close stops the reading goroutine and waits for it.
func (a *aheadReader) close() {
	close(a.stop)
	a.wg.Wait()
}

// readAhead makes the scanner of p, which has not read yet, read the
// decompressed bytes of its gzipped stream st from an aheadReader: what
// st's buffer holds already (a format check may have peeked at it), then
// st.raw, decompressed on the aheadReader's goroutine. The scanner keeps
// st's buffer as its own.
func (p *trecParser) readAhead(st *stream) {
	var src io.Reader = st.raw
	if n := st.Buffered(); n > 0 {
		held, _ := st.Peek(n)
		src = io.MultiReader(bytes.NewReader(bytes.Clone(held)), st.raw)
	}
	p.ahead = newAheadReader(src)
	p.sc.Reset(p.ahead, 1)
}
