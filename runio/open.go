package runio

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"github.com/klauspost/compress/gzip"
	"io"
	"os"
	"strings"
	"sync/atomic"
)

// Open opens the input named by paths: one file, or two for TREC (qrels
// then run, as trec_eval takes them). The path "-" reads opts.Stdin. The
// format comes from opts.Format or, if that is FormatAuto, from the file
// extension; two paths always mean TREC. Gzip is detected from the magic
// bytes of each file.
func Open(ctx context.Context, paths []string, opts Options) (Reader, error) {
	switch len(paths) {
	case 1:
	case 2:
		if opts.Format != FormatAuto && opts.Format != FormatTREC {
			return nil, fmt.Errorf("two inputs (%s, %s) are a TREC qrels and run pair, but --input-format is %s", paths[0], paths[1], opts.Format)
		}
		return openTREC(ctx, paths[0], paths[1], opts)
	default:
		return nil, fmt.Errorf("want one input file, or a TREC qrels and run pair; got %d paths", len(paths))
	}
	path := paths[0]
	format := opts.Format
	if format == FormatAuto {
		if path == "-" {
			return nil, errors.New("standard input needs --input-format (tsv, csv, jsonl, parquet or rkm1)")
		}
		var err error
		if format, err = DetectFormat(path); err != nil {
			return nil, err
		}
	}
	if format == FormatTREC {
		return nil, fmt.Errorf("TREC input needs two paths, QRELS RUN; got only %s", path)
	}
	if format == FormatParquet || format == FormatRKM1 {
		ra, size, closer, err := openRandomAccess(path, opts)
		if err != nil {
			return nil, err
		}
		var r Reader
		if format == FormatParquet {
			r, err = NewParquetReader(ctx, withCloser{ra, closer}, size, path, opts)
		} else {
			r, err = NewRKM1Reader(ctx, withCloser{ra, closer}, size, path)
		}
		if err != nil {
			closer.Close()
			return nil, err
		}
		return r, nil
	}
	rc, err := openStream(path, opts)
	if err != nil {
		return nil, err
	}
	var r Reader
	switch format {
	case FormatTSV:
		r, err = NewDelimitedReader(ctx, rc, path, '\t', opts)
	case FormatCSV:
		r, err = NewDelimitedReader(ctx, rc, path, ',', opts)
	case FormatJSONL:
		r, err = NewJSONLReader(ctx, rc, path, opts)
	default:
		err = fmt.Errorf("unknown format %s", format)
	}
	if err != nil {
		rc.Close()
		return nil, err
	}
	return r, nil
}

func openTREC(ctx context.Context, qrelsPath, runPath string, opts Options) (Reader, error) {
	if qrelsPath == "-" && runPath == "-" {
		return nil, errors.New("the qrels and the run cannot both be standard input")
	}
	if opts.Unsorted == UnsortedAuto {
		return openTRECAuto(ctx, qrelsPath, runPath, opts)
	}
	qr, err := openStream(qrelsPath, opts)
	if err != nil {
		return nil, err
	}
	rr, err := openStream(runPath, opts)
	if err != nil {
		qr.Close()
		return nil, err
	}
	return NewTRECReader(ctx, qr, rr, qrelsPath, runPath, opts)
}

// stream is a buffered, possibly gunzipped input that closes its file.
type stream struct {
	*bufio.Reader
	closers []io.Closer
	// gunzip: the stream decompresses its input, read by raw beneath
	// the buffer
	gunzip bool
	raw    io.Reader
}

func (s *stream) Close() error {
	var err error
	for _, c := range s.closers {
		err = errors.Join(err, c.Close())
	}
	return err
}

// openStream opens path (or stdin for "-") for sequential reading,
// decompressing gzip when the data starts with its magic bytes.
func openStream(path string, opts Options) (*stream, error) {
	var r io.Reader
	s := &stream{}
	if path == "-" {
		if opts.Stdin == nil {
			return nil, errors.New("no standard input to read for -")
		}
		r = opts.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		r = f
		s.closers = append(s.closers, f)
	}
	if opts.BytesRead != nil {
		r = countingReader{r, opts.BytesRead}
	}
	r, err := MaybeGunzip(r, path, opts.bufferSize())
	if err != nil {
		s.Close()
		return nil, err
	}
	if c, ok := r.(io.Closer); ok {
		s.closers = append([]io.Closer{c}, s.closers...)
	}
	_, s.gunzip = r.(gzipReader)
	s.raw = r
	s.Reader = bufio.NewReaderSize(r, opts.bufferSize())
	return s, nil
}

// gzipInputSize is the buffer of a gzipped input's compressed bytes: the
// decompressor reads them a byte at a time, and beyond a few pages a
// larger buffer only takes memory: `eval --quiet -m map --workers 2` on
// the gzipped 5M+5M-line pair of bench/gen, 7 alternated runs under
// `/usr/bin/time` (load average 7), peak RSS median 38.1 MB with 1 MiB
// (the plain input's buffer), 35.0 MB with 64 KiB, CPU 1.40 and 1.38 s
// (--workers 1: 33.2 against 29.6 MB, 1.40 and 1.37 s).
const gzipInputSize = 64 << 10

// MaybeGunzip returns r decompressed if it starts with the gzip magic bytes
// (0x1f 0x8b), or r itself buffered (bufSize bytes) otherwise.
func MaybeGunzip(r io.Reader, name string, bufSize int) (io.Reader, error) {
	// The first bytes are looked at through a small buffer, which the
	// input's buffer then reads through: a read of it at least as large
	// goes straight to r once the bytes looked at are read.
	peek := bufio.NewReaderSize(r, 64)
	magic, err := peek.Peek(10)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := notCompressed(magic, name); err != nil {
		return nil, err
	}
	if len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(bufio.NewReaderSize(peek, gzipInputSize))
		if err != nil {
			return nil, fmt.Errorf("%s: bad gzip header: %w", name, err)
		}
		return gzipReader{zr}, nil
	}
	return bufio.NewReaderSize(peek, max(bufSize, 64)), nil
}

// ErrCompressed is wrapped by the error about an input compressed other
// than with gzip.
var ErrCompressed = errors.New("which rankmetrics does not read (it reads gzip)")

// notCompressed returns an error naming the file, the compression and the
// commands that decompress it when head, the first bytes of the input
// named name, is the start of bzip2, xz or zstd data, whatever the file
// is called.
func notCompressed(head []byte, name string) error {
	var tool string
	switch {
	case len(head) >= 10 && string(head[:3]) == "BZh" && head[3] >= '1' && head[3] <= '9' &&
		(string(head[4:10]) == "\x31\x41\x59\x26\x53\x59" || string(head[4:10]) == "\x17\x72\x45\x38\x50\x90"):
		tool = "bzip2"
	case len(head) >= 6 && string(head[:6]) == "\xfd7zXZ\x00":
		tool = "xz"
	case len(head) >= 4 && string(head[:4]) == "\x28\xb5\x2f\xfd":
		tool = "zstd"
	default:
		return nil
	}
	if name == "-" {
		return fmt.Errorf("standard input: %s-compressed data, %w; decompress it in the pipe: %s -dc FILE | rankmetrics ... -",
			tool, ErrCompressed, tool)
	}
	plain, format := name, "FORMAT"
	for _, ext := range []string{".gz", ".bz2", ".xz", ".zst"} {
		plain = strings.TrimSuffix(plain, ext)
	}
	if plain == name {
		plain += ".plain"
	}
	for _, n := range []string{plain, name} {
		if f, err := DetectFormat(n); err == nil && format == "FORMAT" {
			format = f.String()
		}
	}
	if format == FormatTREC.String() { // one of a pair: no pipe for both
		return fmt.Errorf("%s: %s-compressed data, %w; decompress it first: %s -dc %s > %s",
			name, tool, ErrCompressed, tool, name, plain)
	}
	return fmt.Errorf("%s: %s-compressed data, %w; decompress it first: %s -dc %s > %s, or pipe it: %s -dc %s | rankmetrics ... --input-format %s -",
		name, tool, ErrCompressed, tool, name, plain, tool, name, format)
}

// gzipReader marks decompression errors as gzip's. The file name is added
// once, by whoever reports the error (the line reader, or readWhole).
type gzipReader struct {
	*gzip.Reader
}

func (g gzipReader) Read(p []byte) (int, error) {
	n, err := g.Reader.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}

type withCloser struct {
	io.ReaderAt
	io.Closer
}

// openRandomAccess opens a file for random access. A gzipped file (or
// stdin) is decompressed into memory first.
func openRandomAccess(path string, opts Options) (io.ReaderAt, int64, io.Closer, error) {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, nil, err
		}
		var magic [10]byte
		n, _ := f.ReadAt(magic[:], 0)
		if err := notCompressed(magic[:n], path); err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		if !(n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
			st, err := f.Stat()
			if err != nil {
				f.Close()
				return nil, 0, nil, err
			}
			if opts.BytesRead != nil {
				return countingReaderAt{f, opts.BytesRead}, st.Size(), f, nil
			}
			return f, st.Size(), f, nil
		}
		f.Close()
	}
	s, err := openStream(path, opts)
	if err != nil {
		return nil, 0, nil, err
	}
	defer s.Close()
	data, err := readWhole(s, path, opts.maxInput())
	if err != nil {
		return nil, 0, nil, err
	}
	return data, data.size, io.NopCloser(nil), nil
}

// wholeChunk is the size of the pieces in which readWhole holds an input.
const wholeChunk = 1 << 20

// chunks is an input held in memory in pieces of wholeChunk bytes (the
// last may be shorter), read in place through ReadAt.
type chunks struct {
	pieces [][]byte
	size   int64
}

// ReadAt implements io.ReaderAt.
func (c *chunks) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("chunks.ReadAt: negative offset")
	}
	n := 0
	for n < len(p) && off < c.size {
		piece := c.pieces[off/wholeChunk][off%wholeChunk:]
		k := copy(p[n:], piece)
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// readWhole reads r to its end, failing once it has given more than limit
// bytes, so a decompression bomb costs at most the limit. It holds the
// input in pieces of wholeChunk bytes, never copied again, so an input of
// n bytes takes n bytes and less than one more piece, where a buffer grown
// by doubling would take up to 3n while it grows.
func readWhole(r io.Reader, name string, limit int64) (*chunks, error) {
	c := &chunks{}
	for {
		piece := make([]byte, wholeChunk)
		k := 0
		var err error
		for k < len(piece) && err == nil {
			var m int
			m, err = r.Read(piece[k:])
			k += m
		}
		if k > 0 {
			if c.size+int64(k) > limit {
				return nil, fmt.Errorf("%s: %s", name, InputTooLarge(limit))
			}
			c.pieces = append(c.pieces, piece[:k:k])
			c.size += int64(k)
		}
		switch {
		case err == io.EOF: // not wrapped, by io.Reader's contract
			return c, nil
		case err != nil:
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
}

// countingReader adds the bytes it reads to n.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n.Add(int64(k))
	return k, err
}

// countingReaderAt adds the bytes it reads to n.
type countingReaderAt struct {
	r io.ReaderAt
	n *atomic.Int64
}

func (c countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	k, err := c.r.ReadAt(p, off)
	c.n.Add(int64(k))
	return k, err
}
