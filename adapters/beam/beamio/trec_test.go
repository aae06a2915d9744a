package beamio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// genTREC writes a qrels and a run for q queries: judged relevant and
// non-relevant documents, unjudged run documents, relevant documents the
// run misses, tied scores, queries only in the run and queries only in
// the qrels. Lines are shuffled. It writes the whole files and shards of
// them (2 for the qrels, 3 for the run), returning the paths and globs.
func genTREC(t *testing.T, dir string, seed uint64, q int) (qrels, run, qrelsGlob, runGlob string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	var ql, rl []string
	for i := range q {
		qid := strconv.Itoa(100 + i)
		inRun, inQrels := i%10 != 3, i%10 != 7
		ndocs := 20 + rng.IntN(40)
		for d := range ndocs {
			doc := fmt.Sprintf("D%d-%d", i, d)
			judged := rng.IntN(3) > 0
			ranked := rng.IntN(5) > 0
			if judged && inQrels {
				rel := 0
				if rng.IntN(4) == 0 {
					rel = 1 + rng.IntN(2)
				}
				ql = append(ql, fmt.Sprintf("%s 0 %s %d", qid, doc, rel))
			}
			if ranked && inRun {
				score := float64(rng.IntN(60)) / 10 // ties
				rl = append(rl, fmt.Sprintf("%s Q0 %s %d %v tag", qid, doc, d+1, score))
			}
		}
	}
	rng.Shuffle(len(ql), func(i, j int) { ql[i], ql[j] = ql[j], ql[i] })
	rng.Shuffle(len(rl), func(i, j int) { rl[i], rl[j] = rl[j], rl[i] })
	write := func(path string, lines []string) {
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	qrels, run = filepath.Join(dir, "all.qrels"), filepath.Join(dir, "all.run")
	write(qrels, ql)
	write(run, rl)
	for k, s := range []struct {
		lines []string
		n     int
		name  string
	}{{ql, 2, "qrels"}, {rl, 3, "run"}} {
		_ = k
		sdir := filepath.Join(dir, s.name)
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := range s.n {
			lo, hi := i*len(s.lines)/s.n, (i+1)*len(s.lines)/s.n
			write(filepath.Join(sdir, fmt.Sprintf("part-%d", i)), s.lines[lo:hi])
		}
	}
	return qrels, run, filepath.Join(dir, "qrels", "part-*"), filepath.Join(dir, "run", "part-*")
}

// TestTRECMatchesEval joins sharded, shuffled TREC files and checks the
// result against `rankmetrics eval` on the whole files, to the bit, with
// run-only and qrels-only queries skipped and kept.
func TestTRECMatchesEval(t *testing.T) {
	dir := t.TempDir()
	qrels, run, qglob, rglob := genTREC(t, dir, 7, 400)
	tests := []struct {
		name string
		ms   []metric.Config
		opts rm.EvalOptions
		flag []string
	}{
		{"skip/float64", measures(metric.Float64, metric.Stable, true, metric.NoTopN, 10), rm.EvalOptions{}, []string{"--qrels-only", "skip"}},
		{"keep/float32", measures(metric.Float32, metric.Pessimistic, true, metric.NoTopN, 10),
			rm.EvalOptions{KeepRunOnly: true, KeepQrelsOnly: true}, []string{"--run-only", "keep", "--qrels-only", "keep"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ev := runEval(t, append(append(evalArgs(tc.ms), tc.flag...), qrels, run)...)
			p, s := beam.NewPipelineWithRoot()
			qs, rs := beamio.ReadTREC(s, []string{qglob}, []string{rglob}, beamio.Options{BlockSize: 8 << 10})
			lists, err := rm.JoinTREC(s, qs.Output, rs.Output, rm.DedupeError)
			if err != nil {
				t.Fatal(err)
			}
			out, err := rm.Evaluate(s, lists, tc.ms, tc.opts, qs, rs)
			if err != nil {
				t.Fatal(err)
			}
			got := writeRunRead(t, p, s, out, tc.ms)
			c := got.report.Counts
			for i, m := range tc.ms {
				bits := 64
				if m.DType == metric.Float32 {
					bits = 32
				}
				if v := strconv.FormatFloat(got.report.Measures[i].Value, 'g', -1, bits); v != ev.measures[m.Name] {
					t.Errorf("%s: pipeline %s, rankmetrics eval %s", m.Name, v, ev.measures[m.Name])
				}
				for qid, want := range ev.perQ {
					if v := strconv.FormatFloat(got.perQ[qid][i], 'g', -1, bits); v != want[m.Name] {
						t.Errorf("qid %s %s: pipeline %s, rankmetrics eval %s", qid, m.Name, v, want[m.Name])
					}
				}
			}
			if int64(len(got.perQ)) != ev.counts["queries_evaluated"] || c.Queries != ev.counts["queries_evaluated"] {
				t.Errorf("pipeline evaluated %d queries (%d per-query lines), eval %d", c.Queries, len(got.perQ), ev.counts["queries_evaluated"])
			}
			for _, pair := range []struct {
				key string
				n   int64
			}{
				{"items", c.Items}, {"rows", c.Rows}, {"qrels_rows", c.QrelsRows},
				{"run_only_queries", c.RunOnlyQueries}, {"qrels_only_queries", c.QrelsOnlyQueries},
				{"unjudged_items", c.UnjudgedItems}, {"unranked_judged", c.UnrankedJudged}, {"unranked_relevant", c.UnrankedRelevant},
			} {
				if pair.n != ev.counts[pair.key] {
					t.Errorf("%s: pipeline %d, eval %d", pair.key, pair.n, ev.counts[pair.key])
				}
			}
			if skipped := ev.counts["run_only_skipped"] + ev.counts["qrels_only_skipped"]; c.SkippedQueries != skipped {
				t.Errorf("skipped %d queries, eval %d", c.SkippedQueries, skipped)
			}
			if c.RunOnlyQueries == 0 || c.QrelsOnlyQueries == 0 || c.UnrankedRelevant == 0 || c.UnjudgedItems == 0 {
				t.Errorf("the data lacks a case: %+v", c)
			}
			if err := c.Check(true); err != nil {
				t.Error(err)
			}
			if math.IsNaN(got.report.Measures[0].Value) || got.report.Measures[0].Value <= 0 {
				t.Errorf("MAP %v", got.report.Measures[0].Value)
			}
		})
	}
}
