package beam

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/rankmetrics/rankmetrics/runio"
)

// compareRows orders rows by Pos, then by content, so that the order does
// not depend on the order the runner delivers them in even if one file
// was read twice.
func compareRows(a, b *Row) int {
	if c := a.Pos.Compare(b.Pos); c != 0 {
		return c
	}
	return cmp.Or(
		cmp.Compare(a.Doc, b.Doc),
		cmp.Compare(math.Float64bits(a.Label), math.Float64bits(b.Label)),
		cmp.Compare(math.Float64bits(a.Score), math.Float64bits(b.Score)),
		cmp.Compare(math.Float64bits(a.Weight), math.Float64bits(b.Weight)),
	)
}

// dedupe applies d to rows, in order, with runio.DedupeIndex: by is the
// field DedupeMax maximises (the score of ranked rows, the label of
// qrels lines).
func dedupe(rows []Row, d Dedupe, by func(r *Row) float64) ([]int, int64, error) {
	return runio.DedupeIndex(len(rows), d,
		func(i int) string { return rows[i].Doc },
		func(i, j int) bool { return by(&rows[i]) > by(&rows[j]) },
		func(i int) string { return rows[i].Pos.String() })
}

func score(r *Row) float64 { return r.Score }
func label(r *Row) float64 { return r.Label }

// builder builds the List of one query from its rows, given in any order:
// the ranked rows (single-file rows, or TREC run lines) and, for TREC
// input, the qrels lines. It is the one code path of GroupChunks and
// JoinTREC.
type builder struct {
	qid         string
	qrels, rows []Row
	trec        bool
	c           Counts
}

// fail returns one dead letter per row of the query, for reason, and
// counts them.
func (b *builder) fail(reason string) (List, []DeadLetter, Counts) {
	dead := make([]DeadLetter, 0, len(b.qrels)+len(b.rows))
	for i := range b.qrels {
		dead = append(dead, DeadLetter{Stage: StageGroup, Pos: b.qrels[i].Pos, QID: b.qid, Reason: reason, Record: renderRow(&b.qrels[i], true), Rows: 1})
	}
	for i := range b.rows {
		dead = append(dead, DeadLetter{Stage: StageGroup, Pos: b.rows[i].Pos, QID: b.qid, Reason: reason, Record: renderRow(&b.rows[i], false), Rows: 1})
	}
	c := Counts{DeadGroupQrelsRows: int64(len(b.qrels)), DeadGroupRows: int64(len(b.rows)), DeadLetters: int64(len(dead))}
	return List{}, dead, c
}

// build builds the list as `rankmetrics eval` reads it. When the query
// cannot be built, or rejected is not empty (the reason other rows of the
// query were rejected), it returns one dead letter per row instead.
//
// Single-file rows become the items, with their labels. TREC lines are
// joined as trec_eval joins them: run documents without a judgment get
// label 0 and are marked Unjudged, and judged documents the run does not
// rank go to UnrankedLabels and UnrankedDocs, where the relevant ones
// still count in the AP denominator.
func (b *builder) build(d Dedupe, rejected string) (List, []DeadLetter, Counts) {
	slices.SortFunc(b.qrels, func(x, y Row) int { return compareRows(&x, &y) })
	slices.SortFunc(b.rows, func(x, y Row) int { return compareRows(&x, &y) })
	if rejected != "" {
		return b.fail(rejected)
	}
	weighted := 0
	for i := range b.rows {
		if b.rows[i].HasWeight {
			weighted++
		}
	}
	if weighted > 0 && weighted < len(b.rows) {
		return b.fail(fmt.Sprintf("the query mixes %d rows with a weight and %d without", weighted, len(b.rows)-weighted))
	}
	qkeep, qdropped, err := dedupe(b.qrels, d, label)
	if err != nil {
		return b.fail("qrels: " + err.Error())
	}
	rkeep, rdropped, err := dedupe(b.rows, d, score)
	if err != nil {
		if b.trec {
			return b.fail("run: " + err.Error())
		}
		return b.fail(err.Error())
	}
	c := &b.c
	c.QrelsDuplicatesDropped, c.DuplicatesDropped = qdropped, rdropped
	var l List
	q := &l.Query
	if b.trec {
		if err := b.join(q, qkeep, rkeep); err != nil {
			return b.fail(err.Error())
		}
		l.Counts = b.c
		return l, nil, Counts{}
	}
	q.QID, q.Labels, q.Scores = b.qid, make([]float64, len(rkeep)), make([]float64, len(rkeep))
	if weighted > 0 {
		q.Weights = make([]float64, len(rkeep))
	}
	docs := len(rkeep) > 0
	for _, i := range rkeep {
		docs = docs && b.rows[i].Doc != ""
	}
	if docs {
		q.Docs = make([]string, len(rkeep))
	}
	for j, i := range rkeep {
		r := &b.rows[i]
		q.Labels[j], q.Scores[j] = r.Label, r.Score
		if q.Weights != nil {
			q.Weights[j] = r.Weight
		}
		if q.Docs != nil {
			q.Docs[j] = r.Doc
		}
	}
	l.Counts = b.c
	return l, nil, Counts{}
}

// join sets the labels of the ranked TREC documents from the kept qrels
// lines, and the query's judged documents the run does not rank, by
// runio's join (runio.Joiner), the one that rankmetrics eval's TREC reader
// runs: rows and qrels lines are deduplicated already, in Pos order.
func (b *builder) join(q *Query, qkeep, rkeep []int) error {
	jd, jl := make([]string, len(qkeep)), make([]float64, len(qkeep))
	for k, i := range qkeep {
		jd[k], jl[k] = b.qrels[i].Doc, b.qrels[i].Label
	}
	rd, rs := make([]string, len(rkeep)), make([]float64, len(rkeep))
	for k, i := range rkeep {
		rd[k], rs[k] = b.rows[i].Doc, b.rows[i].Score
	}
	st, err := runio.NewJoiner(runio.Options{KeepDocs: true}).Join(q, b.qid, jd, jl, rd, rs)
	if err != nil {
		return err
	}
	q.Line = 0 // Beam's rows have a Pos, not a line number
	c := &b.c
	c.QrelsOnlyQueries += st.QrelsOnlyQueries
	c.RunOnlyQueries += st.RunOnlyQueries
	c.UnjudgedItems += st.UnjudgedItems
	c.UnrankedJudged += st.UnrankedJudged
	c.UnrankedRelevant += st.UnrankedRelevant
	return nil
}
