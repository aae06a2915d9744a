package beamio_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

func measures(d metric.DType, ties metric.TiePolicy, ragged bool, topns ...int) []metric.Config {
	var out []metric.Config
	for _, n := range topns {
		name := "map"
		if n != metric.NoTopN {
			name = fmt.Sprintf("map@%d", n)
		}
		out = append(out, metric.Config{Name: name, TopN: n, DType: d, Ties: ties, Ragged: ragged, Accumulation: metric.Exact})
	}
	return out
}

// evalArgs are the `rankmetrics eval` flags that make it compute what the
// pipeline computes: one query per update, exact sums.
func evalArgs(ms []metric.Config) []string {
	c := ms[0]
	args := []string{"--batch", "1", "--accumulation", "exact", "--unsorted", "group",
		"--dtype", c.DType.String(), "--ties", c.Ties.String(), "--ragged=" + strconv.FormatBool(c.Ragged)}
	for _, m := range ms {
		args = append(args, "-m", m.Name)
	}
	return args
}

// checkAgainst compares a pipeline's results with the single-process
// reference (the metric, one Update per query) to the bit, and with
// `rankmetrics eval` as it prints them: every bit in float64, the float32
// rounding in float32 mode (eval prints float32 values).
func checkAgainst(t *testing.T, got pipelineOut, ref refResult, ev evalOut, ms []metric.Config) {
	t.Helper()
	if got.report.Counts.Queries != int64(ref.queries) || got.report.Counts.Items != int64(ref.items) {
		t.Errorf("pipeline evaluated %d queries, %d items; reference %d, %d",
			got.report.Counts.Queries, got.report.Counts.Items, ref.queries, ref.items)
	}
	if len(got.dead) != 0 || got.report.Counts.DeadLetters != 0 {
		t.Errorf("%d dead letters (%d counted), want none: %v", len(got.dead), got.report.Counts.DeadLetters, got.dead)
	}
	for i, m := range ms {
		v := got.report.Measures[i].Value
		if v != ref.values[i] {
			t.Errorf("%s: pipeline %v (%#x), single process %v (%#x)", m.Name, v, math.Float64bits(v), ref.values[i], math.Float64bits(ref.values[i]))
		}
		if ev.measures != nil {
			bits := 64
			if m.DType == metric.Float32 {
				bits = 32
			}
			if s := strconv.FormatFloat(v, 'g', -1, bits); s != ev.measures[m.Name] {
				t.Errorf("%s: pipeline %s, rankmetrics eval %s", m.Name, s, ev.measures[m.Name])
			}
		}
	}
	if len(got.perQ) != len(ref.perQ) {
		t.Errorf("%d per-query results, reference %d", len(got.perQ), len(ref.perQ))
	}
	bad := 0
	for qid, want := range ref.perQ {
		for i, m := range ms {
			if g := got.perQ[qid]; g == nil || g[i] != want[i] {
				if bad++; bad <= 5 {
					t.Errorf("qid %s %s: pipeline %v, reference %v", qid, m.Name, g, want[i])
				}
			}
			if ev.perQ != nil && m.DType == metric.Float64 {
				if s := strconv.FormatFloat(want[i], 'g', -1, 64); s != ev.perQ[qid][m.Name] {
					if bad++; bad <= 5 {
						t.Errorf("qid %s %s: reference %s, rankmetrics eval %s", qid, m.Name, s, ev.perQ[qid][m.Name])
					}
				}
			}
		}
	}
	if err := got.report.Counts.Check(false); err != nil {
		t.Error(err)
	}
}

// TestBitIdentityAcrossShardings evaluates a generated set of 200k
// weighted rows with ties, cut into 1, 3 and 17 files, in input order and
// shuffled, and checks that the pipeline gives, to the bit, the result of
// the single-process metric and of `rankmetrics eval` on the same data.
func TestBitIdentityAcrossShardings(t *testing.T) {
	items := genData(42, 2000, 100)
	if len(items) < 190000 {
		t.Fatalf("generated %d rows, want about 200k", len(items))
	}
	mix := shuffled(43, items)
	f64 := measures(metric.Float64, metric.Stable, true, metric.NoTopN, 10)
	f32 := measures(metric.Float32, metric.Expected, false, metric.NoTopN, 5)
	tests := []struct {
		name   string
		items  []item
		shards int
		ms     []metric.Config
	}{
		{"ordered/1", items, 1, f64},
		{"ordered/3", items, 3, f64},
		{"ordered/17", items, 17, f64},
		{"shuffled/1", mix, 1, f64},
		{"shuffled/17", mix, 17, f64},
		{"shuffled/17/float32", mix, 17, f32},
	}
	refs := map[string]refResult{}
	evs := map[string]evalOut{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			all, glob := writeTSV(t, dir, tc.items, tc.shards, true)
			key := fmt.Sprintf("%p/%s/%s", &tc.items[0], tc.ms[0].DType, tc.ms[0].Ties)
			ref, ok := refs[key]
			if !ok {
				ref = reference(t, all, tc.ms)
				refs[key] = ref
				evs[key] = runEval(t, append(evalArgs(tc.ms), all)...)
			}
			got := runTSV(t, glob, tc.ms, beamio.Options{BlockSize: 256 << 10}, rm.DedupeError)
			checkAgainst(t, got, ref, evs[key], tc.ms)
			c := got.report.Counts
			if c.Records != int64(len(tc.items)) || c.HeaderLines != int64(tc.shards) {
				t.Errorf("read %d records and %d headers, want %d and %d", c.Records, c.HeaderLines, len(tc.items), tc.shards)
			}
		})
	}
	// The orders really differ: the shuffled input changes per-query item
	// order, so stable ties give other values for some queries.
	a, b := refs[fmt.Sprintf("%p/%s/%s", &items[0], metric.Float64, metric.Stable)], refs[fmt.Sprintf("%p/%s/%s", &mix[0], metric.Float64, metric.Stable)]
	differ := 0
	for qid, v := range a.perQ {
		if b.perQ[qid][0] != v[0] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("shuffling changed no query's stable-ties Value: the test data has no effective ties")
	}
	t.Logf("shuffling changed the AP of %d of %d queries", differ, len(a.perQ))
}
