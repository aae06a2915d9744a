package evaluate

import (
	"context"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// sliceReader is a runio.Reader over queries held in memory.
type sliceReader struct {
	qs []runio.Query
	i  int
}

func (r *sliceReader) Next(q *runio.Query) error {
	if r.i == len(r.qs) {
		return io.EOF
	}
	src := &r.qs[r.i]
	r.i++
	q.QID, q.Line, q.Match = src.QID, int64(r.i), src.Match
	q.Labels = append(q.Labels[:0], src.Labels...)
	q.Scores = append(q.Scores[:0], src.Scores...)
	q.Weights = nil
	if src.Weights != nil {
		q.Weights = append(make([]float64, 0, len(src.Weights)), src.Weights...)
	}
	q.UnrankedLabels = append(q.UnrankedLabels[:0], src.UnrankedLabels...)
	return nil
}

func (r *sliceReader) Stats() runio.Stats { return runio.Stats{Queries: int64(r.i)} }
func (r *sliceReader) HasWeights() bool   { return len(r.qs) > 0 && r.qs[0].Weights != nil }
func (r *sliceReader) Close() error       { return nil }

// options returns Options for measures with a dtype and tie policy, one
// worker and updates of 1024 queries.
func options(t *testing.T, dtype, ties string, measures ...string) Options {
	t.Helper()
	o := Options{Config: metric.DefaultConfig(metric.KindMAP), Batch: 1024, Workers: 1}
	o.Config.Ragged = true
	var err error
	if o.Config.DType, err = metric.ParseDType(dtype); err != nil {
		t.Fatal(err)
	}
	if o.Config.Ties, err = metric.ParseTiePolicy(ties); err != nil {
		t.Fatal(err)
	}
	for _, s := range measures {
		m, err := measure.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		o.Measures = append(o.Measures, m)
	}
	return o
}

// perQuery is a per-query sink: the values of every measure by qid, and
// the qids in the order they came.
type perQuery struct {
	order  []string
	values map[string][]float64
}

func (p *perQuery) add(b *Batch) error {
	if p.values == nil {
		p.values = map[string][]float64{}
	}
	for i := range b.Len() {
		var v []float64
		for m := range b.per {
			v = append(v, b.Value(m, i))
		}
		p.order = append(p.order, b.QID(i))
		p.values[b.QID(i)] = v
	}
	return nil
}

// run runs r with o, collecting per-query values.
func run(t *testing.T, r runio.Reader, o Options) (*Result, *perQuery) {
	t.Helper()
	pq := &perQuery{}
	o.PerQuery = pq.add
	res, err := Run(context.Background(), r, o)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res, pq
}

// trecReader returns a runio TREC reader over in-memory qrels and run.
func trecReader(t *testing.T, qrels, run string) runio.Reader {
	t.Helper()
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// naiveAP is an independent AP: items sorted by score descending, ties in
// input order; denominator = relevant ranked + relevant unranked.
func naiveAP(labels, scores []float64, unrankedRel int, topn int) float64 {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	R := unrankedRel
	for _, l := range labels {
		if l >= 1 {
			R++
		}
	}
	if R == 0 {
		return 0
	}
	hits, sum := 0, 0.0
	for k, i := range idx {
		if topn >= 0 && k >= topn {
			break
		}
		if labels[i] >= 1 {
			hits++
			sum += float64(hits) / float64(k+1)
		}
	}
	return sum / float64(R)
}

// randomTREC returns a random qrels and run (sorted numeric qids, ties,
// unjudged and unranked documents) and the naive per-query APs.
func randomTREC(seed uint64, nq int, topn int) (qrels, run string, want map[string]float64) {
	r := rand.New(rand.NewPCG(seed, 3))
	var qb, rb strings.Builder
	want = map[string]float64{}
	for q := 1; q <= nq; q++ {
		qid := strconv.Itoa(q)
		n := 1 + r.IntN(30)
		var labels, scores []float64
		for i := range n {
			doc := fmt.Sprintf("d%d", i)
			s := float64(r.IntN(12)) / 4 // many ties
			l := 0.0
			switch r.IntN(4) {
			case 0:
				l = float64(1 + r.IntN(3))
				fmt.Fprintf(&qb, "%s 0 %s %d\n", qid, doc, int(l))
			case 1:
				fmt.Fprintf(&qb, "%s 0 %s 0\n", qid, doc)
			}
			fmt.Fprintf(&rb, "%s Q0 %s %d %g t\n", qid, doc, i+1, s)
			labels = append(labels, l)
			scores = append(scores, s)
		}
		unr := r.IntN(3)
		for k := range unr {
			fmt.Fprintf(&qb, "%s 0 missing%d 1\n", qid, k)
		}
		want[qid] = naiveAP(labels, scores, unr, topn)
	}
	return qb.String(), rb.String(), want
}

// randomQueries returns nq random queries with many ties, and per-item
// weights when weights is set.
func randomQueries(seed uint64, nq int, weights bool) []runio.Query {
	r := rand.New(rand.NewPCG(seed, 9))
	qs := make([]runio.Query, nq)
	for i := range qs {
		q := &qs[i]
		q.QID = strconv.Itoa(i + 1)
		n := 1 + r.IntN(40)
		for range n {
			l := 0.0
			if r.IntN(5) == 0 {
				l = float64(1 + r.IntN(4))
			}
			q.Labels = append(q.Labels, l)
			q.Scores = append(q.Scores, float64(r.IntN(20))/8)
			if weights {
				q.Weights = append(q.Weights, float64(r.IntN(5))/2)
			}
		}
	}
	return qs
}
