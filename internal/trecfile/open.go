package trecfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// OpenSeekable opens the file name for reading. The trec_eval readers read
// a file more than once (a check, then topic by topic), so a file that
// cannot seek (a pipe, a FIFO, a process substitution <(...)) is first
// copied into a temporary file, removed at once (its space is freed when
// it is closed), and that copy is returned.
func OpenSeekable(ctx context.Context, name string) (*os.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		return f, nil
	}
	if _, err := f.Seek(0, io.SeekCurrent); err == nil {
		return f, nil
	}
	defer f.Close()
	tmp, err := os.CreateTemp("", "rankmetrics-trec_eval-*")
	if err != nil {
		return nil, fmt.Errorf("%s cannot seek, and copying it to a temporary file failed (give a regular file, or set TMPDIR): %w", name, err)
	}
	os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, ctxReader{ctx, f}); err != nil {
		tmp.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%s cannot seek, and copying it to a temporary file failed (give a regular file, or set TMPDIR): %w", name, err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return tmp, nil
}

// ctxReader is r stopping with ctx's error once ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// OpenQrels reads the qrels file name: indexed by topic blocks (memory
// per topic, not per line, see IndexQrels), or whole if its topics are
// scattered. The function returned closes it.
func OpenQrels(ctx context.Context, name string, v treceval.Version) (Judgements, func(), error) {
	f, err := OpenSeekable(ctx, name)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read qrels file: %w", err)
	}
	x, err := IndexQrels(ctx, f, name, v)
	if err == nil {
		return x, func() { f.Close() }, nil
	}
	if !errors.Is(err, ErrScatteredQrels) {
		f.Close()
		return nil, nil, err
	}
	data, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<62))
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read qrels file: %w", err)
	}
	q, err := ParseQrels(name, data, v)
	if err != nil {
		return nil, nil, err
	}
	return q, func() {}, nil
}

// Source gives a run's topics in increasing qid (byte) order, each once.
type Source struct {
	next  func(ctx context.Context) (string, []treceval.Doc, error)
	runid func() string
	close func()
}

// Next returns the next topic's qid and documents (valid until the next
// call), or io.EOF after the last.
func (t *Source) Next(ctx context.Context) (string, []treceval.Doc, error) { return t.next(ctx) }

// Runid is the run id of the run's last line.
func (t *Source) Runid() string { return t.runid() }

// Close closes the run's file.
func (t *Source) Close() { t.close() }

// Source returns the topics of a run held in memory.
func (r *Run) Source() *Source {
	i := 0
	return &Source{
		next: func(context.Context) (string, []treceval.Doc, error) {
			if i >= len(r.Topics) {
				return "", nil, io.EOF
			}
			t := &r.Topics[i]
			i++
			return t.Qid, t.Docs, nil
		},
		runid: func() string { return r.Runid },
		close: func() {},
	}
}

// ReadRun checks every line of the run in f (from its start) with Scan,
// which finds where its topics are (trec_eval reads a run whole before it
// prints anything), then reads it again in qid order: as a stream if its
// topics are sorted, block by block if each is in one block, gathered in
// memory otherwise. The Source closes f; so does an error.
func ReadRun(ctx context.Context, f *os.File, name string, v treceval.Version) (*Source, error) {
	s, err := scanFile(ctx, NewScanner(f, name, false, v), false)
	layout := runio.TopicsScattered
	if err == nil {
		layout = s.layout
		if s.lines == 0 {
			err = fmt.Errorf("%s: %w", name, ErrEmptyRun)
		}
	}
	if err == nil && layout != runio.TopicsInBlocks {
		if _, err = f.Seek(0, io.SeekStart); err != nil {
			err = fmt.Errorf("%s: %w", name, err)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	switch layout {
	case runio.TopicsSorted:
		rs := NewRunScanner(f, name, v)
		return &Source{next: rs.Next, runid: rs.Runid, close: func() { f.Close() }}, nil
	case runio.TopicsInBlocks:
		return blockTopics(f, name, v, s.blocks, string(s.runid)), nil
	}
	return GatherRun(ctx, f, name, v)
}

// GatherRun reads the run in f (from where it is) into memory and closes
// f.
func GatherRun(ctx context.Context, f *os.File, name string, v treceval.Version) (*Source, error) {
	run, err := CollectRun(ctx, NewRunScanner(f, name, v))
	f.Close()
	if errors.Is(err, ErrEmptyRun) {
		err = fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return nil, err
	}
	return run.Source(), nil
}

// blockTopics reads the run's topics from f block by block, in the order
// of blocks, and closes f at the end.
func blockTopics(f *os.File, name string, v treceval.Version, blocks []runio.TopicBlock, runid string) *Source {
	s := NewRunScanner(nil, name, v)
	var buf []byte
	var br bytes.Reader
	i := 0
	next := func(ctx context.Context) (string, []treceval.Doc, error) {
		if i >= len(blocks) {
			return "", nil, io.EOF
		}
		b := &blocks[i]
		i++
		n := int(b.End - b.Off)
		buf = slices.Grow(buf[:0], n)[:n]
		if _, err := f.ReadAt(buf, b.Off); err != nil {
			return "", nil, fmt.Errorf("%s: %w", name, err)
		}
		br.Reset(buf)
		s.ResetBlock(&br, b.FirstLine)
		qid, docs, err := s.Next(ctx)
		if err == io.EOF || err == nil && qid != b.QID {
			err = fmt.Errorf("%s: the file changed while it was read (line %d)", name, b.FirstLine)
		}
		return qid, docs, err
	}
	return &Source{next: next, runid: func() string { return runid }, close: func() { f.Close() }}
}
