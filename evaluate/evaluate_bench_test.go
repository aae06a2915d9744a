package evaluate

import (
	"context"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// loopReader yields the same query n times under increasing qids, so the
// benchmark measures the engine, not a parser.
type loopReader struct {
	q    runio.Query
	n, i int
}

func (r *loopReader) Next(q *runio.Query) error {
	if r.i == r.n {
		return io.EOF
	}
	r.i++
	q.QID = strconv.Itoa(r.i)
	q.Labels = append(q.Labels[:0], r.q.Labels...)
	q.Scores = append(q.Scores[:0], r.q.Scores...)
	q.Weights = nil
	q.UnrankedLabels = q.UnrankedLabels[:0]
	return nil
}

func (r *loopReader) Stats() runio.Stats { return runio.Stats{} }
func (r *loopReader) HasWeights() bool   { return false }
func (r *loopReader) Close() error       { return nil }

// BenchmarkRun measures Run on 10,000 queries of 100 items (about 10%
// relevant), float32, stable ties, updates of 1024 queries: the engine's
// packing, hand-overs and reduction around the metric's kernel.
func BenchmarkRun(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q runio.Query
	for range 100 {
		l := 0.0
		if rng.IntN(10) == 0 {
			l = float64(1 + rng.IntN(4))
		}
		q.Labels = append(q.Labels, l)
		q.Scores = append(q.Scores, float64(rng.IntN(1000))/1000+0.6*l)
	}
	family := []Measure{measure.MAP()}
	for _, n := range []string{"ndcg@10", "mrr", "precision@10", "recall@10"} {
		m, err := measure.Parse(n)
		if err != nil {
			b.Fatal(err)
		}
		family = append(family, m)
	}
	for _, tc := range []struct {
		name     string
		measures []Measure
		workers  int
	}{
		{"map/workers=1", []Measure{measure.MAP()}, 1},
		{"map/workers=2", []Measure{measure.MAP()}, 2},
		// MAP on its path plus four family measures sharing one ranking.
		{"map+4family/workers=1", family, 1},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := metric.DefaultConfig(metric.KindMAP)
			cfg.Ties, cfg.Ragged = metric.Stable, true
			o := Options{Measures: tc.measures, Config: cfg, Batch: 1024, Workers: tc.workers}
			const queries = 10000
			b.SetBytes(queries * 100) // "bytes" are items
			for b.Loop() {
				if _, err := Run(context.Background(), &loopReader{q: q, n: queries}, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
