package significance

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Differences returns run[i] - baseline[i] for every query i. The two
// slices must have the same length (the same queries in the same order)
// and finite values; the error names the first query that is not.
func Differences(baseline, run []float64) ([]float64, error) {
	if len(baseline) != len(run) {
		return nil, fmt.Errorf("significance: %d baseline values and %d run values: the queries must be paired", len(baseline), len(run))
	}
	d := make([]float64, len(run))
	for i := range run {
		if err := finite("baseline", i, baseline[i]); err != nil {
			return nil, err
		}
		if err := finite("run", i, run[i]); err != nil {
			return nil, err
		}
		d[i] = run[i] - baseline[i]
	}
	return d, nil
}

func finite(what string, i int, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("significance: %s value %d is %v: want finite values", what, i, v)
	}
	return nil
}

func checkFinite(d []float64) error {
	for i, v := range d {
		if err := finite("difference", i, v); err != nil {
			return err
		}
	}
	return nil
}

// Summary describes the per-query differences run - baseline of a pair of
// systems.
type Summary struct {
	// N is the number of paired queries.
	N int
	// MeanBaseline and MeanRun are the means of the two systems (0 when
	// N = 0).
	MeanBaseline, MeanRun float64
	// Diff is the mean of the differences (MeanRun - MeanBaseline up to
	// rounding).
	Diff float64
	// SD is the sample standard deviation of the differences (divisor
	// N - 1; 0 when N < 2).
	SD float64
	// EffectSize is Diff / SD, the standardised mean difference of paired
	// data (Cohen's d_z). It is 0 when every difference is 0 (or N = 0),
	// and ±Inf when the differences are equal and non-zero, or N = 1 and
	// the difference is not zero.
	EffectSize float64
	// CILow and CIHigh bound the t interval of the mean difference at
	// level 1 - alpha: Diff ± t(1-alpha/2, N-1) SD / sqrt(N). With N < 2
	// it is (-Inf, +Inf); with SD = 0 and N >= 2 it is the point
	// [Diff, Diff].
	CILow, CIHigh float64
	// Wins, Ties and Losses count the queries where the run is above,
	// equal to and below the baseline.
	Wins, Ties, Losses int
}

// Summarize returns the summary of the pair (baseline, run) with a
// (1 - alpha) interval. See [Summary] for the conventions of small or
// degenerate samples.
func Summarize(baseline, run []float64, alpha float64) (Summary, error) {
	if !(alpha > 0 && alpha < 1) {
		return Summary{}, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", alpha)
	}
	d, err := Differences(baseline, run)
	if err != nil {
		return Summary{}, err
	}
	s := Summary{N: len(d), CILow: math.Inf(-1), CIHigh: math.Inf(1)}
	if s.N == 0 {
		return s, nil
	}
	s.MeanBaseline = mean(baseline)
	s.MeanRun = mean(run)
	for _, v := range d {
		switch {
		case v > 0:
			s.Wins++
		case v < 0:
			s.Losses++
		default:
			s.Ties++
		}
	}
	s.Diff, s.SD = meanSD(d)
	s.EffectSize = ratio(s.Diff, s.SD)
	if s.N >= 2 {
		half := 0.0
		if s.SD > 0 {
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(1 - alpha/2)
			half = q * s.SD / math.Sqrt(float64(s.N))
		}
		s.CILow, s.CIHigh = s.Diff-half, s.Diff+half
	}
	return s, nil
}

// mean returns the mean of x, summed in order (0 for no values).
func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// meanSD returns the mean and the sample standard deviation (divisor n-1,
// two passes as numpy's var(ddof=1)) of x; sd is 0 when len(x) < 2.
func meanSD(x []float64) (m, sd float64) {
	m = mean(x)
	if len(x) < 2 {
		return m, 0
	}
	var ss float64
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return m, math.Sqrt(ss / float64(len(x)-1))
}

// ratio returns num/den with 0/0 = 0 and num/0 = ±Inf.
func ratio(num, den float64) float64 {
	if den == 0 {
		if num == 0 {
			return 0
		}
		return math.Copysign(math.Inf(1), num)
	}
	return num / den
}
