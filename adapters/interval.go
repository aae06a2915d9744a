package adapters

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/significance"
)

// The suffixes of the metric names under which [WithInterval] adds the
// bounds of a metric's interval, and by which [FormatMetric] and
// [History.WriteText] find them.
const (
	CILowSuffix  = "_ci_low"
	CIHighSuffix = "_ci_high"
)

// WithInterval returns a copy of metrics with the (1 - alpha) t interval
// of the mean of the per-query values added under key+"_ci_low" and
// key+"_ci_high" ([significance.Moments.TInterval], as
// scipy.stats.t.interval), so that a [History] records, and writes in CSV
// and JSON, the validation metric with its interval over the validation
// queries. perQuery are the values behind metrics[key] ([PerQuery.Values]);
// the interval is of their unweighted mean. With fewer than two values
// the bounds are -Inf and +Inf.
func WithInterval(metrics map[string]float64, key string, perQuery []float64, alpha float64) (map[string]float64, error) {
	var m significance.Moments
	for _, v := range perQuery {
		m.Add(v)
	}
	iv, err := m.TInterval(alpha)
	if err != nil {
		return nil, fmt.Errorf("adapters: WithInterval %q: %w", key, err)
	}
	out := make(map[string]float64, len(metrics)+2)
	for k, v := range metrics {
		out[k] = v
	}
	out[key+CILowSuffix], out[key+CIHighSuffix] = iv.Low, iv.High
	return out, nil
}

// FormatMetric returns metrics[key] with four decimals, followed by its
// interval " [low, high]" when metrics holds key+[CILowSuffix] and
// key+[CIHighSuffix] (as [WithInterval] adds them): "0.6194 [0.5812,
// 0.6576]". Non-finite values are NaN, +Inf and -Inf. It returns "" when
// metrics lacks key.
func FormatMetric(metrics map[string]float64, key string) string {
	v, ok := metrics[key]
	if !ok {
		return ""
	}
	s := fmt.Sprintf("%.4f", v)
	lo, okLo := metrics[key+CILowSuffix]
	hi, okHi := metrics[key+CIHighSuffix]
	if okLo && okHi {
		s += fmt.Sprintf(" [%.4f, %.4f]", lo, hi)
	}
	return s
}
