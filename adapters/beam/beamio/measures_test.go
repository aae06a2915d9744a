package beamio_test

import (
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// named returns measures of the given names sharing one configuration.
func named(d metric.DType, ties metric.TiePolicy, names ...string) []metric.Config {
	out := make([]metric.Config, len(names))
	for i, n := range names {
		out[i] = metric.Config{Name: n, DType: d, Ties: ties, Ragged: true, Accumulation: metric.Exact}
	}
	return out
}

// shardLines writes lines to dir/all and, cut into k consecutive shards
// whose sorted names follow the concatenation order, to dir/kK/part-NN;
// it returns the path of all and the shards' glob.
func shardLines(t *testing.T, dir string, lines []string, k int) (string, string) {
	t.Helper()
	write := func(path string, ls []string) {
		if err := os.WriteFile(path, []byte(strings.Join(ls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, fmt.Sprintf("k%d", k)), 0o755); err != nil {
		t.Fatal(err)
	}
	all := filepath.Join(dir, "all")
	write(all, lines)
	for i := range k {
		write(filepath.Join(dir, fmt.Sprintf("k%d", k), fmt.Sprintf("part-%02d", i)), lines[i*len(lines)/k:(i+1)*len(lines)/k])
	}
	return all, filepath.Join(dir, fmt.Sprintf("k%d", k), "part-*")
}

// readLines returns the lines of a file.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestEveryMeasureBitIdentical evaluates TREC qrels and run files with
// every kind of measure eval takes: TF-Ranking's (map, ndcg@5, mrr), a
// convention (map@10:treceval, MAP under trec_eval's denominator) and
// trec_eval's values (P_5, ndcg_cut_10, recip_rank, num_rel_ret). The
// files are cut into 1, 3 and 17 shards, with their lines in qid order
// and shuffled, and the pipeline's report and per-query values must be
// those `rankmetrics eval --batch 1 --accumulation exact` prints for the
// whole files, to the bit.
func TestEveryMeasureBitIdentical(t *testing.T) {
	dir := t.TempDir()
	qrels, run, _, _ := genTREC(t, dir, 11, 300)
	ql, rl := readLines(t, qrels), readLines(t, run)
	byQID := func(lines []string) []string {
		out := slices.Clone(lines)
		slices.SortStableFunc(out, func(a, b string) int {
			return strings.Compare(strings.Fields(a)[0], strings.Fields(b)[0])
		})
		return out
	}
	reshuffle := func(lines []string, seed uint64) []string {
		out := slices.Clone(lines)
		rand.New(rand.NewPCG(seed, 1)).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		return out
	}
	names := []string{"map", "ndcg@5", "mrr", "map@10:treceval", "P_5", "ndcg_cut_10", "recip_rank", "num_rel_ret"}
	f64 := named(metric.Float64, metric.Stable, names...)
	f32 := named(metric.Float32, metric.Expected, names...)
	tests := []struct {
		name   string
		qrels  []string
		run    []string
		shards int
		ms     []metric.Config
	}{
		{"ordered/1", byQID(ql), byQID(rl), 1, f64},
		{"ordered/3", byQID(ql), byQID(rl), 3, f64},
		{"ordered/17", byQID(ql), byQID(rl), 17, f64},
		{"shuffled/1", reshuffle(ql, 1), reshuffle(rl, 2), 1, f64},
		{"shuffled/3", reshuffle(ql, 1), reshuffle(rl, 2), 3, f64},
		{"shuffled/17", reshuffle(ql, 1), reshuffle(rl, 2), 17, f64},
		{"shuffled/17/float32", reshuffle(ql, 1), reshuffle(rl, 2), 17, f32},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sub := filepath.Join(dir, fmt.Sprintf("case%d", i))
			qall, qglob := shardLines(t, filepath.Join(sub, "qrels"), tc.qrels, tc.shards)
			rall, rglob := shardLines(t, filepath.Join(sub, "run"), tc.run, tc.shards)
			// EvalOptions{} skips qrels-only queries: eval --qrels-only skip.
			ev := runEval(t, append(evalArgs(tc.ms), "--qrels-only", "skip", qall, rall)...)
			p, s := beam.NewPipelineWithRoot()
			qs, rs := beamio.ReadTREC(s, []string{qglob}, []string{rglob}, beamio.Options{BlockSize: 4 << 10})
			lists, err := rm.JoinTREC(s, qs.Output, rs.Output, rm.DedupeError)
			if err != nil {
				t.Fatal(err)
			}
			out, err := rm.Evaluate(s, lists, tc.ms, rm.EvalOptions{}, qs, rs)
			if err != nil {
				t.Fatal(err)
			}
			got := writeRunRead(t, p, s, out, tc.ms)
			if len(got.dead) != 0 {
				t.Fatalf("dead letters: %v", got.dead)
			}
			for m, c := range tc.ms {
				// eval prints TF-Ranking's float32 values as float32, and
				// trec_eval's values in float64.
				bits := 64
				if x, _ := measure.Parse(c.Name); c.DType == metric.Float32 && !x.IsTrecEval() {
					bits = 32
				}
				if v := strconv.FormatFloat(got.report.Measures[m].Value, 'g', -1, bits); v != ev.measures[c.Name] {
					t.Errorf("%s: pipeline %s, rankmetrics eval %s", c.Name, v, ev.measures[c.Name])
				}
				bad := 0
				for qid, want := range ev.perQ {
					if v := strconv.FormatFloat(got.perQ[qid][m], 'g', -1, bits); v != want[c.Name] {
						if bad++; bad <= 3 {
							t.Errorf("qid %s %s: pipeline %s, rankmetrics eval %s", qid, c.Name, v, want[c.Name])
						}
					}
				}
			}
			if n := got.report.Counts.Queries; n != ev.counts["queries_evaluated"] || int64(len(got.perQ)) != n || n < 200 {
				t.Errorf("pipeline evaluated %d queries (%d per-query), eval %d", n, len(got.perQ), ev.counts["queries_evaluated"])
			}
		})
	}
}
