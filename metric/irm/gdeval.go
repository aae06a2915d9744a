package irm

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// GdevalMaxJudgment is gdeval's largest label: it refuses a qrels file
// with a greater one, and ERR's gains are over 2 to its power.
const GdevalMaxJudgment = 4

// Gdeval is gdeval's nDCG@K (ir_measures' nDCG(dcg='exp-log2')@K) or,
// with ERR set, its ERR@K. Gdeval keeps the positive judgments only;
// ranks the run's lines (every line, a docno ranked twice counts twice)
// by score, ties by docno descending; a document's gain is 2^label-1, its
// discount 1/ln(rank+1) for nDCG, whose ideal ranks the positive
// judgments by label; ERR's stopping probability at a document is
// (2^label-1)/2^4. Gdeval prints each value with 5 decimals, which
// ir_measures reads back: Value rounds likewise. A query without a
// positive judgment, or the run lacks, scores 0.
type Gdeval struct {
	K   int
	ERR bool
}

// Value returns q's value; an error for a label above 4, which gdeval
// refuses.
func (m Gdeval) Value(q *Query) (float64, bool, error) {
	var gains []float64
	label := map[string]int64{}
	for _, j := range q.Qrels {
		if j.Rel > GdevalMaxJudgment {
			return 0, false, fmt.Errorf("query %q: document %q: label %d: gdeval (ERR, nDCG(dcg='exp-log2')) takes labels up to %d, and stops with a format error on this qrels", q.QID, j.Docno, j.Rel, GdevalMaxJudgment)
		}
		if j.Rel > 0 {
			gains = append(gains, float64(j.Rel))
			if l, dup := label[j.Docno]; !dup || j.Rel < l {
				label[j.Docno] = j.Rel
			}
		}
	}
	if len(gains) == 0 || len(q.Run) == 0 {
		return 0, true, nil
	}
	run := q.Ranked(DocnoDesc, false)
	g := make([]float64, len(run))
	for i, d := range run {
		g[i] = float64(label[d.Docno])
	}
	var v float64
	if m.ERR {
		v = gdevalERR(m.K, g)
	} else {
		slices.SortFunc(gains, func(a, b float64) int { return int(b - a) })
		v = gdevalDCG(m.K, g) / gdevalDCG(m.K, gains)
	}
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'f', 5, 64), 64)
	return v, true, nil
}

// gdevalDCG is gdeval's DCG of gains within the top k.
func gdevalDCG(k int, gains []float64) float64 {
	s := 0.0
	for i := 0; i < k && i < len(gains); i++ {
		s += (math.Exp2(gains[i]) - 1) / math.Log(float64(i+2))
	}
	return s
}

// gdevalERR is gdeval's ERR of gains within the top k.
func gdevalERR(k int, gains []float64) float64 {
	s, decay := 0.0, 1.0
	for i := 0; i < k && i < len(gains); i++ {
		r := (math.Exp2(gains[i]) - 1) / math.Exp2(GdevalMaxJudgment)
		s += r * decay / float64(i+1)
		decay *= 1 - r
	}
	return s
}
