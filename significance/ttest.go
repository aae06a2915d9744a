package significance

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Result is the outcome of a two-sided test of "no difference".
type Result struct {
	// Statistic is the test's statistic (see each test).
	Statistic float64
	// P is the two-sided p-value, in [0, 1], never NaN.
	P float64
	// Exact is true when P comes from the exact null distribution or a
	// full enumeration, false for an approximation or Monte Carlo.
	Exact bool
	// Samples is the number of Monte Carlo samples behind P (0 when none).
	Samples int
}

// PairedT is Student's paired t-test of the differences d (run -
// baseline): t = mean(d) / (sd(d) / sqrt(n)) with n-1 degrees of freedom,
// p = 2 P(T > |t|) from gonum's Student's t distribution, as
// scipy.stats.ttest_rel(run, baseline).
//
// Where scipy returns NaN, PairedT defines: n < 2 gives t = 0, p = 1 (no
// evidence); every difference 0 gives t = 0, p = 1; equal non-zero
// differences give t = ±Inf, p = 0 (scipy gives the same).
func PairedT(d []float64) (Result, error) {
	if err := checkFinite(d); err != nil {
		return Result{}, err
	}
	n := len(d)
	if n < 2 {
		return Result{P: 1, Exact: true}, nil
	}
	m, sd := meanSD(d)
	t := ratio(m, sd/math.Sqrt(float64(n)))
	if t == 0 {
		return Result{P: 1, Exact: true}, nil
	}
	if math.IsInf(t, 0) {
		return Result{Statistic: t, P: 0, Exact: true}, nil
	}
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	return Result{Statistic: t, P: min(1, 2*st.Survival(math.Abs(t))), Exact: true}, nil
}
