package runio

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"
)

// readAll reads every query of r (deep copies) and closes r.
func readAll(r Reader) ([]Query, error) {
	defer r.Close()
	var out []Query
	var q Query
	for {
		err := r.Next(&q)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, cloneQuery(&q))
	}
}

func cloneQuery(q *Query) Query {
	c := *q
	c.Labels = slices.Clone(q.Labels)
	c.Scores = slices.Clone(q.Scores)
	c.Weights = slices.Clone(q.Weights)
	c.Docs = slices.Clone(q.Docs)
	c.UnrankedLabels = slices.Clone(q.UnrankedLabels)
	c.UnrankedDocs = slices.Clone(q.UnrankedDocs)
	c.Unjudged = slices.Clone(q.Unjudged)
	if len(c.UnrankedLabels) == 0 {
		c.UnrankedLabels = nil
	}
	if len(c.UnrankedDocs) == 0 {
		c.UnrankedDocs = nil
	}
	return c
}

func sameFloats(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

func sameStrings(a, b []string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return slices.Equal(a, b)
}

// diffQuery describes how got differs from want, ignoring Line when want's
// Line is 0.
func diffQuery(got, want Query) string {
	switch {
	case got.QID != want.QID:
		return fmt.Sprintf("qid %q, want %q", got.QID, want.QID)
	case want.Line != 0 && got.Line != want.Line:
		return fmt.Sprintf("qid %q: line %d, want %d", got.QID, got.Line, want.Line)
	case got.Match != want.Match:
		return fmt.Sprintf("qid %q: match %v, want %v", got.QID, got.Match, want.Match)
	case !sameFloats(got.Labels, want.Labels) && !(len(got.Labels) == 0 && len(want.Labels) == 0):
		return fmt.Sprintf("qid %q: labels %v, want %v", got.QID, got.Labels, want.Labels)
	case !sameFloats(got.Scores, want.Scores) && !(len(got.Scores) == 0 && len(want.Scores) == 0):
		return fmt.Sprintf("qid %q: scores %v, want %v", got.QID, got.Scores, want.Scores)
	case !sameFloats(got.Weights, want.Weights):
		return fmt.Sprintf("qid %q: weights %v (nil %v), want %v (nil %v)", got.QID, got.Weights, got.Weights == nil, want.Weights, want.Weights == nil)
	case !sameStrings(got.Docs, want.Docs):
		return fmt.Sprintf("qid %q: docs %q, want %q", got.QID, got.Docs, want.Docs)
	case !sameFloats(got.UnrankedLabels, want.UnrankedLabels):
		return fmt.Sprintf("qid %q: unranked labels %v, want %v", got.QID, got.UnrankedLabels, want.UnrankedLabels)
	case !sameStrings(got.UnrankedDocs, want.UnrankedDocs):
		return fmt.Sprintf("qid %q: unranked docs %q, want %q", got.QID, got.UnrankedDocs, want.UnrankedDocs)
	}
	return ""
}

func checkQueries(t *testing.T, got, want []Query) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d queries, want %d:\n got %+v\nwant %+v", len(got), len(want), got, want)
	}
	for i := range got {
		if d := diffQuery(got[i], want[i]); d != "" {
			t.Errorf("query %d: %s", i, d)
		}
	}
}

var bg = context.Background()
