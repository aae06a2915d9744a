package treceval

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// TopicValues holds one topic's measure values.
type TopicValues struct {
	// Qid is the topic id.
	Qid string
	// V holds the values in the order of Evaluator.Names.
	V []float64
	// Relstring is the relstring measure's text, if requested.
	Relstring []byte
}

// Evaluate computes every requested measure of topic qid from its
// judgements (in any order) and retrieved documents, into tv.
func (e *Evaluator) Evaluate(qid string, judged []Judgment, docs []Doc, tv *TopicValues) error {
	return e.EvaluateContext(context.Background(), qid, judged, docs, tv)
}

// checkEvery is how many iterations a long loop runs between two checks
// of its context.
const checkEvery = 1 << 16

// EvaluateContext is Evaluate stopping with ctx's error when ctx ends
// during the topic (a judgement of 2^24 makes the graded measures loop
// over 2^24 levels).
func (e *Evaluator) EvaluateContext(ctx context.Context, qid string, judged []Judgment, docs []Doc, tv *TopicValues) error {
	e.ctx = ctx
	defer func() { e.ctx = nil }()
	if err := ctx.Err(); err != nil {
		return err
	}
	e.topic++
	tv.Qid = qid
	tv.V = slices.Grow(tv.V[:0], e.nvals)[:e.nvals]
	clear(tv.V)
	tv.Relstring = tv.Relstring[:0]
	var r *Ranked
	if e.rank {
		var err error
		if r, err = e.ranker.Rank(judged, docs); err != nil {
			var je *JudgmentError
			if errors.As(err, &je) {
				je.Qid = qid
			}
			return fmt.Errorf("topic %s: %w", qid, err)
		}
	}
	for _, m := range e.ms {
		if err := m.def.calc(e, m, r, tv.V[m.off:m.off+len(m.names)]); err != nil {
			if ctx.Err() != nil {
				return err
			}
			return fmt.Errorf("topic %s: measure %s: %w", qid, m.def.name, err)
		}
		if m.def.print == prRelstring {
			tv.Relstring = append(tv.Relstring, e.relstr...)
		}
	}
	return nil
}

// Follow sets the state trec_eval carries from topic to topic to what it
// is after a topic judged prev, or before the first topic when prev is
// nil: a topic whose judgements are all negative inherits the judgement
// levels of the topic evaluated before it, and fails as the first topic.
// Topics with a judgement of 0 or more do not depend on it. A caller that
// evaluates topics out of trec_eval's order (increasing qid) calls Follow
// before each all-negative topic, with the topic that precedes it in that
// order; prev must have a judgement of 0 or more.
func (e *Evaluator) Follow(prev []Judgment) error {
	if !e.rank {
		return nil // no topic is ranked: there is no such state
	}
	e.topic++
	k := e.ranker
	k.levelBound = 0
	k.ranked.levels, k.ranked.NumRelLevels = nil, 0
	if prev == nil {
		return nil
	}
	_, err := k.Rank(prev, nil)
	return err
}

// ctxErr is the error of the context of the topic being evaluated.
func (e *Evaluator) ctxErr() error {
	if e.ctx == nil {
		return nil
	}
	return e.ctx.Err()
}

// checkCtx is ctxErr every checkEvery iterations i of a loop, nil at the
// others.
func (e *Evaluator) checkCtx(i int64) error {
	if i%checkEvery != 0 {
		return nil
	}
	return e.ctxErr()
}

// missingDoc is the one document trec_eval 10.0 ranks for a judged topic
// that the run lacks when -c is given.
var missingDoc = []Doc{{Docno: "ceci_nest_pas_un_docno", Score: 1}}

// EvaluateMissing computes the values trec_eval 10.0 gives, with -c, a
// judged topic absent from the run: the measures of a one-document
// ranking of an unjudged document, with num_ret, utility, relstring, the
// unj values and rbp_resid then set to zero (or empty), matched by their
// printed names as trec_eval matches them.
func (e *Evaluator) EvaluateMissing(qid string, judged []Judgment, tv *TopicValues) error {
	return e.EvaluateMissingContext(context.Background(), qid, judged, tv)
}

// EvaluateMissingContext is EvaluateMissing stopping with ctx's error when
// ctx ends during the topic.
func (e *Evaluator) EvaluateMissingContext(ctx context.Context, qid string, judged []Judgment, tv *TopicValues) error {
	if err := e.EvaluateContext(ctx, qid, judged, missingDoc, tv); err != nil {
		return err
	}
	for _, m := range e.ms {
		for i, n := range m.names {
			switch {
			case n == "num_ret", n == "utility", n == "rbp_resid", len(n) >= 3 && n[:3] == "unj":
				tv.V[m.off+i] = 0
			case n == "relstring":
				tv.Relstring = tv.Relstring[:0]
			}
		}
	}
	return nil
}

// Summary accumulates topic values into trec_eval's "all" values.
type Summary struct {
	e    *Evaluator
	sum  []float64
	numQ int64
}

// NewSummary returns an empty Summary for e's measures.
func (e *Evaluator) NewSummary() *Summary {
	return &Summary{e: e, sum: make([]float64, e.nvals)}
}

// SummaryOf returns the Summary of numQ topics whose values add up to sum,
// one per value of e in order (a copy is kept): for a caller that added
// them another way, exactly for instance. It panics if len(sum) is not
// e.NumValues().
func (e *Evaluator) SummaryOf(sum []float64, numQ int64) *Summary {
	if len(sum) != e.nvals {
		panic("treceval: SummaryOf: wrong number of sums")
	}
	return &Summary{e: e, sum: slices.Clone(sum), numQ: numQ}
}

// Add adds one topic's values.
func (s *Summary) Add(tv *TopicValues) {
	for i, v := range tv.V {
		s.sum[i] += v
	}
	s.numQ++
}

// NumQueries is the number of topics added.
func (s *Summary) NumQueries() int64 { return s.numQ }

// Final returns the summary values. With cfg.Complete, averages are over
// numJudgedTopics and num_rel is relJudged (trec_eval counts every
// judgement above 0 there, whatever -l says).
func (s *Summary) Final(numJudgedTopics, relJudged int64) []float64 {
	out := slices.Clone(s.sum)
	n := s.numQ
	if s.e.cfg.Complete {
		n = numJudgedTopics
	}
	for _, m := range s.e.ms {
		v := out[m.off : m.off+len(m.names)]
		switch m.def.avg {
		case avgMean:
			if n != 0 {
				for i := range v {
					v[i] /= float64(n)
				}
			}
		case avgGeo:
			if n > 0 {
				sum := v[0]
				if s.e.cfg.Complete {
					sum += float64(n-s.numQ) * math.Log(minGeoMean)
				}
				v[0] = math.Exp(sum / float64(n))
			}
		case avgNumQ:
			v[0] = float64(n)
		case avgNumRel:
			if s.e.cfg.Complete {
				v[0] = float64(relJudged)
			}
		}
	}
	return out
}

// AppendTopic appends a topic's lines as trec_eval -q prints them.
func (e *Evaluator) AppendTopic(b []byte, tv *TopicValues) []byte {
	for _, m := range e.ms {
		switch m.def.print {
		case prDouble:
			for i, n := range m.names {
				b = appendLine(b, n, tv.Qid, tv.V[m.off+i])
			}
		case prLong:
			b = appendLong(b, m.names[0], tv.Qid, tv.V[m.off])
		case prRelstring:
			b = appendName(b, m.names[0])
			b = append(b, tv.Qid...)
			b = append(b, "\t'"...)
			b = append(b, tv.Relstring...)
			b = append(b, "'\n"...)
		}
	}
	return b
}

// AppendSummary appends the summary lines ("all") as trec_eval prints
// them, final being Summary.Final's values and runid the run's id.
func (e *Evaluator) AppendSummary(b []byte, final []float64, runid string) []byte {
	for _, m := range e.ms {
		switch m.def.print {
		case prDouble, prSummary:
			for i, n := range m.names {
				b = appendLine(b, n, "all", final[m.off+i])
			}
		case prLong, prSummaryLong:
			b = appendLong(b, m.names[0], "all", final[m.off])
		case prRunid:
			b = appendName(b, "runid")
			b = append(b, "all\t"...)
			b = append(b, runid...)
			b = append(b, '\n')
		}
	}
	return b
}

func appendLine(b []byte, name, qid string, v float64) []byte {
	b = appendName(b, name)
	b = append(b, qid...)
	b = append(b, '\t')
	b = AppendFixed(b, v, 4, 6)
	return append(b, '\n')
}

func appendLong(b []byte, name, qid string, v float64) []byte {
	b = appendName(b, name)
	b = append(b, qid...)
	b = append(b, '\t')
	b = strconvAppendInt(b, cLong(v))
	return append(b, '\n')
}
