package trecfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
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

var qrelsFieldNames = [...]string{"1 (qid)", "2 (iteration)", "3 (docno)", "4 (relevance)"}

// qrelsFields splits a qrels line (without its newline) into its four
// fields, appended to f; skip reports a 10.0 comment line.
func qrelsFields(f [][]byte, line []byte, v treceval.Version, name string, lineNo int64) ([][]byte, bool, error) {
	if v == treceval.V10 && len(line) > 0 && line[0] == '#' {
		return f, true, nil
	}
	f = fields(f, line, 5)
	if len(f) < 4 {
		return f, false, &FieldError{File: name, Line: lineNo, Field: qrelsFieldNames[len(f)], Msg: "missing: a qrels line is 'qid iter docno rel'"}
	}
	if len(f) > 4 {
		return f, false, &FieldError{File: name, Line: lineNo, Field: "5", Msg: "unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)"}
	}
	return f, false, nil
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
		var skip bool
		var err error
		if f, skip, err = qrelsFields(f[:0], line, v, name, lineNo); err != nil {
			return nil, err
		} else if skip {
			continue
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
