package significance

import (
	"fmt"
	"math"
)

// DefaultRiskAlpha is the risk-aversion parameter of [Risk] when none is
// given: alpha = 1 counts a loss twice, the setting the TREC 2013 and
// 2014 Web tracks' risk-sensitive task reported first (beside 5 and 10).
const DefaultRiskAlpha = 1.0

// RiskResult is the risk-sensitive comparison of a run with a baseline.
type RiskResult struct {
	// URisk is the risk-sensitive utility (1/n) [sum of the wins
	// d_i > 0 + (1 + alpha) sum of the losses d_i < 0], the mean of the
	// risk-adjusted differences r_i = d_i for d_i >= 0 and
	// (1 + alpha) d_i for d_i < 0. Above 0 the run's gains outweigh its
	// losses counted 1 + alpha times.
	URisk float64
	// TRisk is URisk over its standard error, sd(r)/sqrt(n) (sd with
	// divisor n-1): the paired t statistic of the risk-adjusted
	// differences. |TRisk| >= 2 is the usual mark of a significant gain
	// (above 2) or loss (below -2) over the baseline. It is 0 when every
	// r_i is 0 and ±Inf when they are equal and non-zero, or n = 1.
	TRisk float64
}

// Risk returns URisk and TRisk of the differences d (run - baseline) with
// risk-aversion alpha >= 0 (Dinçer, Macdonald and Ounis, "Hypothesis
// testing for the risk-sensitive evaluation of retrieval systems", SIGIR
// 2014). With alpha = 0 URisk is the mean difference and TRisk the paired
// t statistic. No differences give 0 and 0.
func Risk(d []float64, alpha float64) (RiskResult, error) {
	if !(alpha >= 0) || math.IsInf(alpha, 1) {
		return RiskResult{}, fmt.Errorf("significance: risk alpha %v: want a finite alpha >= 0", alpha)
	}
	if err := checkFinite(d); err != nil {
		return RiskResult{}, err
	}
	if len(d) == 0 {
		return RiskResult{}, nil
	}
	r := make([]float64, len(d))
	for i, v := range d {
		r[i] = v
		if v < 0 {
			r[i] = (1 + alpha) * v
		}
	}
	m, sd := meanSD(r)
	return RiskResult{URisk: m, TRisk: ratio(m, sd/math.Sqrt(float64(len(r))))}, nil
}
