package evaluate

import (
	"sync"

	"github.com/rankmetrics/rankmetrics/runio"
)

// readAhead runs the reader in its own goroutine, so parsing overlaps the
// packing of updates. Queries travel in recycled chunks, so that the two
// goroutines meet once per chunk, not once per query.
type readAhead struct {
	ch   chan *readChunk
	free chan *readChunk
	done chan struct{}
	wg   sync.WaitGroup
}

// readChunk holds up to readChunkQueries queries, then the error that ended
// the input (io.EOF at the end), if any.
type readChunk struct {
	qs  []runio.Query
	n   int
	err error
}

const (
	readChunkQueries = 32
	readChunks       = 4
)

func startReadAhead(r runio.Reader) *readAhead {
	a := &readAhead{ch: make(chan *readChunk, readChunks), free: make(chan *readChunk, readChunks), done: make(chan struct{})}
	for range readChunks {
		a.free <- &readChunk{qs: make([]runio.Query, readChunkQueries)}
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		for {
			var c *readChunk
			select {
			case c = <-a.free:
			case <-a.done:
				return
			}
			c.n, c.err = 0, nil
			for c.n < len(c.qs) {
				if c.err = r.Next(&c.qs[c.n]); c.err != nil {
					break
				}
				c.n++
			}
			select {
			case a.ch <- c:
			case <-a.done:
				return
			}
			if c.err != nil {
				return
			}
		}
	}()
	return a
}

// stop ends the goroutine; after it the reader may be used again.
func (a *readAhead) stop() {
	close(a.done)
	a.wg.Wait()
}

// abandon ends the goroutine without waiting for a Next call in progress,
// which may block for as long as its input does (a pipe, a terminal): the
// goroutine ends when the call returns, and the reader is left to it.
func (a *readAhead) abandon() {
	close(a.done)
}
