package trecfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// QrelsTopic is one topic's judgements, sorted by docno (judgements of
// the same document in file order).
type QrelsTopic struct {
	Qid    string
	Judged []treceval.Judgment
}

// Qrels is a whole qrels file grouped by topic, topics sorted by qid.
type Qrels struct {
	Topics []QrelsTopic
	// RelAbove0 counts the judgements above 0 (trec_eval's num_rel with
	// -c).
	RelAbove0 int64
}

// Find returns the judgements of topic qid, or nil.
func (q *Qrels) Find(qid string) *QrelsTopic {
	i, ok := slices.BinarySearchFunc(q.Topics, qid, func(t QrelsTopic, s string) int { return strings.Compare(t.Qid, s) })
	if !ok {
		return nil
	}
	return &q.Topics[i]
}

// ParseQrels parses a qrels file's content: lines "qid iter docno rel",
// with '#' comment lines in 10.0. Blank lines and lines with more or fewer
// fields are malformed, as in trec_eval.
func ParseQrels(name string, data []byte, v treceval.Version) (*Qrels, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: empty qrels file", name)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, &FieldError{File: name, Line: int64(bytes.Count(data[:i], []byte{'\n'})) + 1, Field: "line", Msg: "NUL byte (trec_eval cannot read it)"}
	}
	byQid := map[string]int{}
	q := &Qrels{}
	var f [][]byte
	var a Arena
	lineNo := int64(0)
	cur := -1 // topic of the previous line
	for len(data) > 0 {
		lineNo++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		if v == treceval.V10 && len(line) > 0 && line[0] == '#' {
			continue
		}
		f = fields(f[:0], line, 5)
		names := [...]string{"1 (qid)", "2 (iteration)", "3 (docno)", "4 (relevance)"}
		if len(f) < 4 {
			return nil, &FieldError{File: name, Line: lineNo, Field: names[len(f)], Msg: "missing: a qrels line is 'qid iter docno rel'"}
		}
		if len(f) > 4 {
			return nil, &FieldError{File: name, Line: lineNo, Field: "5", Msg: "unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)"}
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
			q.RelAbove0++
		}
	}
	if len(q.Topics) == 0 {
		return nil, errors.New(name + ": no judgements in qrels file")
	}
	slices.SortFunc(q.Topics, func(a, b QrelsTopic) int { return strings.Compare(a.Qid, b.Qid) })
	// The order of judgements of the same document does not matter: a
	// duplicate is an error whenever the topic is evaluated.
	for i := range q.Topics {
		slices.SortFunc(q.Topics[i].Judged, func(a, b treceval.Judgment) int { return strings.Compare(a.Docno, b.Docno) })
	}
	return q, nil
}
