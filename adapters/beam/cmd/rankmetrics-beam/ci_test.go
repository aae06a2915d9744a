package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// evalIntervals runs the engine of `rankmetrics eval` in process on the
// TREC pair and returns its --ci t intervals as eval computes them: the
// per-query values of every update, in input order, added to an
// evaluate.MeanInterval per measure (eval's --batch 64 and default tie
// policy differ from the Beam run's one query per update: the per-query
// values do not depend on them).
func evalIntervals(t *testing.T, qrels, run string, names []string, alpha float64) []*[2]float64 {
	t.Helper()
	ctx := context.Background()
	q, err := os.Open(qrels)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	r, err := os.Open(run)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rd, err := runio.NewTRECReader(ctx, q, r, qrels, run, runio.Options{KeepDocs: true})
	if err != nil {
		t.Fatal(err)
	}
	ms := make([]evaluate.Measure, len(names))
	for i, n := range names {
		if ms[i], err = measure.Parse(n); err != nil {
			t.Fatal(err)
		}
	}
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType, cfg.Ties = metric.Float64, metric.Stable
	states := make([]evaluate.MeanInterval, len(ms))
	_, err = evaluate.Run(ctx, rd, evaluate.Options{Measures: ms, Config: cfg, Batch: 64, Workers: 1,
		PerQuery: func(b *evaluate.Batch) error {
			for m := range states {
				for i := range b.Len() {
					states[m].Add(b.Value(m, i), b.Weight(m, i))
				}
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*[2]float64, len(ms))
	for m, s := range states {
		iv, err := s.TInterval(ms[m], alpha)
		if err != nil {
			t.Fatal(err)
		}
		if iv != nil {
			out[m] = &[2]float64{iv.Low, iv.High}
		}
	}
	return out
}

// TestExecuteInterval: rankmetrics-beam on a small TREC pair gives the t
// interval of `rankmetrics eval --ci t` (its engine run in process), and
// for P_5 the interval worked by hand: the three queries have 1, 2 and 3
// relevant documents in their top 5, so P_5 is 0.2, 0.4, 0.6: mean 0.4,
// sd 0.2, and with 2 degrees of freedom t(0.975) = (2p-1) sqrt(2/(4p(1-p)))
// = 4.302652729749461 for p = 0.975 (scipy.stats.t.ppf gives the same), so
// the bounds are 0.4 ∓ 4.302652729749461 · 0.2/sqrt(3); at alpha 0.1,
// t(0.95) = 2.919985580353724. num_rel, a sum, gets none.
func TestExecuteInterval(t *testing.T) {
	dir := t.TempDir()
	qrels, run := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "run.txt")
	var qb, rb strings.Builder
	for q := 1; q <= 3; q++ {
		for d := 1; d <= 6; d++ {
			rel := 0
			if d <= q || d == 6 {
				rel = 1
			}
			fmt.Fprintf(&qb, "%d 0 d%d %d\n", q, d, rel)
			fmt.Fprintf(&rb, "%d Q0 d%d %d %g r\n", q, d, d, float64(10-d))
		}
	}
	os.WriteFile(qrels, []byte(qb.String()), 0o644)
	os.WriteFile(run, []byte(rb.String()), 0o644)
	names := []string{"P_5", "ndcg@5", "num_rel", "map"}
	for _, tc := range []struct {
		alpha, q float64
		level    string
	}{{0.05, 4.302652729749461, "95%"}, {0.1, 2.919985580353724, "90%"}} {
		p, err := parse(t, "--qrels", qrels, "--run", run, "--dtype", "float64", "--ties", "stable", "-m", "P_5", "-m", "ndcg@5", "-m", "num_rel",
			"-m", "map", "--alpha", fmt.Sprint(tc.alpha))
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		rep, err := execute(context.Background(), p, "prism", &stdout, &stderr)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		want := evalIntervals(t, qrels, run, names, tc.alpha)
		for i, m := range rep.Measures {
			if m.Name != names[i] {
				t.Fatalf("measure %d is %s, want %s", i, m.Name, names[i])
			}
			if (m.CI == nil) != (want[i] == nil) {
				t.Errorf("alpha %v: %s: interval %v, eval's %v", tc.alpha, m.Name, m.CI, want[i])
				continue
			}
			if m.CI == nil {
				continue
			}
			// Beam merges the moments of the queries in an order of its
			// own: equal up to the rounding of the merges.
			for _, b := range [][2]float64{{m.CI.Low, want[i][0]}, {m.CI.High, want[i][1]}} {
				if math.Abs(b[0]-b[1]) > 1e-12*math.Abs(b[1]) {
					t.Errorf("alpha %v: %s: bound %v, eval's %v", tc.alpha, m.Name, b[0], b[1])
				}
			}
		}
		if rep.Measures[2].CI != nil || rep.Measures[0].CI == nil || rep.Measures[1].CI == nil {
			t.Fatalf("intervals %v, %v, %v: want P_5's and ndcg@5's, not num_rel's", rep.Measures[0].CI, rep.Measures[1].CI, rep.Measures[2].CI)
		}
		half := tc.q * 0.2 / math.Sqrt(3)
		if ci := rep.Measures[0].CI; math.Abs(ci.Low-(0.4-half)) > 1e-12 || math.Abs(ci.High-(0.4+half)) > 1e-12 {
			t.Errorf("alpha %v: P_5 [%v, %v], by hand [%v, %v]", tc.alpha, ci.Low, ci.High, 0.4-half, 0.4+half)
		}
		if rep.CI.Method != "t" || rep.CI.Level != 1-tc.alpha {
			t.Errorf("report's ci %+v", rep.CI)
		}
		out := stdout.String()
		for _, s := range []string{"measure  value", tc.level + " t CI", fmt.Sprintf("[%.4f, %.4f]", 0.4-half, 0.4+half)} {
			if !strings.Contains(out, s) {
				t.Errorf("alpha %v: the table lacks %q:\n%s", tc.alpha, s, out)
			}
		}
		if !regexp.MustCompile(`\nnum_rel +9 +-\n`).MatchString(out) {
			t.Errorf("alpha %v: the table gives num_rel (2+3+4 relevant) an interval:\n%s", tc.alpha, out)
		}
	}
}
