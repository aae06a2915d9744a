package beamio

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/rankmetrics/rankmetrics/runio"
)

// ReadSubtopicQrels reads the qrels files the globs match, through Beam's
// file systems (local paths, gs://...; gzip detected from the content), as
// the subtopic qrels of ir_measures' diversity measures (qid subtopic
// docno rel: the iteration column of TREC qrels is the subtopic), for
// rm.EvalOptions.SubtopicQrels. It is what `rankmetrics eval` reads from
// its qrels file when a measure needs them (runio.ReadSubtopicQrelsFile).
//
// It runs where the pipeline is built, not in the pipeline: the files are
// read in the order of their paths, each once, as if they were one file,
// so that topics and subtopics are numbered in the order they first appear
// there, the order of the items of a query in ReadTREC (file name, then
// position). A glob that matches no file is an error, as in ReadTREC. The
// result is held whole in memory: about the size of the files, plus a few
// tens of bytes a line.
func ReadSubtopicQrels(ctx context.Context, globs []string) (*runio.SubtopicQrels, error) {
	var paths []string
	for _, g := range globs {
		m, err := match(ctx, g)
		if err != nil {
			return nil, fmt.Errorf("subtopic qrels: %s: %w", g, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("subtopic qrels: %s: no file matches", g)
		}
		paths = append(paths, m...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := &runio.SubtopicQrels{Topics: map[string][]runio.SubtopicJudgment{}}
	index := map[string]int{}
	for _, p := range paths {
		q, err := readSubtopicFile(ctx, p)
		if err != nil {
			return nil, err
		}
		mergeSubtopics(out, index, q)
	}
	return out, nil
}

// match expands one glob with Beam's file system of its scheme.
func match(ctx context.Context, glob string) ([]string, error) {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return fs.List(ctx, glob)
}

// readSubtopicFile reads one file, gzipped or not, as subtopic qrels.
func readSubtopicFile(ctx context.Context, path string) (*runio.SubtopicQrels, error) {
	rc, err := openRaw(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("subtopic qrels: %s: %w", path, err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, lineBuffer)
	var r io.Reader = br
	if m, err := br.Peek(2); err == nil && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("subtopic qrels: %s: gzip: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	q, err := runio.ReadSubtopicQrels(ctx, r, path)
	if err != nil {
		return nil, fmt.Errorf("subtopic qrels (the qrels read again for a diversity measure): %w", err)
	}
	return q, nil
}

// mergeSubtopics appends q, read from the next file, to out, as reading
// the files one after the other as one file would: new topics and
// subtopics are numbered after those of out. index maps out's subtopic ids
// to their numbers.
func mergeSubtopics(out *runio.SubtopicQrels, index map[string]int, q *runio.SubtopicQrels) {
	remap := make([]int, len(q.Subtopics))
	for i, s := range q.Subtopics {
		n, ok := index[s]
		if !ok {
			n = len(out.Subtopics)
			index[s] = n
			out.Subtopics = append(out.Subtopics, s)
		}
		remap[i] = n
	}
	for _, qid := range q.QIDs {
		if _, seen := out.Topics[qid]; !seen {
			out.QIDs = append(out.QIDs, qid)
		}
		for _, j := range q.Topics[qid] {
			j.Subtopic = remap[j.Subtopic]
			out.Topics[qid] = append(out.Topics[qid], j)
		}
	}
}
