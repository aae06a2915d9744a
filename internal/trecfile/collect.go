package trecfile

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// RunTopic is one topic of a run held in memory.
type RunTopic struct {
	Qid  string
	Docs []treceval.Doc
}

// Run is a whole run in memory, topics sorted by qid; lines of a topic
// that were not consecutive in the file are gathered into one topic.
type Run struct {
	Topics []RunTopic
	Runid  string
	Lines  int64
}

// BytesPerLine is the memory a run line costs when a run is gathered in
// memory, besides the bytes of its docno (a treceval.Doc).
const BytesPerLine = 24

// CollectRun reads a whole run into memory.
func CollectRun(ctx context.Context, s *RunScanner) (*Run, error) {
	var a Arena
	byQid := map[string]int{}
	run := &Run{}
	for {
		qid, docs, err := s.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		k, ok := byQid[qid]
		if !ok {
			k = len(run.Topics)
			byQid[qid] = k
			run.Topics = append(run.Topics, RunTopic{Qid: qid})
		}
		t := &run.Topics[k]
		for _, d := range docs {
			t.Docs = append(t.Docs, treceval.Doc{Docno: a.String(unsafeBytes(d.Docno)), Score: d.Score})
		}
	}
	if len(run.Topics) == 0 {
		return nil, ErrEmptyRun
	}
	slices.SortFunc(run.Topics, func(a, b RunTopic) int { return strings.Compare(a.Qid, b.Qid) })
	run.Runid = s.Runid()
	run.Lines = s.Lines()
	return run, nil
}
