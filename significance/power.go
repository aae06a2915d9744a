package significance

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// PairedTPower returns the power of the two-sided paired t-test at level
// alpha on n queries when the true standardised mean difference is
// effect (Cohen's d_z = mean(d)/sd(d)): with t_c = t(1 - alpha/2, n-1) and
// the noncentral t distribution T of n-1 degrees of freedom and
// noncentrality effect*sqrt(n),
//
//	power = P(T > t_c) + P(T < -t_c),
//
// as statsmodels' TTestPower().power(effect, n, alpha,
// alternative="two-sided"). n may be fractional (the topic-set-size
// search needs it); it must be above 1.
func PairedTPower(effect, n, alpha float64) (float64, error) {
	switch {
	case math.IsNaN(effect) || math.IsInf(effect, 0):
		return 0, fmt.Errorf("significance: effect size %v: want a finite value", effect)
	case !(n > 1) || math.IsInf(n, 1):
		return 0, fmt.Errorf("significance: %v queries: want more than 1", n)
	case !(alpha > 0 && alpha < 1):
		return 0, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", alpha)
	}
	df := n - 1
	tc := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - alpha/2)
	nct := NoncentralT{Nu: df, Lambda: effect * math.Sqrt(n)}
	return min(1, nct.Survival(tc)+nct.CDF(-tc)), nil
}

// ErrNoEffect is returned by [TopicsNeeded] for an effect size of 0: no
// number of topics detects it with a power above alpha.
var ErrNoEffect = errors.New("significance: an effect size of 0 cannot be detected")

// maxTopics bounds the search of TopicsNeeded.
const maxTopics = 1e9

// TopicsNeeded returns the number of topics the two-sided paired t-test
// at level alpha needs to detect a standardised mean difference effect
// (d_z: the difference to detect over the standard deviation of the
// per-topic differences) with the given power: the smallest real n > 1
// with [PairedTPower](effect, n, alpha) = power, found by bisection to
// 1e-12 relative, as statsmodels' TTestPower().solve_power(effect, None,
// alpha, power); the topic-set-size design of Sakai (2016) for the paired
// t-test rounds it up. It returns n itself, not rounded. The power must
// lie in (alpha, 1); an effect of 0 gives [ErrNoEffect], and an effect so
// small that more than 1e9 topics are needed an error.
func TopicsNeeded(effect, power, alpha float64) (float64, error) {
	switch {
	case math.IsNaN(effect) || math.IsInf(effect, 0):
		return 0, fmt.Errorf("significance: effect size %v: want a finite value", effect)
	case effect == 0:
		return 0, ErrNoEffect
	case !(alpha > 0 && alpha < 1):
		return 0, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", alpha)
	case !(power > alpha && power < 1):
		return 0, fmt.Errorf("significance: power %v: want alpha < power < 1", power)
	}
	f := func(n float64) float64 {
		p, _ := PairedTPower(effect, n, alpha)
		return p - power
	}
	// The power grows with n from about alpha (n -> 1) to 1.
	lo, hi := 1.0, 2.0
	if f(hi) >= 0 {
		// n in (1, 2]: the power tends to alpha as n -> 1
		lo = 1 + 1e-9
		if f(lo) >= 0 {
			return lo, nil
		}
	} else {
		for f(hi) < 0 {
			lo, hi = hi, 2*hi
			if hi > maxTopics {
				return 0, fmt.Errorf("significance: effect size %v: more than %g topics needed", effect, maxTopics)
			}
		}
	}
	for hi-lo > 1e-12*hi {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

// EffectInterval is a standardised mean difference of paired values with
// its confidence interval.
type EffectInterval struct {
	// DZ is Cohen's d_z = mean(d)/sd(d), and DZLow, DZHigh its exact
	// (1 - alpha) interval: d_z = t/sqrt(n) for the paired t statistic t,
	// which follows the noncentral t distribution with n-1 degrees of
	// freedom and noncentrality d_z sqrt(n); the bounds are lambda/sqrt(n)
	// for the lambda whose distribution puts t at its 1 - alpha/2 and
	// alpha/2 quantiles (Steiger and Fouladi 1997; Cumming and Finch 2001).
	DZ, DZLow, DZHigh float64
	// GZ is Hedges' g_z = J(n-1) d_z, with the exact small-sample
	// correction J(m) = Gamma(m/2) / (sqrt(m/2) Gamma((m-1)/2)) (Hedges
	// 1981), and GZLow, GZHigh the interval of d_z times J.
	GZ, GZLow, GZHigh float64
}

// Effect returns d_z and Hedges' g_z of the differences d with their
// (1 - alpha) intervals. With fewer than 3 differences (J needs 2 degrees
// of freedom), or sd(d) = 0, the values are those of [Summary].EffectSize
// (0 or ±Inf) and the intervals (-Inf, +Inf) or the point.
func Effect(d []float64, alpha float64) (EffectInterval, error) {
	if !(alpha > 0 && alpha < 1) {
		return EffectInterval{}, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", alpha)
	}
	if err := checkFinite(d); err != nil {
		return EffectInterval{}, err
	}
	n := len(d)
	m, sd := meanSD(d)
	dz := ratio(m, sd)
	e := EffectInterval{DZ: dz, DZLow: math.Inf(-1), DZHigh: math.Inf(1), GZ: dz, GZLow: math.Inf(-1), GZHigh: math.Inf(1)}
	if n < 3 {
		return e, nil
	}
	if math.IsInf(dz, 0) || dz == 0 && sd == 0 {
		e.DZLow, e.DZHigh, e.GZLow, e.GZHigh = dz, dz, dz, dz
		return e, nil
	}
	df := float64(n - 1)
	rn := math.Sqrt(float64(n))
	t := dz * rn
	lo, err := ncpFor(t, df, 1-alpha/2)
	if err != nil {
		return EffectInterval{}, err
	}
	hi, err := ncpFor(t, df, alpha/2)
	if err != nil {
		return EffectInterval{}, err
	}
	j := math.Exp(lgamma(df/2) - lgamma((df-1)/2) - 0.5*math.Log(df/2))
	e.DZLow, e.DZHigh = lo/rn, hi/rn
	e.GZ, e.GZLow, e.GZHigh = j*dz, j*e.DZLow, j*e.DZHigh
	return e, nil
}

// ncpFor returns the noncentrality lambda with F(t; df, lambda) = p. F
// decreases in lambda; the root is bracketed around t and refined by
// bisection to 1e-13 relative.
func ncpFor(t, df, p float64) (float64, error) {
	f := func(l float64) float64 { return NoncentralT{Nu: df, Lambda: l}.CDF(t) - p }
	step := 1 + math.Abs(t)/4
	lo, hi := t-step, t+step
	for i := 0; f(lo) < 0; i++ {
		lo -= step
		step *= 2
		if i > 60 {
			return 0, fmt.Errorf("significance: no noncentrality for t %v, df %v, p %v", t, df, p)
		}
	}
	step = 1 + math.Abs(t)/4
	for i := 0; f(hi) > 0; i++ {
		hi += step
		step *= 2
		if i > 60 {
			return 0, fmt.Errorf("significance: no noncentrality for t %v, df %v, p %v", t, df, p)
		}
	}
	for hi-lo > 1e-13*max(1, math.Abs(hi)) {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2, nil
}
