package runio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
)

// trecBlock holds the lines of one qid from a qrels or run file.
type trecBlock struct {
	qid    []byte
	docs   []byte
	docEnd []uint32
	vals   []float64 // labels (qrels) or scores (run)
	lines  []int64
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

// trecParser reads a qrels or a run file block by block.
type trecParser struct {
	lr     *lineReader
	isRun  bool
	fields [][]byte

	pending bool
	pQID    []byte
	pDoc    []byte
	pVal    float64
	pLine   int64
	closer  io.Closer
}

func newTRECParser(r io.Reader, name string, isRun bool, opts *Options) *trecParser {
	p := &trecParser{lr: newLineReader(r, name, opts), isRun: isRun, fields: make([][]byte, 0, 8)}
	if c, ok := r.(io.Closer); ok {
		p.closer = c
	}
	return p
}

// splitFields cuts b at runs of white space and control characters (bytes
// <= ' '), so a field never holds one: a stray control byte splits a field
// and the line then fails the field count.
func splitFields(b []byte, out [][]byte) [][]byte {
	out = out[:0]
	i, n := 0, len(b)
	for i < n {
		if b[i] <= ' ' {
			i++
			continue
		}
		j := i + 1
		for j < n && b[j] > ' ' {
			j++
		}
		out = append(out, b[i:j])
		i = j + 1
	}
	return out
}

// parse parses one non-blank line.
func (p *trecParser) parse(b []byte) (qid, doc []byte, v float64, err error) {
	f := splitFields(b, p.fields)
	p.fields = f
	if p.isRun {
		if len(f) != 6 {
			return nil, nil, 0, &ParseError{File: p.lr.name, Line: p.lr.line, Value: clip(b),
				Msg: fmt.Sprintf("a run line has 6 fields (qid Q0 docno rank score tag), found %d%s", len(f), swapHint(len(f), 4))}
		}
		s, msg := ParseScore(f[4])
		if msg != "" {
			return nil, nil, 0, &ParseError{File: p.lr.name, Line: p.lr.line, Field: "score", Value: clip(f[4]), Msg: msg}
		}
		return f[0], f[2], s, nil
	}
	if len(f) != 4 {
		return nil, nil, 0, &ParseError{File: p.lr.name, Line: p.lr.line, Value: clip(b),
			Msg: fmt.Sprintf("a qrels line has 4 fields (qid iter docno rel), found %d%s", len(f), swapHint(len(f), 6))}
	}
	l, msg := ParseRel(f[3])
	if msg != "" {
		return nil, nil, 0, &ParseError{File: p.lr.name, Line: p.lr.line, Field: "rel", Value: clip(f[3]), Msg: msg}
	}
	return f[0], f[2], l, nil
}

// nextBlock fills b with the next qid's lines, checking that qids ascend.
func (p *trecParser) nextBlock(b *trecBlock) error {
	b.reset()
	if !p.pending {
		line, err := p.lr.next()
		if err != nil {
			return err
		}
		qid, doc, v, err := p.parse(line)
		if err != nil {
			return err
		}
		b.qid = append(b.qid, qid...)
		b.add(doc, v, p.lr.line)
	} else {
		b.qid = append(b.qid, p.pQID...)
		b.add(p.pDoc, p.pVal, p.pLine)
		p.pending = false
	}
	for {
		line, err := p.lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		qid, doc, v, err := p.parse(line)
		if err != nil {
			return err
		}
		if bytes.Equal(qid, b.qid) {
			b.add(doc, v, p.lr.line)
			continue
		}
		if compareQID(b.qid, qid) > 0 {
			return &ParseError{File: p.lr.name, Line: p.lr.line, Field: "qid", Value: clip(qid),
				Msg: unsortedMsg(b.qid)}
		}
		p.pQID = append(p.pQID[:0], qid...)
		p.pDoc = append(p.pDoc[:0], doc...)
		p.pVal, p.pLine = v, p.lr.line
		p.pending = true
		return nil
	}
}

// loadAll reads the whole file grouped by qid, in order of first appearance.
func (p *trecParser) loadAll(ctx context.Context) ([]*trecBlock, map[string]int, error) {
	var blocks []*trecBlock
	index := make(map[string]int)
	var last *trecBlock
	for n := 0; ; n++ {
		if n&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		line, err := p.lr.next()
		if err == io.EOF {
			return blocks, index, nil
		}
		if err != nil {
			return nil, nil, err
		}
		qid, doc, v, err := p.parse(line)
		if err != nil {
			return nil, nil, err
		}
		if last == nil || !bytes.Equal(last.qid, qid) {
			i, ok := index[string(qid)]
			if !ok {
				i = len(blocks)
				blocks = append(blocks, &trecBlock{qid: bytes.Clone(qid)})
				index[string(qid)] = i
			}
			last = blocks[i]
		}
		last.add(doc, v, p.lr.line)
	}
}

func (p *trecParser) close() error {
	if p.closer != nil {
		return p.closer.Close()
	}
	return nil
}

// blockStream runs a trecParser in its own goroutine, so that the qrels
// and the run are parsed in parallel with each other and with the caller.
type blockStream struct {
	p     *trecParser
	ch    chan blockMsg
	free  chan *trecBlock
	done  chan struct{}
	wg    sync.WaitGroup
	err   error
	eof   bool
	blank int64
}

type blockMsg struct {
	b     *trecBlock
	err   error
	blank int64 // blank lines skipped so far
}

const streamBlocks = 32

func startBlockStream(p *trecParser) *blockStream {
	s := &blockStream{p: p, ch: make(chan blockMsg, streamBlocks), free: make(chan *trecBlock, streamBlocks), done: make(chan struct{})}
	for range streamBlocks {
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
		select {
		case b = <-s.free:
		case <-s.done:
			return
		}
		err := s.p.nextBlock(b)
		select {
		case s.ch <- blockMsg{b, err, s.p.lr.blank}:
		case <-s.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// next returns the next block, nil at the end.
func (s *blockStream) next() (*trecBlock, error) {
	if s.err != nil {
		return nil, s.err
	}
	if s.eof {
		return nil, nil
	}
	m := <-s.ch
	s.blank = m.blank
	if m.err == io.EOF {
		s.eof = true
		return nil, nil
	}
	if m.err != nil {
		s.err = m.err
		return nil, m.err
	}
	return m.b, nil
}

func (s *blockStream) release(b *trecBlock) {
	if b != nil {
		s.free <- b
	}
}

func (s *blockStream) stop() {
	close(s.done)
	s.wg.Wait()
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

	// streaming
	qs, rs *blockStream
	qb, rb *trecBlock // current heads; nil when consumed
	qeof   bool
	reof   bool

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
}

// NewTRECReader returns a Reader joining TREC qrels and run input
// (trec_eval's order: qrels first). With UnsortedError both are parsed in
// background goroutines, one query at a time.
func NewTRECReader(ctx context.Context, qrels, run io.Reader, qrelsName, runName string, opts Options) (Reader, error) {
	t := &trecReader{ctx: ctx, opts: opts, qname: qrelsName, rname: runName, tbl: newDocTable()}
	t.qp = newTRECParser(qrels, qrelsName, false, &opts)
	t.rp = newTRECParser(run, runName, true, &opts)
	if opts.Unsorted == UnsortedError {
		t.qs = startBlockStream(t.qp)
		t.rs = startBlockStream(t.rp)
	}
	return t, nil
}

// HasWeights is false: TREC files have no weights.
func (t *trecReader) HasWeights() bool { return false }

// Stats returns the counters so far: the rows of the queries returned.
func (t *trecReader) Stats() Stats {
	st := t.stats
	if t.qs != nil {
		st.BlankLines = t.qs.blank + t.rs.blank
	} else {
		st.BlankLines = t.qp.lr.blank + t.rp.lr.blank
	}
	return st
}

// Close stops the parsers and closes the inputs.
func (t *trecReader) Close() error {
	if t.closed {
		return nil
	}
	t.closed = true
	if t.qs != nil {
		t.qs.stop()
		t.rs.stop()
	}
	err1 := t.qp.close()
	err2 := t.rp.close()
	if err1 != nil {
		return err1
	}
	return err2
}

// Next reads the next query into q.
func (t *trecReader) Next(q *Query) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if t.opts.Unsorted == UnsortedGroup {
		return t.nextGrouped(q)
	}
	var err error
	if t.rb == nil && !t.reof {
		if t.rb, err = t.rs.next(); err != nil {
			return err
		}
		t.reof = t.rb == nil
	}
	if t.qb == nil && !t.qeof {
		if t.qb, err = t.qs.next(); err != nil {
			return err
		}
		t.qeof = t.qb == nil
	}
	var rb, qb *trecBlock
	switch {
	case t.rb == nil && t.qb == nil:
		return io.EOF
	case t.qb == nil:
		rb = t.rb
	case t.rb == nil:
		qb = t.qb
	default:
		switch c := compareQID(t.rb.qid, t.qb.qid); {
		case c == 0:
			rb, qb = t.rb, t.qb
		case c < 0:
			rb = t.rb
		default:
			qb = t.qb
		}
	}
	err = t.join(q, qb, rb)
	if rb != nil {
		t.stats.Rows += int64(len(rb.vals))
		t.rs.release(rb)
		t.rb = nil
	}
	if qb != nil {
		t.stats.QrelsRows += int64(len(qb.vals))
		t.qs.release(qb)
		t.qb = nil
	}
	return err
}

func (t *trecReader) nextGrouped(q *Query) error {
	if !t.loaded {
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
		for j := range qb.vals {
			doc := qb.doc(j)
			idx, dup := tbl.insert(doc)
			t.qidx = append(t.qidx, int32(idx))
			if !dup {
				tbl.entries[idx].a = int32(j)
				continue
			}
			first := int(tbl.entries[idx].a)
			switch t.opts.Dedupe {
			case DedupeFirst:
				t.stats.DuplicatesDropped++
			case DedupeMax:
				t.stats.DuplicatesDropped++
				if qb.vals[j] > qb.vals[first] {
					tbl.entries[idx].a = int32(j)
				}
			default:
				return &ParseError{File: t.qname, Line: qb.lines[j], Field: "docno", Value: clip(doc),
					Msg: duplicateMsg("judgment", q.QID, qb.lines[first])}
			}
		}
	}
	if rb != nil {
		for i := range rb.vals {
			doc := rb.doc(i)
			idx, _ := tbl.insert(doc)
			e := &tbl.entries[idx]
			if e.b >= 0 {
				first := int(e.b)
				switch t.opts.Dedupe {
				case DedupeFirst:
					t.stats.DuplicatesDropped++
				case DedupeMax:
					t.stats.DuplicatesDropped++
					if rb.vals[i] > q.Scores[first] {
						q.Scores[first] = rb.vals[i]
					}
				default:
					return &ParseError{File: t.rname, Line: rb.lines[i], Field: "docno", Value: clip(doc),
						Msg: duplicateMsg("document", q.QID, t.firstRunLine(rb, tbl, idx))}
				}
				continue
			}
			e.b = int32(len(q.Scores))
			label := 0.0
			if e.a >= 0 {
				label = qb.vals[e.a]
			} else {
				t.stats.UnjudgedItems++
			}
			q.Labels = append(q.Labels, label)
			q.Scores = append(q.Scores, rb.vals[i])
			if keep {
				q.Docs = append(q.Docs, string(doc))
				q.Unjudged = append(q.Unjudged, e.a < 0)
			}
		}
	}
	if qb != nil {
		for j, idx := range t.qidx {
			e := &tbl.entries[idx]
			if int(e.a) != j || e.b >= 0 {
				continue
			}
			l := qb.vals[j]
			q.UnrankedLabels = append(q.UnrankedLabels, l)
			if keep {
				q.UnrankedDocs = append(q.UnrankedDocs, string(qb.doc(j)))
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

// firstRunLine finds the line of the first run occurrence of entry idx.
func (t *trecReader) firstRunLine(rb *trecBlock, tbl *docTable, idx int) int64 {
	key := tbl.key(idx)
	for i := range rb.vals {
		if bytes.Equal(rb.doc(i), key) {
			return rb.lines[i]
		}
	}
	return 0
}
