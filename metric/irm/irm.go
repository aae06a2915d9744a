package irm

import (
	"cmp"
	"slices"
	"strings"
)

// Judgment is one qrels line of a query: a document and its label.
type Judgment struct {
	Docno string
	Rel   int64
}

// Doc is one run line of a query: a document and its score.
type Doc struct {
	Docno string
	Score float64
}

// Query is one query as ir_measures' providers read it.
type Query struct {
	// QID is the query id.
	QID string
	// Qrels holds the query's judgments in qrels order (eval's TREC
	// input gives it; other inputs give those of the documents the run
	// ranks, in run order, then the others in qrels order).
	Qrels []Judgment
	// Run holds the query's run lines in file order; it is empty for a
	// judged query the run lacks.
	Run []Doc
	// Subtopics holds the query's lines of the subtopic qrels, in file
	// order, for the diversity measures (pyndeval's); nil when none were
	// read.
	Subtopics []SubtopicJudgment
	// Memo holds what the measures of one query may share (a provider's
	// ranking, its ideal values), keyed by a type of the provider's
	// package; the engine empties it before each query. Nil until a
	// measure sets it.
	Memo map[any]any

	// The rankings and labels Ranked and Labels computed, shared by the
	// measures of the query.
	ranked [2 * (FileOrder + 1)][]Doc
	have   [2 * (FileOrder + 1)]bool
	labels map[string]int64
	hasLab bool
}

// SubtopicJudgment is one line of subtopic qrels (qid subtopic docno rel).
type SubtopicJudgment struct {
	// Subtopic numbers the subtopic id in the order the ids first appear
	// in the whole qrels file.
	Subtopic int
	Docno    string
	Rel      int64
}

// SubtopicReader is implemented by the measures that read the subtopic
// qrels (Query.Subtopics).
type SubtopicReader interface {
	ReadsSubtopics() bool
}

// Reset empties q for another query, keeping the capacity of its slices.
func (q *Query) Reset(qid string) {
	q.QID, q.Qrels, q.Run = qid, q.Qrels[:0], q.Run[:0]
	for i := range q.ranked {
		q.ranked[i] = q.ranked[i][:0]
		q.have[i] = false
	}
	q.hasLab = false
	clear(q.labels)
	clear(q.Memo)
	q.Subtopics = nil
}

// Ranked returns the run ranked in order o, with one line per docno when
// dedup is set (see Dedup), computed once per query and shared by its
// measures: the caller must not change it, nor Run once it is called
// (Reset starts over).
func (q *Query) Ranked(o Order, dedup bool) []Doc {
	i := int(o) * 2
	if dedup {
		i++
	}
	if !q.have[i] {
		run := q.Run
		if dedup {
			run = Dedup(run)
		}
		q.ranked[i] = sortInto(q.ranked[i][:0], run, o)
		q.have[i] = true
	}
	return q.ranked[i]
}

// Labels returns the labels of q's judgments by docno (the last line of a
// docno judged twice, as ir_measures' dictionary of the qrels), computed
// once per query.
func (q *Query) Labels() map[string]int64 {
	if !q.hasLab {
		if q.labels == nil {
			q.labels = make(map[string]int64, len(q.Qrels))
		}
		for _, j := range q.Qrels {
			q.labels[j.Docno] = j.Rel
		}
		q.hasLab = true
	}
	return q.labels
}

// Measure is one provider measure with its parameters set.
type Measure interface {
	// Value returns the value of q under the measure; ok is false when
	// the provider yields no value for q. An error says why the provider
	// cannot compute q (it names the query).
	Value(q *Query) (v float64, ok bool, err error)
}

// Order is a provider's order of the documents of a run.
type Order uint8

const (
	// DocnoAsc ranks by score, descending, ties by docno ascending (the
	// judged and msmarco providers).
	DocnoAsc Order = iota
	// DocnoDesc ranks by score, descending, ties by docno descending
	// (gdeval).
	DocnoDesc
	// FileOrder ranks by score, descending, ties in file order (the
	// accuracy provider, cwl_eval).
	FileOrder
)

// SortRun returns the documents of run ranked in order o, in a new slice.
func SortRun(run []Doc, o Order) []Doc {
	return sortInto(nil, run, o)
}

// sortInto appends run to out and ranks it in order o.
func sortInto(out, run []Doc, o Order) []Doc {
	out = append(out, run...)
	switch o {
	case DocnoAsc:
		slices.SortFunc(out, func(a, b Doc) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Docno, b.Docno))
		})
	case DocnoDesc:
		slices.SortFunc(out, func(a, b Doc) int {
			return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(b.Docno, a.Docno))
		})
	default:
		slices.SortStableFunc(out, func(a, b Doc) int { return cmp.Compare(b.Score, a.Score) })
	}
	return out
}

// Dedup returns run with one line per docno, as ir_measures' dictionary
// of a run keeps it: at the position of the docno's first line, with the
// score of its last. It returns run itself when no docno repeats.
func Dedup(run []Doc) []Doc {
	seen := make(map[string]int, len(run))
	var out []Doc
	for i, d := range run {
		j, dup := seen[d.Docno]
		if !dup {
			seen[d.Docno] = len(seen)
			if out != nil {
				out = append(out, d)
			}
			continue
		}
		if out == nil {
			out = slices.Clone(run[:i])
		}
		out[j].Score = d.Score
	}
	if out == nil {
		return run
	}
	return out
}

// judgedMap returns the labels of q's judgments by docno.
func judgedMap(q *Query) map[string]int64 { return q.Labels() }
