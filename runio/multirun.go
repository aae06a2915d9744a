package runio

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"
)

// This file holds the read of several TREC runs against one qrels file
// with the qrels parsed once ([OpenRuns]): the qrels' blocks are parsed by
// one stream and handed, read-only, to the join of every run, each run
// being parsed by a stream of its own. It is the first read of a sorted
// input, as [Options.Restartable] streams one pair: any error of a run's
// reader wraps ErrRestart, and that run is read again alone ([ReadAgain]).

// errNotShared is OpenRuns' error for an input it does not read.
var errNotShared = errors.New("runio: OpenRuns reads plain or gzipped TREC files on disk under UnsortedAuto with Restartable")

// OpenRuns opens one Reader per run of runPaths, each joining that run with
// the qrels at qrelsPath as Open(ctx, []string{qrelsPath, runPath}, opts)
// does, with the qrels parsed once for all of them. It is the optimistic
// read of [Options.Restartable] for several runs: opts must say
// UnsortedAuto and Restartable, and every file must be one that can be
// read again (a file on disk, gzipped or not; not standard input), else
// OpenRuns returns an error and no reader. The readers stream their
// files as if sorted: the queries of a sorted, well-formed pair are those
// of Open, and any error of a reader's Next (a qid out of order in the run
// or the qrels, a malformed line, a repeated document) wraps ErrRestart:
// the caller then drops what it computed from that reader and reads its
// pair again with [ReadAgain], which gives Open's queries and errors.
//
// The readers must be read at the same time, each by a goroutine of its
// own, and each closed when done with (Close after the last Next, or
// after an error): a qrels block is held until every reader not yet
// closed has used it, and the readers run at most a few qrels topics
// apart, so a reader that is neither read nor closed stops the others.
// Memory is that of one streamed pair per run (the run's buffers), and of
// one qrels stream for all. After Close, a reader's Stats no longer count
// the qrels' blank lines.
func OpenRuns(ctx context.Context, qrelsPath string, runPaths []string, opts Options) ([]Reader, error) {
	if opts.Unsorted != UnsortedAuto || !opts.Restartable || len(runPaths) == 0 {
		return nil, errNotShared
	}
	// Only regular files: opening a pipe here would read its first bytes
	// (the gzip check) before the caller reads it again its own way.
	for _, p := range append([]string{qrelsPath}, runPaths...) {
		if p == "-" {
			return nil, errNotShared
		}
		if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
			return nil, errNotShared
		}
	}
	var closers []io.Closer
	closeAll := func() {
		for _, c := range closers {
			c.Close()
		}
	}
	open := func(path string) (trecInput, error) {
		in, c, err := openTRECInput(path, opts)
		if err != nil {
			return trecInput{}, err
		}
		if rc, ok := in.r.(io.Closer); ok && in.ra == nil {
			c = rc // a stream: its parser closes it, unless it is never made
		}
		closers = append(closers, c)
		if in.ra == nil && !in.reopen {
			return trecInput{}, errNotShared
		}
		return in, nil
	}
	qin, err := open(qrelsPath)
	if err != nil {
		closeAll()
		return nil, err
	}
	runs := make([]trecInput, len(runPaths))
	for i, p := range runPaths {
		if runs[i], err = open(p); err != nil {
			closeAll()
			return nil, err
		}
	}
	// Each file is closed once: by its parser (a stream) or by its
	// reader's Close (a file read in place), as openTRECAuto's readers do.
	fileCloser := func(in trecInput, c io.Closer) io.Closer {
		if in.ra == nil {
			return nopCloser{}
		}
		return c
	}
	qp := newTRECParser(qin.r, qin.name, false, &opts)
	qp.parallel()
	sq := &sharedQrels{ctx: ctx, src: startBlockStream(qp), qp: qp, closer: fileCloser(qin, closers[0]),
		wake: make(chan struct{}), views: len(runs)}
	readers := make([]Reader, len(runs))
	for i, in := range runs {
		t := &trecReader{ctx: ctx, opts: opts, qname: qin.name, rname: in.name, tbl: newDocTable(),
			closers: []io.Closer{fileCloser(in, closers[i+1])}, optimistic: true}
		// The qrels are parsed by sq: the reader's own qrels parser
		// reads nothing.
		t.qp = &trecParser{sc: NewTRECBytesScanner(nil, qin.name, true, TRECStrict, &t.opts), opts: &t.opts}
		t.rp = newTRECParser(in.r, in.name, true, &t.opts)
		t.rp.parallel()
		t.qs = &qrelsView{s: sq}
		t.rs = startBlockStream(t.rp)
		readers[i] = t
	}
	return readers, nil
}

// ReadAgain is the second read of [Restarting], for a pair whose first
// read failed with ErrRestart, such as a reader of [OpenRuns]: it opens
// paths with opts, Restartable off, calls run with the reader, and closes
// it (unless ctx is done). The queries and errors are those of Restarting.
// Unlike Restarting, it leaves opts.BytesRead as it is.
func ReadAgain(ctx context.Context, paths []string, opts Options, run func(Reader) error) error {
	opts.Restartable = false
	opts.restarted = true
	return runOnce(ctx, paths, opts, run)
}

// sharedQrels hands the blocks of one qrels stream to the joins of
// several runs (qrelsView): a block is given back to the stream once
// every view not stopped has released it. At most maxSharedBlocks blocks
// are held, so that the stream always has free blocks to parse into and
// a view waiting for one never waits for another view.
type sharedQrels struct {
	ctx    context.Context
	src    *blockStream
	qp     *trecParser
	closer io.Closer

	mu sync.Mutex
	// wake is closed, and replaced, when a block comes in or is given
	// back
	wake chan struct{}
	// ents are the blocks from number base on; the last may be the end
	// of the stream (b nil), which stays
	ents    []sharedBlock
	base    int
	pulling bool // a view is reading the next block from src
	views   int  // views not stopped
}

type sharedBlock struct {
	b     *trecBlock // nil: the end of the stream, or err
	err   error
	blank int64 // blank lines skipped up to this block
	refs  int   // views that have not released it
}

// maxSharedBlocks is the most qrels blocks held by the views.
const maxSharedBlocks = 16

// qrelsView is one run's view of the shared qrels, a blockSource.
type qrelsView struct {
	s     *sharedQrels
	pos   int   // number of the next block to return
	held  []int // numbers of the blocks returned and not released
	blank int64
	done  bool
}

// signal wakes the waiting views; s.mu is held.
func (s *sharedQrels) signal() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// drop gives back the blocks at the front that every view has released;
// s.mu is held.
func (s *sharedQrels) drop() {
	n := 0
	for n < len(s.ents) && s.ents[n].b != nil && s.ents[n].refs == 0 {
		s.src.release(s.ents[n].b)
		n++
	}
	if n > 0 {
		s.ents = append(s.ents[:0], s.ents[n:]...)
		s.base += n
		s.signal()
	}
}

func (v *qrelsView) next() (*trecBlock, error) {
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		if v.done {
			return nil, errors.New("runio: read of a closed reader")
		}
		if i := v.pos - s.base; i < len(s.ents) {
			e := &s.ents[i]
			v.blank = e.blank
			if e.b == nil {
				return nil, e.err // the end stays: asked again, it answers the same
			}
			v.pos++
			v.held = append(v.held, v.pos-1)
			return e.b, nil
		}
		if !s.pulling && len(s.ents) < maxSharedBlocks {
			s.pulling = true
			s.mu.Unlock()
			b, err := s.src.next()
			blank := s.src.blankLines()
			s.mu.Lock()
			s.pulling = false
			s.ents = append(s.ents, sharedBlock{b: b, err: err, blank: blank, refs: s.views})
			s.signal()
			continue
		}
		w := s.wake
		s.mu.Unlock()
		select {
		case <-w:
		case <-s.ctx.Done():
			s.mu.Lock()
			return nil, s.ctx.Err()
		}
		s.mu.Lock()
	}
}

// unref drops the view's hold on block number n; s.mu is held.
func (v *qrelsView) unref(n int) {
	if e := &v.s.ents[n-v.s.base]; e.b != nil {
		e.refs--
	}
}

func (v *qrelsView) release(b *trecBlock) {
	if b == nil {
		return
	}
	s := v.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, n := range v.held {
		if s.ents[n-s.base].b == b {
			v.unref(n)
			v.held = append(v.held[:k], v.held[k+1:]...)
			s.drop()
			return
		}
	}
}

func (v *qrelsView) blankLines() int64 { return v.blank }

// stop releases every block the view holds or has not read yet; the last
// view stopped stops the qrels stream and closes the file.
func (v *qrelsView) stop() {
	s := v.s
	s.mu.Lock()
	if v.done {
		s.mu.Unlock()
		return
	}
	v.done = true
	for _, n := range v.held {
		v.unref(n)
	}
	v.held = nil
	for n := v.pos; n < s.base+len(s.ents); n++ {
		v.unref(n)
	}
	s.views--
	last := s.views == 0
	s.drop()
	s.signal()
	s.mu.Unlock()
	if last {
		s.src.stop()
		s.qp.close()
		s.closer.Close()
	}
}
