package runio

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// fileBlock is one block of consecutive lines with the same qid in a TREC
// file: bytes [off, end), from physical line firstLine.
type fileBlock struct {
	qid       string
	off, end  int64
	firstLine int64
}

// trecLayout is how a TREC file's qids are laid out.
type trecLayout uint8

const (
	// layoutSorted: one block per qid, in the order of CompareQID.
	layoutSorted trecLayout = iota
	// layoutBlocks: one block per qid, in another order.
	layoutBlocks
	// layoutScattered: some qid's lines are in several blocks, or the
	// scan could not tell (a line the parser must report).
	layoutScattered
)

// trecScan scans the qids of a TREC file that can be re-read, line by line
// as [TRECScanner] cuts them in [TRECStrict] (blank and comment lines
// skipped, the qid up to the first byte <= ' '), without parsing the other
// fields: a cheap first pass that finds the file's layout.
type trecScan struct {
	ra      io.ReaderAt
	size    int64
	qrels   bool
	maxLine int
	// comments: skip 10.0's comment lines (not Options.TRECNoComments)
	comments bool
	buf      []byte
	blank    int64
}

// errNoIndex stops a scan at a line it cannot place (a line longer than
// the limit, or of separators only): the file is then gathered, and its
// parser reports the line.
var errNoIndex = errors.New("runio: no index")

// scanBufSize is the scan's read size.
const scanBufSize = 256 << 10

// layout scans the file: with keep false it only checks whether it is
// sorted, holding no more than the last qid, and stops at the first qid
// out of order; with keep true it records every block.
func (s *trecScan) layout(ctx context.Context, keep bool) (lay trecLayout, blocks []fileBlock, err error) {
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
		// curWord is cur's bytes as a little-endian word, curMask its
		// bytes' mask, when cur is shorter than 8 bytes
		curMask, curWord uint64
		sorted           = true
		seen             map[string]struct{} // keep: the qids so far
	)
	if keep {
		seen = make(map[string]struct{})
	}
	s.blank = 0
	for {
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
					return layoutScattered, nil, errNoIndex
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
				return layoutScattered, nil, err
			}
			continue
		case pos < n:
			b, next = buf[pos:n], n
		default:
			if !sorted {
				return s.order(blocks)
			}
			return layoutSorted, blocks, nil
		}
		start, end := off+int64(pos), off+int64(next)
		pos = next
		line++
		if line&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return layoutScattered, nil, err
			}
		}
		if len(b) > s.maxLine+1 || len(b) == s.maxLine+1 && b[len(b)-1] != '\r' {
			return layoutScattered, nil, errNoIndex
		}
		// The same qid as the line before: the common case, one compare
		// (of one word when the qid is shorter than 8 bytes).
		if have && len(b) > len(cur) && b[len(cur)] <= ' ' &&
			(len(b) >= 8 && len(cur) < 8 && binary.LittleEndian.Uint64(b)&curMask == curWord ||
				bytes.Equal(b[:len(cur)], cur)) ||
			have && len(b) == len(cur) && bytes.Equal(b, cur) {
			if keep {
				blocks[len(blocks)-1].end = end
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
			return layoutScattered, nil, errNoIndex
		}
		qid := b[j:k]
		if have && compareQID(cur, qid) >= 0 {
			if !keep {
				return layoutScattered, nil, nil
			}
			sorted = false
		}
		if keep {
			// A qid seen before: scattered lines, known at once (the
			// file will be gathered: no need to index it all).
			if _, ok := seen[string(qid)]; ok {
				return layoutScattered, nil, nil
			}
			q := string(qid)
			seen[q] = struct{}{}
			blocks = append(blocks, fileBlock{qid: q, off: start, end: end, firstLine: line})
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

// order sorts the blocks of an unsorted file by qid and says whether each
// qid is in one block.
func (s *trecScan) order(blocks []fileBlock) (trecLayout, []fileBlock, error) {
	slices.SortStableFunc(blocks, func(a, b fileBlock) int { return CompareQID(a.qid, b.qid) })
	for i := 1; i < len(blocks); i++ {
		if blocks[i].qid == blocks[i-1].qid {
			return layoutScattered, nil, nil
		}
	}
	return layoutBlocks, blocks, nil
}

// rangeSource reads the blocks of a file indexed by trecScan, one at a
// time, in the order of CompareQID: memory holds one block.
type rangeSource struct {
	ra     io.ReaderAt
	blocks []fileBlock
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
	s.blocks[s.i] = fileBlock{}
	s.i++
	s.p.sc.Reset(io.NewSectionReader(s.ra, fb.off, fb.end-fb.off), fb.firstLine)
	err := s.p.nextBlock(&s.b)
	if err == nil {
		// The block must be all of the range: the scan and the parser cut
		// qids alike, and anything else would lose lines.
		if _, err = s.p.sc.Next(); err == io.EOF {
			return &s.b, nil
		}
	}
	if err == nil || err == io.EOF {
		err = fmt.Errorf("%s:%d: the lines of qid %q changed while the file was read", s.p.sc.Name(), fb.firstLine, clip([]byte(fb.qid)))
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
	return &gatherSource{blocks: blocks, blank: p.sc.BlankLines()}, nil
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
		}
		f.Close()
	}
	s, err := openStream(path, opts)
	if err != nil {
		return trecInput{}, nil, err
	}
	in := trecInput{name: path, r: s}
	if path != "-" {
		// A gzipped file: the check of its order decompresses it once
		// more, from a stream of its own.
		check := opts
		check.BytesRead = nil
		in.check = func() (io.ReadCloser, error) { return openStream(path, check) }
	}
	return in, nopCloser{}, nil // its parser closes it
}

// seqReaderAt reads a stream as trecScan reads a file: at increasing
// offsets, each read starting where the last ended.
type seqReaderAt struct {
	r   io.Reader
	pos int64
}

func (s *seqReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off != s.pos {
		return 0, fmt.Errorf("runio: read at %d of a stream at %d", off, s.pos)
	}
	n, err := io.ReadFull(s.r, p)
	s.pos += int64(n)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF
	}
	return n, err
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
