package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestComparePowerRisk checks compare's effect sizes, power, topic counts
// and risk on testdata/examples (map of B.run against A.run, 50 queries)
// against values computed outside this program from eval -q's per-query
// AP (read back as float32): the d_z and g_z intervals by scipy 1.17
// (brentq on scipy.stats.nct.cdf, parity/stats/golden.py effect_case),
// statsmodels 0.15 TTestPower().power(0.5768830480964455, 50, 0.05) =
// 0.9792273016887261, solve_power(d_z, None, 0.05, 0.8) = 25.5719 -> 26
// topics, and solve_power(0.05/sd, None, 0.05, 0.9) = 198.156 -> 199
// topics; URisk and TRisk from numpy (golden.py risk_case) at risk alpha 1
// and 5.
func TestComparePowerRisk(t *testing.T) {
	qrels, a, b := "../../testdata/examples/qrels.txt", "../../testdata/examples/A.run", "../../testdata/examples/B.run"
	type cmp struct {
		DZ     float64  `json:"d_z"`
		DZLow  float64  `json:"d_z_ci_low"`
		DZHigh float64  `json:"d_z_ci_high"`
		GZ     float64  `json:"g_z"`
		GZLow  float64  `json:"g_z_ci_low"`
		GZHigh float64  `json:"g_z_ci_high"`
		Power  float64  `json:"power"`
		Topics *float64 `json:"topics_needed"`
		URisk  float64  `json:"urisk"`
		TRisk  float64  `json:"trisk"`
	}
	run := func(args ...string) cmp {
		t.Helper()
		out, errs, err := compareRun(t, append(append([]string{"--format", "json"}, args...), qrels, a, b)...)
		if err != nil {
			t.Fatalf("%v: %s", err, errs)
		}
		var r struct{ Comparisons []cmp }
		if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Comparisons) != 1 {
			t.Fatalf("%v\n%s", err, out)
		}
		return r.Comparisons[0]
	}
	close := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	c := run()
	close("d_z", c.DZ, 0.5768830480964455)
	close("d_z_ci_low", c.DZLow, 0.2746770492923138)
	close("d_z_ci_high", c.DZHigh, 0.8740320868563279)
	close("g_z", c.GZ, 0.5680003051663997)
	close("g_z_ci_low", c.GZLow, 0.2704476207700195)
	close("g_z_ci_high", c.GZHigh, 0.8605738956930156)
	close("power", c.Power, 0.9792273016887261)
	close("urisk", c.URisk, 0.09310532420873642)
	close("trisk", c.TRisk, 2.4509502681134725)
	if c.Topics == nil || *c.Topics != 26 {
		t.Errorf("topics_needed %v, want 26", c.Topics)
	}
	c = run("--min-diff", "0.05", "--power", "0.9", "--risk-alpha", "5")
	if c.Topics == nil || *c.Topics != 199 {
		t.Errorf("--min-diff 0.05 --power 0.9: topics_needed %v, want 199", c.Topics)
	}
	close("urisk (alpha 5)", c.URisk, -0.033068117201328275)
	close("trisk (alpha 5)", c.TRisk, -0.44448172065910785)

	// every format carries them
	for format, want := range map[string]string{
		"table":    "topics (power 0.8)",
		"markdown": "| URisk (alpha 1) |",
		"latex":    "TRisk",
		"tsv":      "\tpower\tmin_diff\ttopics_needed\turisk\ttrisk\n",
	} {
		out, _, err := compareRun(t, "--format", format, qrels, a, b)
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("%s: %v, output lacks %q:\n%s", format, err, want, out)
		}
	}
	for _, bad := range [][]string{{"--power", "0.01"}, {"--power", "1"}, {"--risk-alpha", "-1"}, {"--min-diff", "0"}} {
		if _, _, err := compareRun(t, append(bad, qrels, a, b)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
