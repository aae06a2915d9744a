package trecfile

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// QrelsTopic is one topic's judgements in file order (treceval.Ranker
// takes them in any order and finds duplicates itself).
type QrelsTopic struct {
	Qid    string
	Judged []treceval.Judgment
}

// Qrels is a whole qrels file grouped by topic, topics sorted by qid.
type Qrels struct {
	Topics []QrelsTopic
	rel0   int64
}

// RelAbove0 counts the judgements above 0 (trec_eval's num_rel with -c).
func (q *Qrels) RelAbove0() int64 { return q.rel0 }

// ParseQrels parses a qrels file's content: lines "qid iter docno rel",
// with '#' comment lines in 10.0. Blank lines and lines with more or fewer
// fields are malformed, as in trec_eval.
func ParseQrels(name string, data []byte, v treceval.Version) (*Qrels, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: empty qrels file", name)
	}
	sc := runio.NewTRECBytesScanner(cutDataAtLineNUL(data), name, true, mode(v), lineOptions())
	byQid := map[string]int{}
	q := &Qrels{}
	var a Arena
	cur := -1 // topic of the previous line
	for {
		f, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		rel := treceval.Atol(unsafeString(f[3]))
		if cur < 0 || q.Topics[cur].Qid != unsafeString(f[0]) {
			k, ok := byQid[unsafeString(f[0])]
			if !ok {
				k = len(q.Topics)
				qid := a.String(f[0])
				byQid[qid] = k
				q.Topics = append(q.Topics, QrelsTopic{Qid: qid})
			}
			cur = k
		}
		q.Topics[cur].Judged = append(q.Topics[cur].Judged, treceval.Judgment{Docno: a.String(f[2]), Rel: rel})
		if rel > 0 {
			q.rel0++
		}
	}
	if len(q.Topics) == 0 {
		return nil, errors.New(name + ": no judgements in qrels file")
	}
	slices.SortFunc(q.Topics, func(a, b QrelsTopic) int { return strings.Compare(a.Qid, b.Qid) })
	return q, nil
}
