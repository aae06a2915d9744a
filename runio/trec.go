package runio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// trecBlock holds the lines of one qid from a qrels or run file.
type trecBlock struct {
	qid    []byte
	docs   []byte
	docEnd []uint32
	vals   []float64 // labels (qrels) or scores (run)
	lines  []int64
	// blank lines of the file skipped up to the block's end, when a
	// stream hands it over
	blank int64
}

func (b *trecBlock) reset() {
	b.qid = b.qid[:0]
	b.docs = b.docs[:0]
	b.docEnd = b.docEnd[:0]
	b.vals = b.vals[:0]
	b.lines = b.lines[:0]
}

func (b *trecBlock) doc(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = b.docEnd[i-1]
	}
	return b.docs[start:b.docEnd[i]]
}

func (b *trecBlock) add(doc []byte, v float64, line int64) {
	b.docs = append(b.docs, doc...)
	b.docEnd = append(b.docEnd, uint32(len(b.docs)))
	b.vals = append(b.vals, v)
	b.lines = append(b.lines, line)
}

// trecParser reads a qrels or a run file block by block, through a
// TRECStrict scanner.
type trecParser struct {
	sc     *TRECScanner
	isRun  bool
	closer io.Closer
	r      io.Reader
	opts   *Options
	// par, when not nil, parses the file in parallel: lines come from it
	// instead of sc
	par *parReader
	// ahead, when not nil, decompresses the gzipped file on a goroutine
	// of its own for sc (see readAhead)
	ahead *aheadReader
	// lag: the file is read once under UnsortedAuto (see lagStream): a
	// qid out of order ends the block and sets disorder, the line kept
	// for the next read
	lag, disorder bool
}

func newTRECParser(r io.Reader, name string, isRun bool, opts *Options) *trecParser {
	p := &trecParser{sc: NewTRECScanner(r, name, !isRun, TRECStrict, opts), isRun: isRun, r: r, opts: opts}
	if c, ok := r.(io.Closer); ok {
		p.closer = c
	}
	return p
}

// parallel makes p parse its file with half of opts.Workers goroutines
// (the two files of a pair are parsed at the same time; see parReader)
// when that is more than one, and, with 2 or 3 workers, decompress a
// gzipped file on a goroutine of its own (readAhead) while its stream's
// goroutine parses it as a plain file (decompressing took about as long
// as parsing: on one goroutine, the run's were the longest path on two
// cores). eval --quiet -m map --workers 2 on the gzipped 5M+5M-line pair
// of bench/gen, 5 alternated runs on an idle machine, wall / CPU min:
// 0.63 / 1.18 s when a parReader cut the decompressed bytes into chunks
// and parsed them line by line (not through nextBlockScan), 0.54 / 1.00 s
// read ahead, peak RSS 34.8 and 34.3 MB. p must not have read yet.
func (p *trecParser) parallel() {
	if p.par != nil {
		return
	}
	if p.ahead != nil {
		return
	}
	w := p.opts.Workers / 2
	if st, ok := p.r.(*stream); ok && st.gunzip && w == 1 {
		p.readAhead(st)
		return
	}
	if w > 1 {
		p.par = newParReader(p, p.r, w, p.opts)
	}
}

// value parses the score (run) or the relevance (qrels) of a line's
// fields f.
func (p *trecParser) value(f [][]byte) (float64, error) {
	v, msg := p.parseValue(f)
	if msg != "" {
		return 0, p.valueErrorIn(p.sc, f, msg)
	}
	return v, nil
}

// parseValue parses the score (run) or the relevance (qrels) of a line's
// fields f; msg says why it is not a number.
func (p *trecParser) parseValue(f [][]byte) (v float64, msg string) {
	if p.isRun {
		return ParseScore(f[4])
	}
	return ParseRel(f[3])
}

// valueErrorIn is the error of a value of fields f, returned by sc.
func (p *trecParser) valueErrorIn(sc *TRECScanner, f [][]byte, msg string) error {
	if p.isRun {
		return sc.ErrorAt("score", f[4], msg)
	}
	return sc.ErrorAt("rel", f[3], msg)
}

// line returns the next data line's qid, docno and value (valid until the
// next call), or io.EOF.
func (p *trecParser) line() (qid, doc []byte, v float64, err error) {
	if p.par != nil {
		return p.par.next()
	}
	f, err := p.sc.Next()
	if err != nil {
		return nil, nil, 0, err
	}
	v, err = p.value(f)
	return f[0], f[2], v, err
}

// lineNo is the physical line number of the last line returned.
func (p *trecParser) lineNo() int64 {
	if p.par != nil {
		return p.par.line
	}
	return p.sc.Line()
}

// unread makes the next call of line return the last line again.
func (p *trecParser) unread() {
	if p.par != nil {
		p.par.held = true
		return
	}
	p.sc.Unread()
}

// errorAt is a ParseError at the last line returned.
func (p *trecParser) errorAt(field string, value []byte, msg string) error {
	return &ParseError{File: p.sc.Name(), Line: p.lineNo(), Field: field, Value: clip(value), Msg: msg}
}

// blankLines counts the blank lines skipped so far.
func (p *trecParser) blankLines() int64 {
	if p.par != nil {
		return p.par.blank
	}
	return p.sc.BlankLines()
}

// nextBlock fills b with the next qid's lines, checking that qids ascend.
func (p *trecParser) nextBlock(b *trecBlock) error {
	if p.par == nil {
		return p.nextBlockScan(b)
	}
	return p.nextBlockLines(b)
}

// nextBlockLines is nextBlock through p.line, from p.sc or p.par.
func (p *trecParser) nextBlockLines(b *trecBlock) error {
	b.reset()
	for {
		qid, doc, v, err := p.line()
		if err == io.EOF && len(b.vals) > 0 {
			return nil
		}
		if err != nil {
			return err
		}
		switch {
		case len(b.vals) == 0:
			b.qid = append(b.qid, qid...)
		case !bytes.Equal(qid, b.qid):
			if compareQID(b.qid, qid) > 0 {
				if p.lag {
					p.disorder = true
					p.unread()
					return nil
				}
				return p.errorAt("qid", qid, unsortedMsg(b.qid))
			}
			p.unread()
			return nil
		}
		b.add(doc, v, p.lineNo())
	}
}

// nextBlockScan is nextBlockLines reading p.sc (p.par is nil): line,
// value and lineNo in one loop, the value parsed by parseShort first
// (BenchmarkNextBlock: the calls per line cost about as much as parsing
// the number). Within a block, the lines the scanner has records of go
// through scanRecs, without Next's field slices.
func (p *trecParser) nextBlockScan(b *trecBlock) error {
	b.reset()
	sc := p.sc
	vf := 3 // the field of the value
	if p.isRun {
		vf = 4
	}
	var q qidWord
	for {
		if len(b.vals) > 0 && sc.ri < sc.rn && !sc.held {
			p.scanRecs(b, vf, q)
		}
		f, err := sc.Next()
		if err != nil {
			if err == io.EOF && len(b.vals) > 0 {
				return nil
			}
			return err
		}
		v, ok := parseShort(f[vf])
		if !ok {
			var err error
			if v, err = p.value(f); err != nil {
				return err
			}
		}
		qid := f[0]
		switch {
		case len(b.vals) == 0:
			b.qid = append(b.qid, qid...)
			q = newQIDWord(b.qid)
		case !bytes.Equal(qid, b.qid):
			if compareQID(b.qid, qid) > 0 {
				if p.lag {
					p.disorder = true
					sc.Unread()
					return nil
				}
				return p.errorAt("qid", qid, unsortedMsg(b.qid))
			}
			sc.Unread()
			return nil
		}
		b.add(f[2], v, sc.Line())
	}
}

// qidWord holds a qid of at most 8 bytes as a little-endian word (ok),
// for one compare per line.
type qidWord struct {
	word, mask uint64
	n          int
	ok         bool
}

func newQIDWord(qid []byte) qidWord {
	q := qidWord{n: len(qid), ok: len(qid) > 0 && len(qid) <= 8}
	if q.ok {
		var w [8]byte
		copy(w[:], qid)
		q.word = binary.LittleEndian.Uint64(w[:])
		q.mask = ^uint64(0) >> (64 - 8*len(qid))
	}
	return q
}

// scanRecs is the loop of nextBlockScan over the lines of the scanner's
// records from sc.ri on, within a block (b holds a line, whose qid q
// describes), reading the qid, the docno and the value from each record's
// spans instead of Next's field slices: it adds to b the data lines of b's
// qid whose value parseShort takes, as that loop would. It stops before
// any other line (one indexed would not take, of another qid or another
// value), which Next then reads, and at the end of the records. The line
// reader's counters are those of the last line added, as after Next; they
// are kept in registers through the loop.
func (p *trecParser) scanRecs(b *trecBlock, vf int, q qidWord) {
	s := p.sc
	l := s.lr
	win := l.win
	pos, line, start, off := l.pos, l.line, l.start, l.off
	ri, rn := s.ri, min(s.rn, len(s.recs))
	vs := 2 + 2*vf // the value's span in a record
	for ri < rn {
		r := &s.recs[ri]
		ln := int(r[0])
		d := win[pos : pos+ln]
		if !s.dataRec(r, d) {
			break
		}
		qs, qe := int(r[2]), int(r[3])
		var same bool
		if i := pos + qs; q.ok && i+8 <= len(win) {
			same = qe-qs == q.n && binary.LittleEndian.Uint64(win[i:])&q.mask == q.word
		} else {
			same = bytes.Equal(d[qs:qe], b.qid)
		}
		v, ok := parseShort(d[r[vs]:r[vs+1]])
		if !same || !ok {
			break
		}
		ri++
		line++
		start = off
		off += int64(ln + 1)
		pos += ln + 1
		b.add(d[r[6]:r[7]], v, line)
	}
	l.pos, l.line, l.start, l.off = pos, line, start, off
	s.ri = ri
}

// loadAll reads the whole file grouped by qid, in order of first appearance.
func (p *trecParser) loadAll(ctx context.Context) ([]*trecBlock, map[string]int, error) {
	return p.loadAfter(ctx, nil, 0)
}

// loadAfter is loadAll for the rest of a file whose queries up to qid
// after (when not nil) are returned already, streamed window lines behind
// the reading: a qid that does not come after it is an error at its first
// line.
func (p *trecParser) loadAfter(ctx context.Context, after []byte, window int) ([]*trecBlock, map[string]int, error) {
	var blocks []*trecBlock
	index := make(map[string]int)
	var last *trecBlock
	for n := 0; ; n++ {
		if n&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		qid, doc, v, err := p.line()
		if err == io.EOF {
			return blocks, index, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if last == nil || !bytes.Equal(last.qid, qid) {
			i, ok := index[string(qid)]
			if !ok {
				if after != nil && compareQID(qid, after) <= 0 {
					return nil, nil, p.errorAt("qid", qid, lagUnsortedMsg(after, window))
				}
				i = len(blocks)
				blocks = append(blocks, &trecBlock{qid: bytes.Clone(qid)})
				index[string(qid)] = i
			}
			last = blocks[i]
		}
		last.add(doc, v, p.lineNo())
	}
}

func (p *trecParser) close() error {
	if p.par != nil {
		p.par.close()
		p.par = nil
	}
	if p.ahead != nil {
		p.ahead.close()
		p.ahead = nil
	}
	if p.closer != nil {
		return p.closer.Close()
	}
	return nil
}

// blockStream runs a trecParser in its own goroutine, so that the qrels
// and the run are parsed in parallel with each other and with the caller.
type blockStream struct {
	blockChan
}

// blockChan is the receiving end the streaming sources share: blocks
// parsed by p on a goroutine of their own (run), handed over on ch in
// batches of up to sendBatch, their buffers coming back on free; done
// stops the goroutine.
type blockChan struct {
	p    *trecParser
	ch   chan blockMsg
	free chan *trecBlock
	done chan struct{}
	wg   sync.WaitGroup
	// the blocks parsed and not released yet, and their lines
	// (blockStream)
	aheadBlocks, aheadLines atomic.Int64
	// the sender's batch, not handed over yet
	pending blockMsg
	// the receiver's batch, and the next block of it
	cur   blockMsg
	i     int
	ended bool // cur ends the stream with cur.err
	blank int64
}

// blockMsg is a batch of blocks, then, at the end of the stream, its
// error (io.EOF at the end of the file).
type blockMsg struct {
	bs    [sendBatch]*trecBlock
	n     int
	err   error
	blank int64 // blank lines skipped up to err
}

const (
	// streamBlocks is the most blocks a stream parses ahead of its
	// reader, and streamLines the most lines past 32 blocks: on two
	// cores, the qrels' parser, ahead of the run's, kept a core busy
	// while the join waited for the run (32 blocks, at most 3,200 lines
	// of bench/gen's 100-line queries, left it idle: eval -m map on
	// 5M+5M lines, --workers 2, 0.39 s against 0.34 s with 128).
	streamBlocks = 128
	streamLines  = 1 << 15
	// streamMinBlocks is how many blocks a stream parses ahead whatever
	// their lines (and all it parses ahead with fewer than 2 workers).
	streamMinBlocks = 32
	// sendBatch blocks go over the channel at once: a receiver faster
	// than its sender waits at the channel, and each wake-up cost about
	// as much as a block of 100 lines to parse (a query's lines, one
	// block, per message took 12% more CPU on two cores than on one).
	sendBatch = 8
)

// startBlockStream parses p's blocks ahead of the reader on a goroutine
// of its own: up to streamBlocks of them, or streamMinBlocks with fewer
// than 2 workers (one core gains nothing from running ahead).
func startBlockStream(p *trecParser) *blockStream {
	n := streamBlocks
	if p.opts.Workers < 2 {
		n = streamMinBlocks
	}
	s := &blockStream{blockChan{p: p, ch: make(chan blockMsg, n), free: make(chan *trecBlock, n), done: make(chan struct{})}}
	for range n {
		s.free <- &trecBlock{}
	}
	s.wg.Add(1)
	go s.run()
	return s
}

func (s *blockStream) run() {
	defer s.wg.Done()
	for {
		var b *trecBlock
		wait := s.aheadBlocks.Load() >= streamMinBlocks && s.aheadLines.Load() >= streamLines
		if !wait {
			select {
			case b = <-s.free:
			default:
				wait = true
			}
		}
		if wait {
			// Every block is out, or enough lines: hand over the
			// batch, then wait for a block to come back.
			if !s.flush(nil) {
				return
			}
			select {
			case b = <-s.free:
			case <-s.done:
				return
			}
		}
		err := s.p.nextBlock(b)
		s.aheadBlocks.Add(1)
		s.aheadLines.Add(int64(len(b.vals)))
		if !s.send(b, err) || err != nil {
			return
		}
	}
}

// send adds b to the batch, or, with err, hands the batch and err over;
// false when the stream was stopped.
func (s *blockChan) send(b *trecBlock, err error) bool {
	if err == nil {
		b.blank = s.p.blankLines()
		s.pending.bs[s.pending.n] = b
		s.pending.n++
		if s.pending.n < sendBatch {
			select {
			case <-s.done:
				return false
			default:
				return true
			}
		}
	}
	return s.flush(err)
}

// flush hands the batch (and err, when not nil) over; false when the
// stream was stopped.
func (s *blockChan) flush(err error) bool {
	if s.pending.n == 0 && err == nil {
		return true
	}
	m := s.pending
	m.err, m.blank = err, s.p.blankLines()
	s.pending = blockMsg{}
	select {
	case s.ch <- m:
		return true
	case <-s.done:
		return false
	}
}

// next returns the next block, nil at the end.
func (s *blockChan) next() (*trecBlock, error) {
	for s.i == s.cur.n {
		if s.ended {
			s.blank = s.cur.blank
			if s.cur.err == io.EOF {
				return nil, nil
			}
			return nil, s.cur.err
		}
		s.cur = <-s.ch
		s.i = 0
		s.ended = s.cur.err != nil
	}
	b := s.cur.bs[s.i]
	s.cur.bs[s.i] = nil
	s.i++
	s.blank = b.blank
	return b, nil
}

func (s *blockStream) release(b *trecBlock) {
	if b != nil {
		s.aheadBlocks.Add(-1)
		s.aheadLines.Add(-int64(len(b.vals)))
		s.free <- b
	}
}

func (s *blockChan) stop() {
	close(s.done)
	s.wg.Wait()
}

func (s *blockChan) blankLines() int64 { return s.blank }

// blockSource gives the blocks of one file of a TREC pair, one per qid, in
// the order of CompareQID: streamed from a sorted file (blockStream), read
// by byte range from a file whose qids are in blocks (rangeSource), or
// gathered in memory (gatherSource).
type blockSource interface {
	// next returns the next block, nil at the end.
	next() (*trecBlock, error)
	// release gives back a block returned by next, once used.
	release(*trecBlock)
	// blankLines counts the blank lines of the file skipped so far.
	blankLines() int64
	// stop ends any background work.
	stop()
}

// trecInput is one file of a TREC pair: r reads it from its start, and ra,
// when not nil, reads its size bytes again by range (a regular file, not
// compressed), which lets UnsortedAuto scan it first.
type trecInput struct {
	name string
	r    io.Reader
	ra   io.ReaderAt
	size int64
	// reopen: a compressed regular file, which Restarting can open and
	// decompress again from its start.
	reopen bool
}

// seekableInput returns in with ra set when r can be read again by range
// from its current offset: it has ReadAt and Seek, and Seek works (not a
// pipe).
func seekableInput(r io.Reader, name string) trecInput {
	in := trecInput{name: name, r: r}
	x, ok := r.(interface {
		io.ReaderAt
		io.Seeker
	})
	if !ok {
		return in
	}
	cur, err := x.Seek(0, io.SeekCurrent)
	if err != nil {
		return in
	}
	end, err := x.Seek(0, io.SeekEnd)
	if err != nil {
		return in
	}
	if _, err := x.Seek(cur, io.SeekStart); err != nil {
		return in
	}
	in.size = end - cur
	in.ra = io.NewSectionReader(x, cur, in.size)
	return in
}

// source chooses how to read one file of the pair under UnsortedAuto: a
// file that can be re-read is scanned first (see trecScan) and streamed
// when sorted, read block by block in qid order when each qid is in one
// block, and gathered otherwise; a file read once (gzip, standard input)
// streams autoWindow lines behind its reading (see lagStream).
func (t *trecReader) source(in trecInput, p *trecParser, qrels bool) (blockSource, error) {
	if in.ra != nil {
		sc := &trecScan{ra: in.ra, size: in.size, qrels: qrels, maxLine: t.opts.maxLine(), comments: !t.opts.TRECNoComments}
		chunk := int64(scanChunkSize)
		if t.scanChunk > 0 {
			chunk = t.scanChunk
		}
		sorted, err := sc.sortedParallel(t.ctx, runtime.GOMAXPROCS(0), chunk)
		if err != nil && err != errNoIndex {
			return nil, err
		}
		if sorted {
			p.parallel()
			return startBlockStream(p), nil
		}
		var blocks []TopicBlock
		var lay TopicLayout
		if err == nil {
			lay, blocks, err = sc.index(t.ctx)
		}
		switch {
		case err != nil && err != errNoIndex:
			return nil, err
		case err == nil && lay == TopicsInBlocks:
			ra := in.ra
			if t.opts.BytesRead != nil {
				ra = countingReaderAt{ra, t.opts.BytesRead}
			}
			return &rangeSource{ra: ra, blocks: blocks, p: p, blank: sc.blank}, nil
		}
		p.parallel()
		return newGatherSource(t.ctx, p)
	}
	p.parallel()
	if t.opts.restarted && in.reopen {
		// Restarting's second read of a compressed file, which streaming
		// as sorted failed on: gathered, so that any line order is read
		// (a lagStream stops at a qid before one it returned).
		return newGatherSource(t.ctx, p)
	}
	lag := autoWindow
	if t.lag > 0 {
		lag = t.lag
	}
	return startLagStream(t.ctx, p, lag), nil
}

// mergeBlocks adds the blocks a (read first, in qid order, each qid once)
// to b (gathered after them, in qid order): lines of a qid in both keep
// their file order, a's first. The result is in qid order.
func mergeBlocks(a, b []*trecBlock) []*trecBlock {
	out := make([]*trecBlock, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && compareQID(a[i].qid, b[j].qid) < 0:
			out = append(out, a[i])
			i++
		case i == len(a) || compareQID(a[i].qid, b[j].qid) > 0:
			out = append(out, b[j])
			j++
		default:
			for k := range b[j].vals {
				a[i].add(b[j].doc(k), b[j].vals[k], b[j].lines[k])
			}
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// trecReader joins a qrels file and a run file.
type trecReader struct {
	ctx   context.Context
	opts  Options
	qname string
	rname string
	qp    *trecParser
	rp    *trecParser
	stats Stats

	// streaming (UnsortedError, UnsortedAuto): the join of the two
	// files' blocks
	qs, rs blockSource
	merge  *TopicMerge[*trecBlock, *trecBlock]

	// grouped
	loaded  bool
	qBlocks []*trecBlock
	qIndex  map[string]int
	rBlocks []*trecBlock
	gi      int
	qUsed   []bool
	qi      int

	tbl    *docTable
	qidx   []int32
	closed bool

	// UnsortedAuto: the inputs, until the first Next chooses how to read
	// them
	qin, rin *trecInput
	// lag and scanChunk, when not 0, replace autoWindow and
	// scanChunkSize (tests)
	lag       int
	scanChunk int64
	startErr  error
	closers   []io.Closer
	// optimistic: Restartable on two re-readable files, streamed
	// without a scan; any error of Next wraps ErrRestart
	optimistic bool
}

// NewTRECReader returns a Reader joining TREC qrels and run input
// (trec_eval's order: qrels first). With UnsortedError both are parsed in
// background goroutines, one query at a time. With UnsortedAuto a reader
// that can be read again by range (a file, a bytes.Reader) is scanned first
// and read as its layout allows (see [UnsortedAuto]); any other is
// gathered in memory.
func NewTRECReader(ctx context.Context, qrels, run io.Reader, qrelsName, runName string, opts Options) (Reader, error) {
	q, r := trecInput{name: qrelsName, r: qrels}, trecInput{name: runName, r: run}
	if opts.Unsorted == UnsortedAuto {
		q, r = seekableInput(qrels, qrelsName), seekableInput(run, runName)
	}
	return newTRECReader(ctx, q, r, opts, nil), nil
}

// newTRECReader joins the pair q, r, closing closers when it is closed.
func newTRECReader(ctx context.Context, q, r trecInput, opts Options, closers []io.Closer) *trecReader {
	t := &trecReader{ctx: ctx, opts: opts, qname: q.name, rname: r.name, tbl: newDocTable(), closers: closers}
	t.qp = newTRECParser(q.r, q.name, false, &opts)
	t.rp = newTRECParser(r.r, r.name, true, &opts)
	switch opts.Unsorted {
	case UnsortedError:
		t.qp.parallel()
		t.rp.parallel()
		t.qs = startBlockStream(t.qp)
		t.rs = startBlockStream(t.rp)
	case UnsortedAuto:
		if opts.Restartable && (q.ra != nil || q.reopen) && (r.ra != nil || r.reopen) {
			t.optimistic = true
			t.qp.parallel()
			t.rp.parallel()
			t.qs = startBlockStream(t.qp)
			t.rs = startBlockStream(t.rp)
			break
		}
		t.qin, t.rin = &q, &r
	}
	return t
}

// start chooses how to read each file (UnsortedAuto), both at once.
func (t *trecReader) start() error {
	q, r := t.qin, t.rin
	t.qin, t.rin = nil, nil
	var wg sync.WaitGroup
	var qerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		t.qs, qerr = t.source(*q, t.qp, true)
	}()
	var rerr error
	t.rs, rerr = t.source(*r, t.rp, false)
	wg.Wait()
	if qerr != nil || rerr != nil {
		// The qrels' error first, as a sequential reader reports it.
		err := qerr
		if err == nil {
			err = rerr
		}
		t.stopSources()
		return err
	}
	return nil
}

// stopSources stops the sources started so far.
func (t *trecReader) stopSources() {
	if t.qs != nil {
		t.qs.stop()
	}
	if t.rs != nil {
		t.rs.stop()
	}
	t.qs, t.rs = nil, nil
}

// HasWeights is false: TREC files have no weights.
func (t *trecReader) HasWeights() bool { return false }

// Stats returns the counters so far: the rows of the queries returned.
func (t *trecReader) Stats() Stats {
	st := t.stats
	if t.qs != nil && t.rs != nil {
		st.BlankLines = t.qs.blankLines() + t.rs.blankLines()
	} else {
		st.BlankLines = t.qp.blankLines() + t.rp.blankLines()
	}
	return st
}

// Close stops the parsers and closes the inputs.
func (t *trecReader) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	t.stopSources()
	err := errors.Join(t.qp.close(), t.rp.close())
	for _, c := range t.closers {
		err = errors.Join(err, c.Close())
	}
	return err
}

// Next reads the next query into q.
func (t *trecReader) Next(q *Query) error {
	err := t.next(q)
	if t.optimistic && err != nil && err != io.EOF && t.ctx.Err() == nil {
		return fmt.Errorf("%w: %w", ErrRestart, err)
	}
	return err
}

func (t *trecReader) next(q *Query) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if t.opts.Unsorted == UnsortedGroup {
		return t.nextGrouped(q)
	}
	if t.qin != nil {
		t.startErr = t.start()
	}
	if t.startErr != nil {
		return t.startErr
	}
	if t.merge == nil {
		t.merge = NewTopicMerge(blocksOf(t.qs), blocksOf(t.rs), func(q, r *trecBlock) int { return compareQID(q.qid, r.qid) })
	}
	p, err := t.merge.Next()
	if err != nil {
		return err
	}
	qb, rb := p.Q, p.R
	err = t.join(q, qb, rb)
	if rb != nil {
		t.stats.Rows += int64(len(rb.vals))
		t.rs.release(rb)
	}
	if qb != nil {
		t.stats.QrelsRows += int64(len(qb.vals))
		t.qs.release(qb)
	}
	return err
}

// blocksOf returns the next function of a TopicMerge over s's blocks.
func blocksOf(s blockSource) func() (*trecBlock, bool, error) {
	return func() (*trecBlock, bool, error) {
		b, err := s.next()
		return b, b != nil, err
	}
}

func (t *trecReader) nextGrouped(q *Query) error {
	if !t.loaded {
		t.qp.parallel()
		t.rp.parallel()
		var err error
		if t.qBlocks, t.qIndex, err = t.qp.loadAll(t.ctx); err != nil {
			return err
		}
		if t.rBlocks, _, err = t.rp.loadAll(t.ctx); err != nil {
			return err
		}
		for _, b := range t.qBlocks {
			t.stats.QrelsRows += int64(len(b.vals))
		}
		for _, b := range t.rBlocks {
			t.stats.Rows += int64(len(b.vals))
		}
		t.qUsed = make([]bool, len(t.qBlocks))
		t.loaded = true
	}
	if t.gi < len(t.rBlocks) {
		rb := t.rBlocks[t.gi]
		t.rBlocks[t.gi] = nil
		t.gi++
		var qb *trecBlock
		if i, ok := t.qIndex[string(rb.qid)]; ok {
			qb = t.qBlocks[i]
			t.qBlocks[i] = nil
			t.qUsed[i] = true
		}
		return t.join(q, qb, rb)
	}
	for t.qi < len(t.qBlocks) {
		i := t.qi
		t.qi++
		if t.qUsed[i] {
			continue
		}
		qb := t.qBlocks[i]
		t.qBlocks[i] = nil
		return t.join(q, qb, nil)
	}
	return io.EOF
}

// join builds the query of a run block and a qrels block, either of which
// may be nil.
func (t *trecReader) join(q *Query, qb, rb *trecBlock) error {
	keep := t.opts.KeepDocs
	q.reset(false, keep)
	n := 0
	if qb != nil {
		n += len(qb.vals)
	}
	if rb != nil {
		n += len(rb.vals)
	}
	t.tbl.reset(n)
	tbl := t.tbl
	switch {
	case rb == nil:
		q.QID = string(qb.qid)
		q.Line = qb.lines[0]
		q.Match = MatchQrelsOnly
		t.stats.QrelsOnlyQueries++
	case qb == nil:
		q.QID = string(rb.qid)
		q.Line = rb.lines[0]
		q.Match = MatchRunOnly
		t.stats.RunOnlyQueries++
	default:
		q.QID = string(rb.qid)
		q.Line = rb.lines[0]
	}
	if qb != nil {
		t.qidx = t.qidx[:0]
		start := uint32(0)
		for j, end := range qb.docEnd {
			idx, dup := tbl.insertIn(qb.docs, start, end)
			start = end
			t.qidx = append(t.qidx, int32(idx))
			s := &tbl.slots[idx]
			if !dup {
				s.a = int32(j)
				continue
			}
			first := int(s.a)
			switch t.opts.Dedupe {
			case DedupeFirst:
				t.stats.DuplicatesDropped++
			case DedupeMax:
				t.stats.DuplicatesDropped++
				if qb.vals[j] > qb.vals[first] {
					s.a = int32(j)
				}
			default:
				return &ParseError{File: t.qname, Line: qb.lines[j], Field: "docno", Value: clip(qb.doc(j)),
					Msg: duplicateMsg("judgment", q.QID, qb.lines[first])}
			}
		}
	}
	if rb != nil {
		// Labels and scores are written in place, w of them kept.
		m := len(rb.vals)
		labels, scores := slices.Grow(q.Labels, m)[:m], slices.Grow(q.Scores, m)[:m]
		w := 0
		start := uint32(0)
		for i, end := range rb.docEnd {
			idx, _ := tbl.insertIn(rb.docs, start, end)
			start = end
			s := &tbl.slots[idx]
			if s.b >= 0 {
				first := int(s.b)
				switch t.opts.Dedupe {
				case DedupeFirst:
					t.stats.DuplicatesDropped++
				case DedupeMax:
					t.stats.DuplicatesDropped++
					if rb.vals[i] > scores[first] {
						scores[first] = rb.vals[i]
					}
				default:
					q.Labels, q.Scores = labels[:w], scores[:w]
					doc := rb.doc(i)
					return &ParseError{File: t.rname, Line: rb.lines[i], Field: "docno", Value: clip(doc),
						Msg: duplicateMsg("document", q.QID, t.firstRunLine(rb, doc))}
				}
				continue
			}
			s.b = int32(w)
			label := 0.0
			if s.a >= 0 {
				label = qb.vals[s.a]
			} else {
				t.stats.UnjudgedItems++
			}
			labels[w], scores[w] = label, rb.vals[i]
			w++
			if keep {
				q.Docs = append(q.Docs, string(rb.doc(i)))
				q.Unjudged = append(q.Unjudged, s.a < 0)
				q.QrelsPos = append(q.QrelsPos, s.a)
			}
		}
		q.Labels, q.Scores = labels[:w], scores[:w]
	}
	if qb != nil {
		for j, idx := range t.qidx {
			s := &tbl.slots[idx]
			if int(s.a) != j || s.b >= 0 {
				continue
			}
			l := qb.vals[j]
			q.UnrankedLabels = append(q.UnrankedLabels, l)
			if keep {
				q.UnrankedDocs = append(q.UnrankedDocs, string(qb.doc(j)))
				q.QrelsPos = append(q.QrelsPos, int32(j))
			}
			t.stats.UnrankedJudged++
			if l >= 1 {
				t.stats.UnrankedRelevant++
			}
		}
	}
	t.stats.Queries++
	t.stats.Items += int64(len(q.Scores))
	return nil
}

// firstRunLine finds the line of the first run occurrence of doc.
func (t *trecReader) firstRunLine(rb *trecBlock, doc []byte) int64 {
	for i := range rb.vals {
		if bytes.Equal(rb.doc(i), doc) {
			return rb.lines[i]
		}
	}
	return 0
}
