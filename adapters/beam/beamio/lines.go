package beamio

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/rankmetrics/rankmetrics/runio"
)

// DefaultBlockSize is the size of the byte ranges a text file is split into
// before reading, as Beam's textio does.
const DefaultBlockSize = 64 << 20

// compressedEnd is the end of the restriction of a gzip file, whose
// decompressed size is unknown until it is read: such a file is read
// whole by one worker. It leaves room for the tracker's end+1.
const compressedEnd = math.MaxInt64 / 2

// lineSplitter is the splittable part of the text readers: a file is
// split into byte ranges, and each line belongs to the range its first
// byte falls in. Offsets are positions in the decompressed stream.
type lineSplitter struct {
	// BlockSize is the size of the initial splits; DefaultBlockSize when 0.
	BlockSize int64
	// MaxLineBytes is the longest line read; DefaultMaxLineBytes when 0.
	MaxLineBytes int64
}

// maxLine returns the longest line read.
func (s *lineSplitter) maxLine() int {
	if s.MaxLineBytes <= 0 || s.MaxLineBytes > math.MaxInt32 {
		if s.MaxLineBytes > 0 {
			return math.MaxInt32
		}
		return DefaultMaxLineBytes
	}
	return int(s.MaxLineBytes)
}

// longLine is the reason given for a line over the MaxLineBytes limit:
// rankmetrics eval's, naming the same flag.
func longLine(max int) string {
	return runio.LineTooLong(max)
}

// parse returns the reason a line over the limit is rejected, or else
// the reason parse gives.
func (s *lineSplitter) parse(line []byte, long bool, parse func() string) string {
	if long {
		return longLine(s.maxLine())
	}
	return parse()
}

// clipLong returns the start of a line over the limit, for a dead letter.
func clipLong(prefix []byte) string {
	return string(prefix[:min(len(prefix), 256)]) + "..."
}

// rawFile is a file opened through Beam's file systems, as stored: gzip is
// detected from the content, whatever the name or the ReadableFile's
// compression setting says.
type rawFile struct {
	io.ReadCloser
	fs io.Closer
}

// Close closes the file and its file system.
func (f rawFile) Close() error {
	return errors.Join(f.ReadCloser.Close(), f.fs.Close())
}

// Seek seeks when the underlying file can.
func (f rawFile) Seek(offset int64, whence int) (int64, error) {
	if sk, ok := f.ReadCloser.(io.Seeker); ok {
		return sk.Seek(offset, whence)
	}
	return 0, errors.ErrUnsupported
}

// openRaw opens path through Beam's file systems.
func openRaw(ctx context.Context, path string) (rawFile, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return rawFile{}, err
	}
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return rawFile{}, err
	}
	return rawFile{ReadCloser: rc, fs: fs}, nil
}

// isGzip peeks at the first bytes of a file.
func isGzip(ctx context.Context, file fileio.ReadableFile) (bool, error) {
	rc, err := openRaw(ctx, file.Metadata.Path)
	if err != nil {
		return false, err
	}
	defer rc.Close()
	var b [2]byte
	n, err := io.ReadFull(rc, b[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return n == 2 && b[0] == 0x1f && b[1] == 0x8b, nil
}

// CreateInitialRestriction returns the byte range of the whole file; for a
// gzip file, an unbounded range that is never split up front.
func (s *lineSplitter) CreateInitialRestriction(file fileio.ReadableFile) offsetrange.Restriction {
	if gz, err := isGzip(context.Background(), file); err == nil && gz {
		return offsetrange.Restriction{Start: 0, End: compressedEnd}
	}
	// On an error the file is read as plain text; ProcessElement reports
	// the error when it opens the file.
	return offsetrange.Restriction{Start: 0, End: file.Metadata.Size}
}

// SplitRestriction splits a plain file into blocks of BlockSize bytes,
// merging a short last block into the one before.
func (s *lineSplitter) SplitRestriction(_ fileio.ReadableFile, rest offsetrange.Restriction) []offsetrange.Restriction {
	if rest.End == compressedEnd {
		return []offsetrange.Restriction{rest}
	}
	size := s.BlockSize
	if size <= 0 {
		size = DefaultBlockSize
	}
	splits := rest.SizedSplits(size)
	if n := len(splits); n > 1 && splits[n-1].End-splits[n-1].Start <= size/4 {
		splits[n-2].End = splits[n-1].End
		splits = splits[:n-1]
	}
	return splits
}

// RestrictionSize returns the bytes of the range, or the file size for a
// compressed file.
func (s *lineSplitter) RestrictionSize(file fileio.ReadableFile, rest offsetrange.Restriction) float64 {
	if rest.End == compressedEnd {
		return float64(file.Metadata.Size)
	}
	return rest.Size()
}

// CreateTracker returns a thread-safe offset range tracker.
func (s *lineSplitter) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

// lineReader reads lines and their offsets.
type lineReader struct {
	br   *bufio.Reader
	pos  int64 // offset of the next byte
	max  int   // the longest line returned whole
	long []byte
}

// next returns the next line without its "\n" or "\r\n", and its offset.
// A line longer than r.max bytes is read to its end but only its first
// r.max bytes are kept and returned, with long set, so that memory stays
// bounded. It returns io.EOF at the end of the input; a last line without a
// newline is returned first.
func (r *lineReader) next() (line []byte, off int64, long bool, err error) {
	off = r.pos
	b, err := r.br.ReadSlice('\n')
	r.pos += int64(len(b))
	truncated := false
	if errors.Is(err, bufio.ErrBufferFull) {
		keep := r.max + 2 // room for "\r\n" after a line of r.max bytes
		r.long = append(r.long[:0], b[:min(len(b), keep)]...)
		truncated = len(b) > keep
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = r.br.ReadSlice('\n')
			r.pos += int64(len(b))
			room := keep - len(r.long)
			if len(b) > room {
				truncated = true
			}
			r.long = append(r.long, b[:min(len(b), max(room, 0))]...)
		}
		b = r.long
	}
	if err != nil && !(errors.Is(err, io.EOF) && r.pos > off) {
		return nil, off, false, err
	}
	n := len(b)
	if !truncated && n > 0 && b[n-1] == '\n' {
		n--
		if n > 0 && b[n-1] == '\r' {
			n--
		}
	}
	if truncated || n > r.max {
		return b[:min(n, r.max)], off, true, nil
	}
	return b[:n], off, false, nil
}

// lineBuffer is the read buffer size of the text readers.
const lineBuffer = 1 << 16

// open opens the file, decompressing a gzip file, positioned at offset 0.
// seeker is set for a plain file that can seek.
func open(ctx context.Context, file fileio.ReadableFile, maxLine int) (rc io.ReadCloser, r *lineReader, seeker io.Seeker, err error) {
	raw, err := openRaw(ctx, file.Metadata.Path)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", file.Metadata.Path, err)
	}
	rc = raw
	br := bufio.NewReaderSize(rc, lineBuffer)
	if m, err := br.Peek(2); err == nil && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			rc.Close()
			return nil, nil, nil, fmt.Errorf("%s: gzip: %w", file.Metadata.Path, err)
		}
		return rc, &lineReader{br: bufio.NewReaderSize(zr, lineBuffer), max: maxLine}, nil, nil
	}
	if _, ok := raw.ReadCloser.(io.Seeker); ok {
		seeker = raw
	}
	return rc, &lineReader{br: br, max: maxLine}, seeker, nil
}

// seekTo moves r to the first line that starts at or after start: it skips
// to offset start-1 (by seeking when the file allows it) and then to the
// end of that line. It returns false when the input ends first.
func seekTo(rc io.Reader, sk io.Seeker, r *lineReader, start int64) (bool, error) {
	if start == 0 {
		return true, nil
	}
	target := start - 1
	if sk != nil && target > lineBuffer {
		// A plain file: seek instead of reading what comes before.
		if _, err := sk.Seek(target, io.SeekStart); err == nil {
			r.br.Reset(rc)
			r.pos = target
		}
	}
	for r.pos < target {
		n, err := r.br.Discard(int(min(target-r.pos, 1<<30)))
		r.pos += int64(n)
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
	// Read to the end of the line holding byte start-1.
	if _, _, _, err := r.next(); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// scan calls fn for every line that starts within the tracker's
// restriction, with its offset, and returns the number of blank lines
// among them (which fn does not see). A line over the MaxLineBytes limit
// is passed cut to the limit, with long set.
func (s *lineSplitter) scan(ctx context.Context, rt *sdf.LockRTracker, file fileio.ReadableFile, fn func(off int64, line []byte, long bool)) (blank int64, err error) {
	rc, r, sk, err := open(ctx, file, s.maxLine())
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	ok, err := seekTo(rc, sk, r, start)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", file.Metadata.Path, err)
	}
	if !ok {
		// No line starts in the range.
		rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
		return 0, nil
	}
	for n := 0; rt.TryClaim(r.pos); n++ {
		if n&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return blank, err
			}
		}
		line, off, long, err := r.next()
		if errors.Is(err, io.EOF) {
			rt.TryClaim(rt.GetRestriction().(offsetrange.Restriction).End)
			break
		}
		if err != nil {
			return blank, fmt.Errorf("%s@%d: %w", file.Metadata.Path, off, err)
		}
		if !long && isBlank(line) {
			blank++
			continue
		}
		fn(off, line, long)
	}
	return blank, nil
}

// firstLine returns the first non-blank line of a file and its offset, or
// ok false for a file with none; long says it is over maxLine bytes (and
// cut to maxLine).
func firstLine(ctx context.Context, file fileio.ReadableFile, maxLine int) (line []byte, off int64, long, ok bool, err error) {
	rc, r, _, err := open(ctx, file, maxLine)
	if err != nil {
		return nil, 0, false, false, err
	}
	defer rc.Close()
	for {
		line, off, long, err := r.next()
		if errors.Is(err, io.EOF) {
			return nil, 0, false, false, nil
		}
		if err != nil {
			return nil, 0, false, false, fmt.Errorf("%s@%d: %w", file.Metadata.Path, off, err)
		}
		if long || !isBlank(line) {
			return append([]byte(nil), line...), off, long, true, nil
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
