package significance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Interval is a (1 - alpha) confidence interval of a mean.
type Interval struct {
	// N is the number of values.
	N int
	// Mean is the mean of the values.
	Mean float64
	// Low and High bound the interval. With N < 2 they are -Inf and +Inf
	// (one value says nothing of the spread); with every value equal, the
	// point [Mean, Mean].
	Low, High float64
	// Samples is the number of bootstrap resamples behind the bounds (0
	// for the t interval).
	Samples int
}

// Moments accumulates the count, mean and sum of squared deviations of
// values one at a time (Welford's update) and merges with other Moments
// (Chan, Golub and LeVeque's pairwise formula), so that a t interval needs
// no stored values: 24 bytes per measure. The zero value is empty.
type Moments struct {
	// N is the number of values added.
	N int64
	// Mean is their mean.
	Mean float64
	// M2 is the sum of their squared deviations from Mean.
	M2 float64
}

// Add adds one value.
func (m *Moments) Add(v float64) {
	m.N++
	d := v - m.Mean
	m.Mean += d / float64(m.N)
	m.M2 += d * (v - m.Mean)
}

// Merge adds the values of o.
func (m *Moments) Merge(o Moments) {
	if o.N == 0 {
		return
	}
	if m.N == 0 {
		*m = o
		return
	}
	n := m.N + o.N
	d := o.Mean - m.Mean
	m.M2 += o.M2 + d*d*float64(m.N)*float64(o.N)/float64(n)
	m.Mean += d * float64(o.N) / float64(n)
	m.N = n
}

// SD returns the sample standard deviation (divisor N - 1; 0 when N < 2).
func (m Moments) SD() float64 {
	if m.N < 2 {
		return 0
	}
	return math.Sqrt(max(m.M2, 0) / float64(m.N-1))
}

// TInterval returns the (1 - alpha) t interval of the mean:
// Mean ± t(1-alpha/2, N-1) SD / sqrt(N), with gonum's Student's t
// quantile, as scipy.stats.t.interval(1 - alpha, N - 1, loc=mean,
// scale=sem).
func (m Moments) TInterval(alpha float64) (Interval, error) {
	if !(alpha > 0 && alpha < 1) {
		return Interval{}, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", alpha)
	}
	if math.IsNaN(m.Mean) || math.IsInf(m.Mean, 0) || math.IsNaN(m.M2) || math.IsInf(m.M2, 0) {
		return Interval{}, fmt.Errorf("significance: mean %v, squared deviations %v: want finite values", m.Mean, m.M2)
	}
	iv := Interval{N: int(m.N), Mean: m.Mean, Low: math.Inf(-1), High: math.Inf(1)}
	if m.N < 2 {
		return iv, nil
	}
	half := 0.0
	if sd := m.SD(); sd > 0 {
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(m.N - 1)}.Quantile(1 - alpha/2)
		half = q * sd / math.Sqrt(float64(m.N))
	}
	iv.Low, iv.High = m.Mean-half, m.Mean+half
	return iv, nil
}

// MeanT returns the (1 - alpha) t interval of the mean of x (see
// [Moments.TInterval]), from the two-pass mean and standard deviation.
func MeanT(x []float64, alpha float64) (Interval, error) {
	if err := checkFinite(x); err != nil {
		return Interval{}, err
	}
	m, sd := meanSD(x)
	mo := Moments{N: int64(len(x)), Mean: m}
	if len(x) >= 2 {
		mo.M2 = sd * sd * float64(len(x)-1)
	}
	return mo.TInterval(alpha)
}

// MeanBCa returns the bias-corrected and accelerated (BCa) bootstrap
// interval of the mean of x at level 1 - alpha ([WithAlpha]) from samples
// resamples ([WithSamples]), as scipy.stats.bootstrap(method="BCa")
// (Efron and Tibshirani 1993, section 14.3):
//
//   - the resampled means T*_b, drawn in blocks of seeded streams as
//     [Bootstrap] draws them (its own kind of stream), so a seed gives the
//     same bounds for any worker count;
//   - the bias correction z0 = Phi^-1((#{T* < T} + #{T* <= T}) / 2B);
//   - the acceleration a = sum(u^3) / (6 (sum u^2)^(3/2)) with u_i the
//     jackknife influence values, which for the mean are x_i - mean(x);
//   - the bounds are the percentiles (numpy's linear interpolation) of the
//     T* at Phi(z0 + (z0 + z)/(1 - a(z0 + z))) for z = Phi^-1(alpha/2) and
//     Phi^-1(1 - alpha/2).
//
// With N < 2 the interval is (-Inf, +Inf), and with every value equal the
// point [mean, mean] (scipy gives NaN for both). When every T* lies on one
// side of T (a handful of resamples), z0 is infinite and the interval is
// the range of the T*.
func MeanBCa(ctx context.Context, x []float64, opts ...Option) (Interval, error) {
	s, err := applyOptions(opts)
	if err != nil {
		return Interval{}, err
	}
	if err := checkFinite(x); err != nil {
		return Interval{}, err
	}
	n := len(x)
	t := mean(x)
	iv := Interval{N: n, Mean: t, Low: math.Inf(-1), High: math.Inf(1)}
	if n < 2 {
		return iv, nil
	}
	var s2, s3 float64
	for _, v := range x {
		u := v - t
		s2 += u * u
		s3 += u * u * u
	}
	if s2 == 0 || slices.Min(x) == slices.Max(x) {
		iv.Low, iv.High = t, t
		return iv, nil
	}
	means := make([]float64, s.samples)
	err = forBlocks(ctx, s, kindBCa, s.samples, func(rng *rand.Rand, _, lo, hi int) {
		for k := lo; k < hi; k++ {
			var sum float64
			for range n {
				sum += x[rng.IntN(n)]
			}
			means[k] = sum / float64(n)
		}
	})
	if err != nil {
		return Interval{}, err
	}
	below, atOrBelow := 0, 0
	for _, m := range means {
		if m < t {
			below++
		}
		if m <= t {
			atOrBelow++
		}
	}
	B := float64(s.samples)
	z0 := distuv.UnitNormal.Quantile(float64(below+atOrBelow) / (2 * B))
	a := s3 / (6 * math.Pow(s2, 1.5))
	slices.Sort(means)
	level := func(z float64) float64 {
		num := z0 + z
		return distuv.UnitNormal.CDF(z0 + num/(1-a*num))
	}
	zl := distuv.UnitNormal.Quantile(s.alpha / 2)
	if math.IsInf(z0, 0) {
		// every T* on one side of T: no level is defined (scipy gives
		// NaN); take the range of the T*
		iv.Low, iv.High = means[0], means[len(means)-1]
	} else {
		iv.Low, iv.High = percentile(means, level(zl)), percentile(means, level(-zl))
	}
	iv.Samples = s.samples
	return iv, nil
}

// Finite reports whether the moments are finite: every value added was.
func (m Moments) Finite() bool {
	return !math.IsNaN(m.Mean) && !math.IsInf(m.Mean, 0) && !math.IsNaN(m.M2) && !math.IsInf(m.M2, 0)
}
