package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestEvalIntervals checks eval's intervals on testdata/examples A.run
// against scipy 1.17 on the per-query values eval -q prints (map's read
// back as float32):
//
//	stats.t.interval(0.95, 49, loc=x.mean(), scale=stats.sem(x))
//	  map  (0.28352647256303876, 0.386597419863452)
//	  P_10 (0.20690009796427397, 0.289099902035726)
//	stats.bootstrap((x,), np.mean, method="BCa", n_resamples=10000),
//	20 runs: mean bounds and their standard deviation
//	  map  0.28826787895446665 ± 0.00076, 0.3878152350763435 ± 0.00106
//	  P_10 0.212 ± 0, 0.2923556431968596 ± 0.00075
//
// num_rel is a sum: no interval.
func TestEvalIntervals(t *testing.T) {
	qrels, run := "../../testdata/examples/qrels.txt", "../../testdata/examples/A.run"
	type ci struct {
		Low  float64 `json:"ci_low"`
		High float64 `json:"ci_high"`
	}
	var out struct {
		CI struct {
			Method   string         `json:"method"`
			Level    float64        `json:"level"`
			Measures map[string]*ci `json:"measures"`
		} `json:"ci"`
	}
	raw := mustEval(t, "--format", "json", "-m", "map", "-m", "P_10", "-m", "num_rel", qrels, run)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatalf("%v\n%s", err, raw)
	}
	want := map[string][2]float64{"map": {0.28352647256303876, 0.386597419863452}, "P_10": {0.20690009796427397, 0.289099902035726}}
	if out.CI.Method != "t" || out.CI.Level != 0.95 {
		t.Errorf("ci %+v, want method t (the default), level 0.95", out.CI)
	}
	for name, w := range want {
		got := out.CI.Measures[name]
		if got == nil || math.Abs(got.Low-w[0]) > 1e-9*w[0] || math.Abs(got.High-w[1]) > 1e-9*w[1] {
			t.Errorf("t interval of %s: got %+v, scipy %v", name, got, w)
		}
	}
	if got, ok := out.CI.Measures["num_rel"]; !ok || got != nil {
		t.Errorf("num_rel: got %+v, want null", got)
	}
	// The table and TSV print the same intervals.
	table := mustEval(t, "-m", "map", "-m", "P_10", "-m", "num_rel", qrels, run)
	for _, line := range []string{"measure  value      95% t CI\n", "map      0.3350619  [0.2835, 0.3866]\n", "P_10     0.248      [0.2069, 0.2891]\n", "num_rel  281        -\n"} {
		if !strings.Contains(table, line) {
			t.Errorf("table lacks %q:\n%s", line, table)
		}
	}
	tsv := mustEval(t, "--format", "tsv", "-m", "P_10", "-m", "num_rel", qrels, run)
	rows := map[string]string{}
	for _, l := range strings.Split(tsv, "\n") {
		if f := strings.Split(l, "\t"); len(f) == 3 && f[1] == "all" {
			rows[f[0]] = f[2]
		}
	}
	lo, _ := strconv.ParseFloat(rows["ci_low:P_10"], 64)
	hi, _ := strconv.ParseFloat(rows["ci_high:P_10"], 64)
	if math.Abs(lo-0.20690009796427397) > 1e-12 || math.Abs(hi-0.289099902035726) > 1e-12 || rows["ci_low:num_rel"] != "-" {
		t.Errorf("tsv rows %v", rows)
	}

	// BCa: within 5 Monte Carlo standard errors of one run (sqrt(1 +
	// 1/20) times the spread of scipy's runs, at least that of a quantile
	// of 10,000 normal draws: 0.0012 here) plus two lattice steps of the
	// resampled means (P_10: 0.1/50).
	raw = mustEval(t, "--format", "json", "--ci", "bootstrap", "--ci-seed", "3", "-m", "map", "-m", "P_10", qrels, run)
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		t.Fatal(err)
	}
	bca := map[string][4]float64{"map": {0.28826787895446665, 0.3878152350763435, 0.00106, 0}, "P_10": {0.212, 0.2923556431968596, 0.00075, 0.002}}
	for name, w := range bca {
		got := out.CI.Measures[name]
		se := math.Max(w[2], 0.0012) * math.Sqrt(1+1.0/20)
		tol := 5*se + 2*w[3]
		if got == nil || math.Abs(got.Low-w[0]) > tol || math.Abs(got.High-w[1]) > tol {
			t.Errorf("BCa interval of %s: got %+v, scipy [%v, %v] (tolerance %.3g)", name, got, w[0], w[1], tol)
		}
	}
	if out.CI.Method != "bootstrap" {
		t.Errorf("method %q", out.CI.Method)
	}
	// Same bytes for any worker count.
	a := mustEval(t, "--format", "tsv", "--ci", "bootstrap", "--workers", "1", "-m", "map", qrels, run)
	b := mustEval(t, "--format", "tsv", "--ci", "bootstrap", "--workers", "3", "-m", "map", qrels, run)
	if a != b {
		t.Errorf("1 worker:\n%s\n3 workers:\n%s", a, b)
	}
}

// TestEvalCINonFinite: a measure with a non-finite per-query value (mrr@0
// is -Inf, TF-Ranking's; ndcg@3 of a label of 200 is NaN in float32) is
// printed without an interval, under both methods, and the other measures
// keep theirs: map's t interval over the per-query APs 1, 1/2 and 0 of
// query 9, 10 and the judged query 2 the run lacks, worked by hand: mean
// 1/2, sd 1/2, t(0.975, 2) = 4.302652729749461, half width
// 4.302652729749461 * 0.5 / sqrt(3).
func TestEvalCINonFinite(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "qrels", "10 0 d1 1\n10 0 d2 0\n9 0 d3 1\n9 0 d4 200\n2 0 d5 1\n")
	run := writeTemp(t, dir, "run", "9 Q0 d3 1 2 r\n9 Q0 d4 2 1 r\n10 Q0 d2 1 2 r\n10 Q0 d1 2 1 r\n")
	half := 4.302652729749461 * 0.5 / math.Sqrt(3)
	for _, method := range []string{"t", "bootstrap"} {
		var out, errb bytes.Buffer
		err := runEval(context.Background(), []string{"-m", "map,mrr@0,ndcg@3", "--ties", "stable", "--ci", method, "--format", "json", "--quiet", qrels, run}, nil, &out, &errb)
		if err != nil {
			t.Fatalf("--ci %s: %v (%s)", method, err, errb.String())
		}
		var rep struct {
			CI struct {
				Measures map[string]*struct {
					Low  float64 `json:"ci_low"`
					High float64 `json:"ci_high"`
				} `json:"measures"`
			} `json:"ci"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("--ci %s: %v: %s", method, err, out.String())
		}
		ms := rep.CI.Measures
		if ms["map"] == nil || ms["mrr@0"] != nil || ms["ndcg@3"] != nil {
			t.Fatalf("--ci %s: intervals %s", method, out.String())
		}
		if method == "t" && (math.Abs(ms["map"].Low-(0.5-half)) > 1e-12 || math.Abs(ms["map"].High-(0.5+half)) > 1e-12) {
			t.Errorf("map's t interval [%v, %v], want [%v, %v]", ms["map"].Low, ms["map"].High, 0.5-half, 0.5+half)
		}
	}
}
