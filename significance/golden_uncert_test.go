package significance

import (
	"context"
	"math"
	"testing"
)

// uncertaintyCase holds scipy's and statsmodels' answers on one case of
// the golden file (parity/stats/golden.py) for the intervals, effect
// sizes, power and risk.
type uncertaintyCase struct {
	TInterval *struct{ Low, High float64 } `json:"t_interval"`
	BCa       *struct {
		Low, High     float64
		SDLow         float64 `json:"sd_low"`
		SDHigh        float64 `json:"sd_high"`
		StandardError float64 `json:"standard_error"`
		Runs          int     `json:"runs"`
	} `json:"bca"`
	Effect *struct {
		DZ     float64 `json:"dz"`
		DZLow  float64 `json:"dz_low"`
		DZHigh float64 `json:"dz_high"`
		GZ     float64 `json:"gz"`
		GZLow  float64 `json:"gz_low"`
		GZHigh float64 `json:"gz_high"`
	} `json:"effect"`
	Power  *float64      `json:"power"`
	Topics *goldenTopics `json:"topics"`
	Risk   *struct {
		URisk float64 `json:"urisk"`
		TRisk float64 `json:"trisk"`
	} `json:"risk"`
}

type goldenTopics struct {
	Effect, Power, Alpha float64
	// Nobs is the real n solved tightly on statsmodels' power function;
	// Statsmodels is solve_power's answer (to its xtol 1e-5), Topics its
	// ceiling.
	Nobs        float64 `json:"nobs"`
	Statsmodels float64 `json:"statsmodels"`
	Topics      int     `json:"topics"`
}

// uncertaintyFile holds the grids of the golden file that are not cases.
type uncertaintyFile struct {
	Power     float64 `json:"power"`
	RiskAlpha float64 `json:"risk_alpha"`
	NCT       []struct {
		T, DF, NCP, CDF, SF float64
	} `json:"nct"`
	PowerGrid []struct {
		Effect, Nobs, Alpha, Power float64
	} `json:"power_grid"`
	TopicsGrid []goldenTopics `json:"topics_grid"`
}

// checkUncertainty checks the intervals, effect sizes, power, topic counts
// and risk of g: the t interval, the noncentral t, the power, the real
// topic count, the d_z and g_z intervals and URisk/TRisk within 1e-9
// relative, the rounded-up topic count exactly, and the BCa bounds within
// 5 Monte Carlo standard errors of the mean of scipy's runs.
func checkUncertainty(t *testing.T, g *goldenFile, check func(kind, name string, ok bool, format string, args ...any), maxRel map[string]float64) {
	t.Helper()
	ctx := context.Background()
	rel := func(kind string, got, want float64) float64 {
		e := relErr(got, want)
		maxRel[kind] = max(maxRel[kind], e)
		return e
	}
	relZero := func(kind string, got, want float64) float64 {
		e := relErrZero(got, want)
		maxRel[kind] = max(maxRel[kind], e)
		return e
	}
	for i, c := range g.NCT {
		d := NoncentralT{Nu: c.DF, Lambda: c.NCP}
		e := max(rel("nct", d.CDF(c.T), c.CDF), rel("nct", d.Survival(c.T), c.SF))
		check("nct", "nct-"+itoa(i), e <= 1e-9, "t=%v df=%v ncp=%v: got cdf %v sf %v, scipy %v %v (rel %.3g)", c.T, c.DF, c.NCP, d.CDF(c.T), d.Survival(c.T), c.CDF, c.SF, e)
	}
	for i, c := range g.PowerGrid {
		p, err := PairedTPower(c.Effect, c.Nobs, c.Alpha)
		if err != nil {
			t.Fatal(err)
		}
		e := rel("power", p, c.Power)
		check("power", "power-"+itoa(i), e <= 1e-9, "effect %v n %v: got %v, statsmodels %v (rel %.3g)", c.Effect, c.Nobs, p, c.Power, e)
	}
	checkTopics := func(name string, c *goldenTopics) {
		n, err := TopicsNeeded(c.Effect, c.Power, c.Alpha)
		if err != nil {
			t.Fatal(err)
		}
		e := rel("topics", n, c.Nobs)
		// statsmodels stops within 1e-5 of n: its ceiling is only
		// reliable away from integers.
		frac := c.Nobs - math.Floor(c.Nobs)
		exact := frac < 1e-4 || frac > 1-1e-4 || int(math.Ceil(n)) == c.Topics
		check("topics", name, e <= 1e-9 && exact, "effect %v power %v: got n %v (%v topics), statsmodels n %v (%v) %d topics (rel %.3g)", c.Effect, c.Power, n, math.Ceil(n), c.Nobs, c.Statsmodels, c.Topics, e)
	}
	for i := range g.TopicsGrid {
		checkTopics("topics-"+itoa(i), &g.TopicsGrid[i])
	}
	for ci, c := range g.Cases {
		d, err := Differences(c.Baseline, c.Run)
		if err != nil {
			t.Fatal(err)
		}
		if c.TInterval != nil {
			iv, err := MeanT(c.Run, g.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			var m Moments
			for _, v := range c.Run {
				m.Add(v)
			}
			ivs, err := m.TInterval(g.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			e := max(rel("t-interval", iv.Low, c.TInterval.Low), rel("t-interval", iv.High, c.TInterval.High),
				rel("t-interval", ivs.Low, c.TInterval.Low), rel("t-interval", ivs.High, c.TInterval.High))
			check("t-interval", c.Name, e <= 1e-9, "got [%v, %v] (streaming [%v, %v]), scipy [%v, %v] (rel %.3g)", iv.Low, iv.High, ivs.Low, ivs.High, c.TInterval.Low, c.TInterval.High, e)
		}
		if b := c.BCa; b != nil {
			iv, err := MeanBCa(ctx, c.Run, WithSamples(g.Samples), WithSeed(uint64(g.Seed)), WithStream(uint64(ci)), WithAlpha(g.Alpha))
			if err != nil {
				t.Fatal(err)
			}
			// The reference is the mean of b.Runs scipy runs of
			// g.Samples resamples; ours is one run of as many: the
			// difference has the standard deviation of one run times
			// sqrt(1 + 1/runs). The spread of b.Runs runs estimates it
			// (floored by the error of a percentile of B normal draws,
			// as for the percentile bootstrap).
			R := float64(b.Runs)
			q := g.Alpha / 2
			floor := 0.0
			if b.StandardError > 0 {
				floor = math.Sqrt(q*(1-q)/float64(g.Samples)) / 0.05844 * b.StandardError // 0.05844 = phi(z_0.025)
			}
			seLow := max(b.SDLow, floor) * math.Sqrt(1+1/R)
			seHigh := max(b.SDHigh, floor) * math.Sqrt(1+1/R)
			lattice := 2 * latticeStep(c.Run)
			gl, gh := math.Abs(iv.Low-b.Low), math.Abs(iv.High-b.High)
			if seLow > 0 && seHigh > 0 {
				maxRel["bca (se)"] = max(maxRel["bca (se)"], max(gl-lattice, 0)/seLow, max(gh-lattice, 0)/seHigh)
			}
			ok := gl <= 5*seLow+lattice+1e-12 && gh <= 5*seHigh+lattice+1e-12
			check("bca", c.Name, ok, "got [%v, %v], scipy mean of %d runs [%v, %v] (5 se = %.3g, %.3g)", iv.Low, iv.High, b.Runs, b.Low, b.High, 5*seLow, 5*seHigh)
		}
		if c.Effect != nil {
			e, err := Effect(d, g.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			w := c.Effect
			r := max(relZero("effect", e.DZ, w.DZ), rel("effect", e.DZLow, w.DZLow), rel("effect", e.DZHigh, w.DZHigh),
				relZero("effect", e.GZ, w.GZ), rel("effect", e.GZLow, w.GZLow), rel("effect", e.GZHigh, w.GZHigh))
			check("effect", c.Name, r <= 1e-9, "got %+v, scipy %+v (rel %.3g)", e, *w, r)
		}
		if c.Power != nil {
			s, err := Summarize(c.Baseline, c.Run, g.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			p, err := PairedTPower(s.EffectSize, float64(s.N), g.Alpha)
			if err != nil {
				t.Fatal(err)
			}
			e := rel("power", p, *c.Power)
			check("power", c.Name, e <= 1e-9, "got %v, statsmodels %v (rel %.3g)", p, *c.Power, e)
		}
		if c.Topics != nil {
			checkTopics(c.Name, c.Topics)
		}
		if c.Risk != nil {
			r, err := Risk(d, g.RiskAlpha)
			if err != nil {
				t.Fatal(err)
			}
			// A mean of exactly 0 in numpy's pairwise sum may be
			// 1e-17 in ours (and TRisk 1e-16): below 1e-12 both are 0.
			if math.Abs(r.URisk) < 1e-12 && math.Abs(c.Risk.URisk) < 1e-12 {
				r.URisk, c.Risk.URisk = 0, 0
				if math.Abs(r.TRisk) < 1e-12 && math.Abs(c.Risk.TRisk) < 1e-12 {
					r.TRisk, c.Risk.TRisk = 0, 0
				}
			}
			e := max(rel("risk", r.URisk, c.Risk.URisk), rel("risk", r.TRisk, c.Risk.TRisk))
			check("risk", c.Name, e <= 1e-9, "got %+v, numpy %+v (rel %.3g)", r, *c.Risk, e)
		}
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
