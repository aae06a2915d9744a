package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/significance"
)

// ciHelp is the part of eval -h on the intervals.
const ciHelp = `Intervals: beside each measure's value, a (1 - --alpha) confidence interval
of the mean of its per-query values (ci_low, ci_high):
  t          (the default) the t interval mean ± t(1-alpha/2, n-1) sd/sqrt(n),
             as scipy.stats.t.interval: deterministic, and cheap: it keeps the
             count, mean and sum of squared deviations of each measure (24
             bytes), so eval still streams.
  bootstrap  the BCa bootstrap interval, as scipy.stats.bootstrap(method=
             "BCa"), from --ci-samples resamples drawn from --ci-seed in fixed
             blocks of seeded streams: the same bytes for any --workers. It
             keeps every per-query value: 8 bytes per query and measure, and
             costs --ci-samples x queries draws per measure.
  none       no interval.
The interval is of the unweighted mean of the per-query values, which is the
measure's value for trec_eval's means and for TF-Ranking's measures when every
list weight is 1 (no weight column). There is none (null in JSON, "-" in the
table and TSV) for TF-Ranking's weighted means with a list weight other than
1, for trec_eval's sums (num_rel, num_ret, num_rel_ret...), and for a single
query. In JSON: "ci": {"method", "level", "samples", "seed", "measures":
{NAME: {"ci_low", "ci_high"} or null}}; in TSV, summary rows as the counters'
(qid all): ci_low:NAME all VALUE and ci_high:NAME all VALUE after NAME all VALUE. The table prints the bounds with
--digits decimals, 4 when --digits is -1 (JSON and TSV print them whole).`

// ciOptions are eval's interval flags.
type ciOptions struct {
	method  string // t, bootstrap or none
	alpha   float64
	samples int
	seed    uint64
}

func (c *ciOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&c.method, "ci", "t", "interval beside each value: t, bootstrap or none (see Intervals above)")
	fs.Float64Var(&c.alpha, "alpha", significance.DefaultAlpha, "the intervals cover 1 - alpha")
	fs.IntVar(&c.samples, "ci-samples", significance.DefaultSamples, "bootstrap resamples of --ci bootstrap")
	fs.Uint64Var(&c.seed, "ci-seed", 0, "seed of the resamples of --ci bootstrap")
}

func (c *ciOptions) check() error {
	switch c.method {
	case "t", "bootstrap", "none":
	default:
		return fmt.Errorf("--ci %q: want t, bootstrap or none", c.method)
	}
	switch {
	case !(c.alpha > 0 && c.alpha < 1):
		return fmt.Errorf("--alpha %v: want 0 < alpha < 1", c.alpha)
	case c.samples < 1:
		return fmt.Errorf("--ci-samples %d: want at least 1", c.samples)
	}
	return nil
}

// ciCollector gathers what the intervals need from the per-query values.
type ciCollector struct {
	o ciOptions
	// states hold, per measure, the moments of the t interval and whether
	// a list weight other than 1 was seen (evaluate.MeanInterval).
	states []evaluate.MeanInterval
	values [][]float64 // per measure, for the bootstrap
}

func newCICollector(o ciOptions, measures int) *ciCollector {
	c := &ciCollector{o: o, states: make([]evaluate.MeanInterval, measures)}
	if o.method == "bootstrap" {
		c.values = make([][]float64, measures)
	}
	return c
}

// add takes the values of a batch.
func (c *ciCollector) add(b *evaluate.Batch) {
	for m := range c.states {
		for i := range b.Len() {
			v, w := b.Value(m, i), b.Weight(m, i)
			if c.values != nil {
				c.values[m] = append(c.values[m], v)
				if w != 1 {
					c.states[m].Weighted = true
				}
			} else {
				c.states[m].Add(v, w)
			}
		}
	}
}

// intervals returns the interval of every measure, nil where there is
// none (evaluate.HasInterval, evaluate.ReportedInterval), and where a
// per-query value is not finite (the value is reported without one).
func (c *ciCollector) intervals(ctx context.Context, measures []evaluate.Measure, workers int) ([]*significance.Interval, error) {
	out := make([]*significance.Interval, len(measures))
	for m, ms := range measures {
		var err error
		if c.values == nil {
			out[m], err = c.states[m].TInterval(ms, c.o.alpha)
		} else if evaluate.HasInterval(ms, c.states[m].Weighted) && allFinite(c.values[m]) {
			var iv significance.Interval
			iv, err = significance.MeanBCa(ctx, c.values[m], significance.WithAlpha(c.o.alpha),
				significance.WithSamples(c.o.samples), significance.WithSeed(c.o.seed),
				significance.WithStream(uint64(m)), significance.WithWorkers(workers))
			out[m] = evaluate.ReportedInterval(iv)
		}
		if err != nil {
			return nil, fmt.Errorf("--ci %s: %s: %w", c.o.method, ms.Name, err)
		}
	}
	return out, nil
}

// interval returns the interval of measure m, nil when there is none or
// when none was computed.
func (r *reporter) interval(m int) *significance.Interval {
	if m < len(r.ivs) {
		return r.ivs[m]
	}
	return nil
}

// level returns "95%" for alpha 0.05.
func (c ciOptions) level() string {
	return strconv.FormatFloat(100*(1-c.alpha), 'g', -1, 64) + "%"
}

// formatBound formats a bound of an interval with digits decimals (-1:
// the shortest form of the float64).
func formatBound(v float64, digits int) string {
	if digits < 0 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// ciCell returns the table cell of an interval: "[low, high]" or "-",
// with digits decimals, 4 when digits is -1: the bounds are estimates, and
// their 17 significant digits would be noise (JSON and TSV have them all).
func ciCell(iv *significance.Interval, digits int) string {
	if iv == nil {
		return "-"
	}
	if digits < 0 {
		digits = 4
	}
	return "[" + formatBound(iv.Low, digits) + ", " + formatBound(iv.High, digits) + "]"
}

// ciJSON returns the "ci" member of eval's JSON summary.
func (c ciOptions) json(measures []evaluate.Measure, r *reporter) string {
	s := fmt.Sprintf("\"ci\":{\"method\":%q,\"level\":%s", c.method, strconv.FormatFloat(1-c.alpha, 'g', -1, 64))
	if c.method == "bootstrap" {
		s += fmt.Sprintf(",\"samples\":%d,\"seed\":%d", c.samples, c.seed)
	}
	s += ",\"measures\":{"
	for m, ms := range measures {
		if m > 0 {
			s += ","
		}
		s += jsonString(ms.Name) + ":"
		iv := r.interval(m)
		if iv == nil {
			s += "null"
			continue
		}
		s += "{\"ci_low\":" + strconv.FormatFloat(iv.Low, 'g', -1, 64) + ",\"ci_high\":" + strconv.FormatFloat(iv.High, 'g', -1, 64) + "}"
	}
	return s + "}}"
}

// ciName names the method in the table's header: "t" or "BCa".
func ciName(c ciOptions) string {
	if c.method == "bootstrap" {
		return "BCa"
	}
	return c.method
}

// allFinite reports whether every value of x is finite.
func allFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
