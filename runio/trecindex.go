package runio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"sync"
	"sync/atomic"
)

// trecScan scans the qids of a TREC file that can be re-read, line by line
// as [TRECScanner] cuts them in [TRECStrict] (blank and comment lines
// skipped, the qid up to the first byte <= ' '), without parsing the other
// fields: a cheap first pass that finds the file's layout. It has two
// modes: a check that the file is sorted, which holds no more than the
// last qid (sorted, sortedParallel), and an index of its topic blocks,
// which it records in a [TopicIndex] under [CompareQID] (index), the
// index of the checked scan ([ScanTopics]) as well.
type trecScan struct {
	ra      io.ReaderAt
	size    int64
	qrels   bool
	maxLine int
	// comments: skip 10.0's comment lines (not Options.TRECNoComments)
	comments bool
	buf      []byte
	blank    int64
	// first, when not nil, receives the qid of the first data line of a
	// scanRange
	first *[]byte
	// noSkip turns skipSameQID off (BenchmarkScanLayout)
	noSkip bool
}

// errNoIndex stops a scan at a line it cannot place (a line longer than
// the limit, or of separators only): the file is then gathered, and its
// parser reports the line.
var errNoIndex = errors.New("runio: no index")

// scanBufSize is the scan's read size.
const scanBufSize = 256 << 10

// sorted says whether the file is sorted, holding no more than the last
// qid and stopping at the first qid out of order.
func (s *trecScan) sorted(ctx context.Context) (bool, error) {
	sorted, _, err := s.scanRange(ctx, nil, 0, s.size)
	return sorted, err
}

// index records every topic block of the file in a TopicIndex under
// CompareQID and returns its layout and, unless the topics are
// scattered, their blocks in qid order. It stops at the first sign of
// scattered lines (the file will be gathered: no need to index it all).
func (s *trecScan) index(ctx context.Context) (TopicLayout, []TopicBlock, error) {
	x := NewTopicIndex(CompareQID)
	if _, _, err := s.scanRange(ctx, x, 0, s.size); err != nil {
		return TopicsScattered, nil, err
	}
	lay, blocks := x.Layout()
	return lay, blocks, nil
}

// scanRange scans the lines that start at offsets in [from, limit): with x
// nil it says whether they are sorted, stopping at the first qid out of
// order, and returns the qid of the last data line among them (first
// holds the first one's); with x not nil it adds their blocks to x, and
// stops once x finds them scattered. A scan from an offset inside a line
// starts at the next line: the line it cuts is the previous range's.
func (s *trecScan) scanRange(ctx context.Context, x *TopicIndex, from, limit int64) (sorted bool, last []byte, err error) {
	if s.buf == nil {
		s.buf = make([]byte, scanBufSize)
	}
	buf := s.buf
	var (
		off    int64 // file offset of buf[0]
		n, pos int   // bytes in buf, next line's start
		eof    bool
		line   int64
		cur    []byte // the current qid
		have   bool
		// skip: the first "line" read is the end of a line that
		// starts before from (the scan starts at from-1, so that a "\n"
		// there makes from a line start)
		skip bool
		// curWord is cur's bytes as a little-endian word, curMask its
		// bytes' mask, when cur is shorter than 8 bytes
		curMask, curWord uint64
	)
	if from > 0 {
		off, skip = from-1, true
	}
	s.blank = 0
	for {
		if x == nil && have && !skip && !s.noSkip {
			stop := n
			if l := limit - off; l < int64(n) {
				stop = int(l)
			}
			p, c := skipSameQID(buf, pos, n, stop, cur, curMask, curWord, s.maxLine)
			pos = p
			if line>>16 != (line+c)>>16 {
				if err := ctx.Err(); err != nil {
					return false, nil, err
				}
			}
			line += c
		}
		i := bytes.IndexByte(buf[pos:n], '\n')
		var b []byte
		next := 0
		switch {
		case i >= 0:
			b, next = buf[pos:pos+i], pos+i+1
		case !eof:
			copy(buf, buf[pos:n])
			n -= pos
			off += int64(pos)
			pos = 0
			if n == len(buf) {
				if len(buf) >= s.maxLine+2 {
					return false, nil, errNoIndex
				}
				nb := make([]byte, min(2*len(buf), s.maxLine+2))
				copy(nb, buf[:n])
				buf = nb
			}
			k, err := s.ra.ReadAt(buf[n:], off+int64(n))
			n += k
			if err == io.EOF || off+int64(n) >= s.size {
				eof = true
			} else if err != nil {
				return false, nil, err
			}
			continue
		case pos < n:
			b, next = buf[pos:n], n
		}
		start, end := off+int64(pos), off+int64(next)
		if b == nil && i < 0 || start >= limit {
			return true, cur, nil
		}
		pos = next
		if skip {
			skip = false
			continue
		}
		line++
		if line&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return false, nil, err
			}
		}
		if len(b) > s.maxLine+1 || len(b) == s.maxLine+1 && b[len(b)-1] != '\r' {
			return false, nil, errNoIndex
		}
		// The same qid as the line before: the common case, one compare
		// (of one word when the qid is shorter than 8 bytes).
		if have && len(b) > len(cur) && b[len(cur)] <= ' ' &&
			(len(b) >= 8 && len(cur) < 8 && binary.LittleEndian.Uint64(b)&curMask == curWord ||
				bytes.Equal(b[:len(cur)], cur)) ||
			have && len(b) == len(cur) && bytes.Equal(b, cur) {
			if x != nil {
				x.cur.End = end
			}
			continue
		}
		if isBlank(b) {
			s.blank++
			continue
		}
		if s.comments && (b[0] == '#' || !s.qrels && b[0] <= ' ') && isComment10(b, s.qrels) {
			continue
		}
		j := 0
		for j < len(b) && ctlSpace.has(b[j]) {
			j++
		}
		k := j
		for k < len(b) && !ctlSpace.has(b[k]) {
			k++
		}
		if j == k {
			return false, nil, errNoIndex
		}
		qid := b[j:k]
		if !have && s.first != nil {
			*s.first = append((*s.first)[:0], qid...)
		}
		if x != nil {
			if x.add(qid, start, end, line); x.layout == TopicsScattered {
				return false, nil, nil
			}
		} else if have && compareQID(cur, qid) >= 0 {
			return false, nil, nil
		}
		cur = append(cur[:0], qid...)
		have = true
		curMask, curWord = 0, 0
		if len(cur) < 8 {
			var w [8]byte
			copy(w[:], cur)
			curMask = 1<<(8*len(cur)) - 1
			curWord = binary.LittleEndian.Uint64(w[:])
		}
	}
}

// rangeSource reads the blocks of a file indexed by trecScan, one at a
// time, in the order of CompareQID: memory holds one block.
type rangeSource struct {
	ra     io.ReaderAt
	blocks []TopicBlock
	i      int
	p      *trecParser
	b      trecBlock
	blank  int64
}

func (s *rangeSource) next() (*trecBlock, error) {
	if s.i == len(s.blocks) {
		return nil, nil
	}
	fb := s.blocks[s.i]
	s.blocks[s.i] = TopicBlock{}
	s.i++
	s.p.sc.Reset(io.NewSectionReader(s.ra, fb.Off, fb.End-fb.Off), fb.FirstLine)
	err := s.p.nextBlock(&s.b)
	if err == nil {
		// The block must be all of the range: the scan and the parser cut
		// qids alike, and anything else would lose lines.
		if _, err = s.p.sc.Next(); err == io.EOF {
			return &s.b, nil
		}
	}
	if err == nil || err == io.EOF {
		err = fmt.Errorf("%s:%d: the lines of qid %q changed while the file was read", s.p.sc.Name(), fb.FirstLine, clip([]byte(fb.QID)))
	}
	return nil, err
}

func (s *rangeSource) release(*trecBlock) {}
func (s *rangeSource) blankLines() int64  { return s.blank }
func (s *rangeSource) stop()              {}

// gatherSource holds a whole file grouped by qid, and gives its blocks in
// the order of CompareQID.
type gatherSource struct {
	blocks []*trecBlock
	i      int
	blank  int64
}

func newGatherSource(ctx context.Context, p *trecParser) (*gatherSource, error) {
	blocks, _, err := p.loadAll(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(blocks, func(a, b *trecBlock) int { return compareQID(a.qid, b.qid) })
	return &gatherSource{blocks: blocks, blank: p.blankLines()}, nil
}

func (s *gatherSource) next() (*trecBlock, error) {
	if s.i == len(s.blocks) {
		return nil, nil
	}
	b := s.blocks[s.i]
	s.blocks[s.i] = nil
	s.i++
	return b, nil
}

func (s *gatherSource) release(*trecBlock) {}
func (s *gatherSource) blankLines() int64  { return s.blank }
func (s *gatherSource) stop()              {}

// openTRECAuto opens a TREC pair for UnsortedAuto: a regular file that is
// not gzipped can be read again by range, any other is a stream.
func openTRECAuto(ctx context.Context, qrelsPath, runPath string, opts Options) (Reader, error) {
	var ins [2]trecInput
	var closers []io.Closer
	for i, path := range []string{qrelsPath, runPath} {
		in, c, err := openTRECInput(path, opts)
		if err != nil {
			for _, c := range closers {
				c.Close()
			}
			return nil, err
		}
		ins[i] = in
		closers = append(closers, c)
	}
	return newTRECReader(ctx, ins[0], ins[1], opts, closers), nil
}

// openTRECInput opens one file of a TREC pair for openTRECAuto.
func openTRECInput(path string, opts Options) (trecInput, io.Closer, error) {
	reopen := false
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return trecInput{}, nil, err
		}
		st, err := f.Stat()
		var magic [2]byte
		if err == nil && st.Mode().IsRegular() {
			n, _ := f.ReadAt(magic[:], 0)
			if !(n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
				var ra io.ReaderAt = f
				var r io.Reader = io.NewSectionReader(f, 0, st.Size())
				if opts.BytesRead != nil {
					r = countingReader{r, opts.BytesRead}
				}
				return trecInput{name: path, r: r, ra: ra, size: st.Size()}, f, nil
			}
			reopen = true
		}
		f.Close()
	}
	s, err := openStream(path, opts)
	if err != nil {
		return trecInput{}, nil, err
	}
	return trecInput{name: path, r: s, reopen: reopen}, nopCloser{}, nil // its parser closes it
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// scanChunkSize is the size of the ranges that sortedParallel scans at
// once.
const scanChunkSize = 8 << 20

// chunkResult is what the scan of one range found.
type chunkResult struct {
	sorted      bool
	first, last []byte // qids of its first and last data lines; nil: none
	err         error
}

// sortedParallel says whether the file is sorted (sorted's check),
// scanning ranges of chunk bytes with up to workers
// goroutines, each with its own buffer: the file is sorted when every
// range is and each range's last qid is the next one's first or comes
// before it. The result and the error are sorted's: errNoIndex or a read
// error of the first range (in file order) that has one.
func (s *trecScan) sortedParallel(ctx context.Context, workers int, chunk int64) (bool, error) {
	n := int((s.size + chunk - 1) / chunk)
	if n <= 1 || workers <= 1 {
		sorted, err := s.sorted(ctx)
		return err == nil && sorted, err
	}
	workers = min(workers, n)
	res := make([]chunkResult, n)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := &trecScan{ra: s.ra, size: s.size, qrels: s.qrels, maxLine: s.maxLine, comments: s.comments, noSkip: s.noSkip}
			for !stop.Load() {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				r := &res[i]
				sc.first = &r.first
				sorted, last, err := sc.scanRange(ctx, nil, i*chunk, min((i+1)*chunk, s.size))
				r.sorted, r.err = sorted, err
				r.last = bytes.Clone(last)
				if err != nil || !sorted {
					// Ranges after this one cannot change the answer,
					// but an earlier one may hold an earlier error.
					stop.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	// In file order, as sorted meets them: the order across a boundary,
	// then what the range found. Ranges are taken in order, so those
	// before one that stopped the scan were all scanned.
	var prev []byte
	for i := range res {
		r := &res[i]
		if len(r.first) > 0 {
			if prev != nil && !bytes.Equal(prev, r.first) && compareQID(prev, r.first) >= 0 {
				return false, nil
			}
		}
		if r.err != nil {
			return false, r.err
		}
		if !r.sorted {
			return false, nil
		}
		if len(r.last) > 0 {
			prev = r.last
		}
	}
	return true, nil
}

const (
	lo7s   = 0x7f7f7f7f7f7f7f7f
	nlWord = 0x0a0a0a0a0a0a0a0a
)

// skipSameQID passes the lines of buf[pos:n] that start with qid cur and a
// separator (the scan's test of a line of the current block), shorter
// than maxLine bytes, and ending in buf before n; it starts no line at
// stop or after. It returns the start of the first line it did not pass
// and how many it passed. curMask and curWord are cur's bytes as a
// little-endian word when cur is shorter than 8 bytes. A line's end is
// found eight bytes at a time (the high bit of each byte that equals
// '\n'), which is faster than a call of bytes.IndexByte per line on TREC
// lines of 15 to 30 bytes (BenchmarkScanLayout).
func skipSameQID(buf []byte, pos, n, stop int, cur []byte, curMask, curWord uint64, maxLine int) (int, int64) {
	k := len(cur)
	var lines int64
	for pos < stop {
		q := pos + k + 1
		if q > n {
			break
		}
		if c := buf[pos+k]; c > ' ' || c == '\n' {
			break
		}
		if k < 8 && pos+8 <= n {
			if binary.LittleEndian.Uint64(buf[pos:])&curMask != curWord {
				break
			}
		} else if !bytes.Equal(buf[pos:pos+k], cur) {
			break
		}
		e := -1
		for q+8 <= n {
			x := binary.LittleEndian.Uint64(buf[q:]) ^ nlWord
			// The high bit of each zero byte of x, and no other.
			if y := ^((x&lo7s + lo7s) | x | lo7s); y != 0 {
				e = q + bits.TrailingZeros64(y)>>3
				break
			}
			q += 8
		}
		if e < 0 {
			j := bytes.IndexByte(buf[q:n], '\n')
			if j < 0 {
				break
			}
			e = q + j
		}
		if e-pos >= maxLine {
			break
		}
		pos = e + 1
		lines++
	}
	return pos, lines
}

// lagStream reads a file that can be read only once (gzip, standard input)
// under UnsortedAuto, in one pass: its parser goroutine keeps the last
// blocks parsed until lag lines follow them, so a file out of order within
// its first lag lines (a shuffled file, q9 before q10) is gathered whole,
// as with UnsortedGroup, and a sorted file streams in memory bounded by
// lag lines. At a qid out of order after that, the rest of the file is
// gathered with the blocks not yet returned; a qid of it that does not
// come after the last query returned is an error naming --unsorted group.
type lagStream struct {
	blockChan
	ctx context.Context
	lag int
}

func startLagStream(ctx context.Context, p *trecParser, lag int) *lagStream {
	// The channel holds streamMinBlocks blocks in batches, as many as a
	// blockStream parses ahead with one worker: the lag stream makes its
	// blocks when none comes back, so the channel is its bound.
	s := &lagStream{ctx: ctx, lag: lag, blockChan: blockChan{p: p, ch: make(chan blockMsg, streamMinBlocks/sendBatch),
		free: make(chan *trecBlock, 4*streamMinBlocks), done: make(chan struct{})}}
	p.lag = true
	s.wg.Add(1)
	go s.run()
	return s
}

func (s *lagStream) run() {
	defer s.wg.Done()
	var (
		queue []*trecBlock // parsed, not sent, in file (and qid) order
		lines int          // lines in queue
		sent  []byte       // qid of the last block sent
	)
	for {
		var b *trecBlock
		select {
		case b = <-s.free:
		default:
			b = &trecBlock{}
		}
		if err := s.p.nextBlock(b); err != nil {
			// The end, or an error: the lines before it first.
			for _, q := range queue {
				if !s.send(q, nil) {
					return
				}
			}
			s.send(nil, err)
			return
		}
		queue = append(queue, b)
		lines += len(b.vals)
		if s.p.disorder {
			rest, _, err := s.p.loadAfter(s.ctx, sent, s.lag)
			if err != nil {
				s.send(nil, err)
				return
			}
			slices.SortFunc(rest, func(a, b *trecBlock) int { return compareQID(a.qid, b.qid) })
			for _, q := range mergeBlocks(queue, rest) {
				if !s.send(q, nil) {
					return
				}
			}
			s.send(nil, io.EOF)
			return
		}
		for len(queue) > 1 && lines-len(queue[0].vals) >= s.lag {
			q := queue[0]
			queue[0] = nil
			queue = queue[1:]
			lines -= len(q.vals)
			sent = append(sent[:0], q.qid...)
			if !s.send(q, nil) {
				return
			}
		}
	}
}

func (s *lagStream) release(b *trecBlock) {
	if b == nil {
		return
	}
	select {
	case s.free <- b:
	default:
	}
}
