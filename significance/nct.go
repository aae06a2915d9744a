package significance

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// NoncentralT is the noncentral t distribution with Nu degrees of freedom
// and noncentrality parameter Lambda: the law of (Z + Lambda) / sqrt(V/Nu)
// for Z standard normal and V chi-squared with Nu degrees of freedom,
// independent. It is the law of the paired t statistic when the true mean
// difference over its standard deviation is Lambda / sqrt(n). gonum's
// stat/distuv has no such distribution.
type NoncentralT struct {
	// Nu is the number of degrees of freedom, Nu > 0.
	Nu float64
	// Lambda is the noncentrality parameter (0: Student's t).
	Lambda float64
}

// nctTerm is the smallest Poisson weight kept in the series of CDF.
const nctTerm = 1e-18

// CDF returns P(T <= t).
//
// For t >= 0 it is the series of Guenther (1978) that Lenth's AS 243
// (1989) sums, with x = t^2/(t^2+Nu) and m = Lambda^2/2:
//
//	F(t) = Phi(-Lambda) + 1/2 sum_j [ P_j I_x(j+1/2, Nu/2)
//	                         + Lambda/sqrt(2) Q_j I_x(j+1, Nu/2) ]
//
// with P_j = e^-m m^j / j! and Q_j = e^-m m^j / Gamma(j+3/2), I the
// regularised incomplete beta function (gonum's mathext.RegIncBeta).
// Unlike AS 243, which starts at j = 0 (and underflows for Lambda above
// about 38), the sum starts at the mode j = floor(m) of the weights and
// goes both ways until the weights fall below 1e-18, each term computed
// directly. For t < 0, F(t; Nu, Lambda) = 1 - F(-t; Nu, -Lambda). The
// absolute error is of the order of 1e-15.
func (d NoncentralT) CDF(t float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(d.Nu) || math.IsNaN(d.Lambda) || !(d.Nu > 0):
		return math.NaN()
	case math.IsInf(t, 1):
		return 1
	case math.IsInf(t, -1):
		return 0
	case d.Lambda == 0:
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: d.Nu}.CDF(t)
	case t < 0:
		return clamp01(1 - nctUpper(-t, d.Nu, -d.Lambda))
	}
	return clamp01(nctUpper(t, d.Nu, d.Lambda))
}

// Survival returns P(T > t) = 1 - CDF(t).
func (d NoncentralT) Survival(t float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(d.Nu) || math.IsNaN(d.Lambda) || !(d.Nu > 0):
		return math.NaN()
	case d.Lambda == 0:
		return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: d.Nu}.Survival(t)
	case t < 0 && !math.IsInf(t, 0):
		// P(T > t) = P(-T < -t), and -T is noncentral t with -Lambda.
		return clamp01(nctUpper(-t, d.Nu, -d.Lambda))
	}
	return clamp01(1 - d.CDF(t))
}

// nctUpper returns F(t; nu, lambda) for t >= 0 by the series of CDF.
func nctUpper(t, nu, lambda float64) float64 {
	base := distuv.UnitNormal.CDF(-lambda)
	if t == 0 {
		return base
	}
	x := t * t / (t*t + nu)
	b := nu / 2
	m := lambda * lambda / 2
	c := lambda / math.Sqrt2
	logm := math.Log(m)
	term := func(j int) (float64, float64) {
		fj := float64(j)
		var lp, lq float64
		if m == 0 { // lambda^2 underflows: only j = 0 has weight
			if j > 0 {
				return 0, 0
			}
			lp, lq = 0, -lgamma(1.5)
		} else {
			lp = -m + fj*logm - lgamma(fj+1)
			lq = -m + fj*logm - lgamma(fj+1.5)
		}
		p, q := math.Exp(lp), math.Exp(lq)
		return p*mathext.RegIncBeta(fj+0.5, b, x) + c*q*mathext.RegIncBeta(fj+1, b, x), p + math.Abs(c)*q
	}
	mode := int(math.Floor(m))
	var sum float64
	for j := mode; ; j++ {
		v, w := term(j)
		sum += v
		if (w < nctTerm && j > mode) || j > mode+100000 {
			break
		}
	}
	for j := mode - 1; j >= 0; j-- {
		v, w := term(j)
		sum += v
		if w < nctTerm {
			break
		}
	}
	return base + sum/2
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

func clamp01(v float64) float64 { return min(1, max(0, v)) }
