package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/rankmetrics/rankmetrics/significance"
)

// powerHelp is the part of compare -h on effect sizes, power and risk.
const powerHelp = `Effect sizes, power and risk (every format; the second table of the tables):
  d_z, g_z       Cohen's d_z = diff / sd of the differences and Hedges' g_z =
                 J(n-1) d_z (exact small-sample correction), with their exact
                 (1 - alpha) intervals from the noncentral t distribution
  power          the achieved power of the two-sided paired t-test at alpha
                 on these n queries if the true d_z were the observed one
                 (statsmodels TTestPower.power): a post-hoc figure, low when
                 the difference is small for the number of queries
  topics         the number of topics the paired t-test needs to detect a
                 difference of --min-diff (default: the observed diff) with
                 power --power at alpha, given the observed sd of the
                 differences (Sakai's topic-set-size design;
                 statsmodels TTestPower.solve_power, rounded up); none when
                 the difference to detect is 0 or sd is 0
  URisk, TRisk   risk-sensitive comparison with the baseline (Dinçer,
                 Macdonald and Ounis, SIGIR 2014): URisk is the mean of the
                 differences with losses counted 1 + --risk-alpha times;
                 TRisk = URisk / its standard error, |TRisk| >= 2 marks a
                 significant gain or loss. --risk-alpha 1 (default) is the
                 first level of the TREC 2013-14 Web track's risk task
                 (which reported 0, 1, 5 and 10).
JSON keys of each comparison: d_z, d_z_ci_low, d_z_ci_high, g_z, g_z_ci_low,
g_z_ci_high, power, min_diff, topics_needed, urisk, trisk; settings: power,
min_diff (null: the observed diff), risk_alpha. TSV: the same names as
columns after significant. Non-finite or undefined values are null in JSON
and "-" in the tables.`

// powerOptions are compare's flags of power and risk.
type powerOptions struct {
	minDiff   float64 // NaN: the observed difference
	power     float64
	riskAlpha float64
}

func (p *powerOptions) register(fs *flag.FlagSet) {
	p.minDiff = math.NaN()
	fs.Func("min-diff", "the difference `D` of the topic-set size (default: the observed diff)", func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
			return fmt.Errorf("want a finite non-zero difference")
		}
		p.minDiff = math.Abs(v)
		return nil
	})
	fs.Float64Var(&p.power, "power", 0.8, "power of the topic-set size")
	fs.Float64Var(&p.riskAlpha, "risk-alpha", significance.DefaultRiskAlpha, "risk aversion of URisk and TRisk: a loss counts 1 + alpha times")
}

func (p *powerOptions) check(alpha float64) error {
	switch {
	case !(p.power > alpha && p.power < 1):
		return fmt.Errorf("--power %v: want alpha < power < 1", p.power)
	case !(p.riskAlpha >= 0) || math.IsInf(p.riskAlpha, 1):
		return fmt.Errorf("--risk-alpha %v: want a finite alpha >= 0", p.riskAlpha)
	}
	return nil
}

// uncertainty is the effect sizes, power and risk of one comparison.
type uncertainty struct {
	effect  significance.EffectInterval
	power   float64 // NaN when undefined
	minDiff float64 // the difference the topic count is for
	topics  float64 // rounded up; NaN when none
	risk    significance.RiskResult
}

// uncertaintyOf computes the effect sizes, power and risk of d.
func (o *compareOptions) uncertaintyOf(sum significance.Summary, d []float64) (uncertainty, error) {
	u := uncertainty{power: math.NaN(), topics: math.NaN(), minDiff: math.Abs(sum.Diff)}
	var err error
	if u.effect, err = significance.Effect(d, o.alpha); err != nil {
		return u, err
	}
	if u.risk, err = significance.Risk(d, o.riskAlpha); err != nil {
		return u, err
	}
	if !math.IsNaN(o.minDiff) {
		u.minDiff = o.minDiff
	}
	if sum.N < 2 || sum.SD == 0 {
		return u, nil
	}
	if u.power, err = significance.PairedTPower(sum.EffectSize, float64(sum.N), o.alpha); err != nil {
		return u, err
	}
	n, err := significance.TopicsNeeded(u.minDiff/sum.SD, o.power, o.alpha)
	switch {
	case errors.Is(err, significance.ErrNoEffect):
	case err != nil:
		// too small a difference: more topics than the search allows
	default:
		u.topics = math.Ceil(n)
	}
	return u, nil
}

// powerRows returns the header and rows of the table of effect sizes,
// power and risk, their text escaped by esc.
func (r *compareReport) powerRows(esc func(string) string) ([]string, [][]string) {
	lvl := fmt.Sprintf("%g%% CI", 100*(1-r.o.alpha))
	head := []string{"measure", "baseline", "run", "d_z", lvl, "g_z", lvl, "power", "min diff", fmt.Sprintf("topics (power %g)", r.o.power),
		fmt.Sprintf("URisk (alpha %g)", r.o.riskAlpha), "TRisk"}
	for i, h := range head {
		head[i] = esc(h)
	}
	dash := func(s string, v float64) string {
		if math.IsNaN(v) {
			return "-"
		}
		return s
	}
	var rows [][]string
	for _, c := range r.comps {
		u, e := c.unc, c.unc.effect
		rows = append(rows, []string{esc(r.o.measures[c.measure].Name), esc(r.runs[c.base].name), esc(r.runs[c.run].name),
			r.num(e.DZ), "[" + r.signed(e.DZLow) + ", " + r.signed(e.DZHigh) + "]",
			r.num(e.GZ), "[" + r.signed(e.GZLow) + ", " + r.signed(e.GZHigh) + "]",
			dash(pval(u.power), u.power), r.num(u.minDiff), dash(strconv.FormatFloat(u.topics, 'f', 0, 64), u.topics),
			r.signed(u.risk.URisk), r.num(u.risk.TRisk)})
	}
	return head, rows
}

// jsonUncertainty is the JSON of uncertainty, inlined in jsonComparison.
type jsonUncertainty struct {
	DZ      jnum `json:"d_z"`
	DZLow   jnum `json:"d_z_ci_low"`
	DZHigh  jnum `json:"d_z_ci_high"`
	GZ      jnum `json:"g_z"`
	GZLow   jnum `json:"g_z_ci_low"`
	GZHigh  jnum `json:"g_z_ci_high"`
	Power   jnum `json:"power"`
	MinDiff jnum `json:"min_diff"`
	Topics  jnum `json:"topics_needed"`
	URisk   jnum `json:"urisk"`
	TRisk   jnum `json:"trisk"`
}

func (u uncertainty) json() jsonUncertainty {
	e := u.effect
	return jsonUncertainty{DZ: jnum(e.DZ), DZLow: jnum(e.DZLow), DZHigh: jnum(e.DZHigh), GZ: jnum(e.GZ), GZLow: jnum(e.GZLow), GZHigh: jnum(e.GZHigh),
		Power: jnum(u.power), MinDiff: jnum(u.minDiff), Topics: jnum(u.topics), URisk: jnum(u.risk.URisk), TRisk: jnum(u.risk.TRisk)}
}

// tsvUncertaintyHead is the header of the TSV columns of uncertainty.
const tsvUncertaintyHead = "\td_z\td_z_ci_low\td_z_ci_high\tg_z\tg_z_ci_low\tg_z_ci_high\tpower\tmin_diff\ttopics_needed\turisk\ttrisk"

// tsv returns the TSV cells of u, each after a tab.
func (u uncertainty) tsv() string {
	e := u.effect
	s := ""
	for _, v := range []float64{e.DZ, e.DZLow, e.DZHigh, e.GZ, e.GZLow, e.GZHigh, u.power, u.minDiff, u.topics, u.risk.URisk, u.risk.TRisk} {
		s += "\t" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}
