package beam

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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

func compareJudgments(a, b *Judgment) int {
	if c := a.Pos.Compare(b.Pos); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(math.Float64bits(a.Label), math.Float64bits(b.Label)))
}

// dedupeIndex returns, for rows in order, the indexes of the rows to keep
// (by the position of their first occurrence) and, for DedupeMax, which row
// supplies each kept item's fields. It returns a reason when the policy is
// DedupeError and a document repeats. key returns a row's document ("" for
// none: never a duplicate) and val the value DedupeMax maximises.
func dedupeIndex(n int, d Dedupe, key func(i int) string, val func(i int) float64, where func(i int) string) (keep []int, dropped int64, reason string) {
	first := make(map[string]int, n)
	keep = make([]int, 0, n)
	slot := make(map[string]int, n) // doc -> index into keep
	for i := range n {
		k := key(i)
		if k == "" {
			keep = append(keep, i)
			continue
		}
		f, dup := first[k]
		if !dup {
			first[k] = i
			slot[k] = len(keep)
			keep = append(keep, i)
			continue
		}
		switch d {
		case DedupeFirst:
			dropped++
		case DedupeMax:
			dropped++
			if s := slot[k]; val(i) > val(keep[s]) {
				keep[s] = i
			}
		default:
			return nil, 0, fmt.Sprintf("document %q appears twice (first at %s, again at %s); the dedupe policy is error (use first or max to keep one)",
				k, where(f), where(i))
		}
	}
	return keep, dropped, ""
}

// buildList builds the list of one query from its rows, given in any
// order. When the query cannot be built, or rejected is not empty (the
// reason other rows of the query were rejected), it returns one dead letter
// per row instead, and counts them.
func buildList(qid string, rows []Row, d Dedupe, rejected string) (List, []DeadLetter, Counts) {
	slices.SortFunc(rows, func(a, b Row) int { return compareRows(&a, &b) })
	var c Counts
	fail := func(reason string) (List, []DeadLetter, Counts) {
		dead := make([]DeadLetter, len(rows))
		for i := range rows {
			dead[i] = DeadLetter{Stage: StageGroup, Pos: rows[i].Pos, QID: qid, Reason: reason, Record: renderRow(&rows[i]), Rows: 1}
		}
		c.DeadGroupRows += int64(len(rows))
		c.DeadLetters += int64(len(rows))
		return List{}, dead, c
	}
	if rejected != "" {
		return fail(rejected)
	}
	weighted := 0
	for i := range rows {
		if rows[i].HasWeight {
			weighted++
		}
	}
	if weighted > 0 && weighted < len(rows) {
		return fail(fmt.Sprintf("the query mixes %d rows with a weight and %d without", weighted, len(rows)-weighted))
	}
	keep, dropped, reason := dedupeIndex(len(rows), d,
		func(i int) string { return rows[i].Doc },
		func(i int) float64 { return rows[i].Score },
		func(i int) string { return rows[i].Pos.String() })
	if reason != "" {
		return fail(reason)
	}
	c.DuplicatesDropped = dropped
	l := List{QID: qid, Labels: make([]float64, len(keep)), Scores: make([]float64, len(keep)), Counts: c}
	if weighted > 0 {
		l.Weights = make([]float64, len(keep))
	}
	for j, i := range keep {
		l.Labels[j], l.Scores[j] = rows[i].Label, rows[i].Score
		if l.Weights != nil {
			l.Weights[j] = rows[i].Weight
		}
	}
	return l, nil, Counts{}
}

// joinTREC builds the list of one TREC query from its qrels lines and run
// lines, given in any order, as trec_eval joins them: run documents without
// a judgment get label 0, and judged documents absent from the run go to
// List.Unranked. When the query cannot be built, or rejected is not empty,
// it returns one dead letter per line instead.
func joinTREC(qid string, qrels []Judgment, run []Row, d Dedupe, rejected string) (List, []DeadLetter, Counts) {
	slices.SortFunc(qrels, func(a, b Judgment) int { return compareJudgments(&a, &b) })
	slices.SortFunc(run, func(a, b Row) int { return compareRows(&a, &b) })
	var c Counts
	fail := func(reason string) (List, []DeadLetter, Counts) {
		dead := make([]DeadLetter, 0, len(qrels)+len(run))
		for i := range qrels {
			dead = append(dead, DeadLetter{Stage: StageGroup, Pos: qrels[i].Pos, QID: qid, Reason: reason, Record: renderJudgment(&qrels[i]), Rows: 1})
		}
		for i := range run {
			dead = append(dead, DeadLetter{Stage: StageGroup, Pos: run[i].Pos, QID: qid, Reason: reason, Record: renderRow(&run[i]), Rows: 1})
		}
		c.DeadGroupQrelsRows += int64(len(qrels))
		c.DeadGroupRows += int64(len(run))
		c.DeadLetters += int64(len(dead))
		return List{}, dead, c
	}
	if rejected != "" {
		return fail(rejected)
	}
	qkeep, qdropped, reason := dedupeIndex(len(qrels), d,
		func(i int) string { return qrels[i].Doc },
		func(i int) float64 { return qrels[i].Label },
		func(i int) string { return qrels[i].Pos.String() })
	if reason != "" {
		return fail("qrels: " + reason)
	}
	rkeep, rdropped, reason := dedupeIndex(len(run), d,
		func(i int) string { return run[i].Doc },
		func(i int) float64 { return run[i].Score },
		func(i int) string { return run[i].Pos.String() })
	if reason != "" {
		return fail("run: " + reason)
	}
	c.QrelsDuplicatesDropped, c.DuplicatesDropped = qdropped, rdropped
	judged := make(map[string]int, len(qkeep)) // doc -> index into qrels
	for _, i := range qkeep {
		judged[qrels[i].Doc] = i
	}
	l := List{QID: qid, Labels: make([]float64, len(rkeep)), Scores: make([]float64, len(rkeep))}
	switch {
	case len(rkeep) == 0:
		l.Match = MatchQrelsOnly
		c.QrelsOnlyQueries++
	case len(qkeep) == 0:
		l.Match = MatchRunOnly
		c.RunOnlyQueries++
	}
	ranked := make(map[string]bool, len(rkeep))
	for j, i := range rkeep {
		doc := run[i].Doc
		ranked[doc] = true
		l.Scores[j] = run[i].Score
		if q, ok := judged[doc]; ok {
			l.Labels[j] = qrels[q].Label
		} else {
			c.UnjudgedItems++
		}
	}
	for _, i := range qkeep {
		if ranked[qrels[i].Doc] {
			continue
		}
		l.Unranked = append(l.Unranked, qrels[i].Label)
		c.UnrankedJudged++
		if qrels[i].Label >= 1 {
			c.UnrankedRelevant++
		}
	}
	l.Counts = c
	return l, nil, Counts{}
}
