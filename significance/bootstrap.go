package significance

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
)

// BootstrapResult is the outcome of [Bootstrap].
type BootstrapResult struct {
	Result
	// Low and High bound the percentile interval of the mean difference
	// at level 1 - alpha.
	Low, High float64
}

// Bootstrap is the paired bootstrap of the mean of the differences d (run -
// baseline). Each of samples resamples ([WithSamples]) draws n queries with
// replacement and takes the mean T* of their differences.
//
// The interval is the percentile interval: the alpha/2 and 1 - alpha/2
// quantiles ([WithAlpha]) of the T*, with linear interpolation between
// order statistics (numpy's default percentile), as
// scipy.stats.bootstrap(method="percentile").
//
// The p-value is the two-sided p of the shift method (Efron and
// Tibshirani 1993, section 16.4): the T* centred on the observed mean T
// stand for the null distribution of the mean, and
// p = (1 + #{|T* - T| >= |T|}) / (1 + samples), with the [tolerance] of
// [Randomization]. Statistic is T. No differences (n = 0) or all zero give
// p = 1 and the interval [0, 0]; n = 1 gives p = 1 (one query says nothing
// of the spread) and the point interval [d, d].
func Bootstrap(ctx context.Context, d []float64, opts ...Option) (BootstrapResult, error) {
	s, err := applyOptions(opts)
	if err != nil {
		return BootstrapResult{}, err
	}
	if err := checkFinite(d); err != nil {
		return BootstrapResult{}, err
	}
	n := len(d)
	t := mean(d)
	res := BootstrapResult{Result: Result{Statistic: t, P: 1, Samples: s.samples}, Low: t, High: t}
	if n == 0 {
		res.Samples = 0
		return res, nil
	}
	means := make([]float64, s.samples)
	err = forBlocks(ctx, s, kindBootstrap, s.samples, func(rng *rand.Rand, _, lo, hi int) {
		for k := lo; k < hi; k++ {
			var sum float64
			for range n {
				sum += d[rng.IntN(n)]
			}
			means[k] = sum / float64(n)
		}
	})
	if err != nil {
		return BootstrapResult{}, err
	}
	if t != 0 && n >= 2 {
		thr := math.Abs(t) * (1 - tolerance)
		c := 0
		for _, m := range means {
			if math.Abs(m-t) >= thr {
				c++
			}
		}
		res.P = float64(1+c) / float64(1+s.samples)
	}
	slices.Sort(means)
	res.Low = percentile(means, s.alpha/2)
	res.High = percentile(means, 1-s.alpha/2)
	return res, nil
}

// percentile returns the q-quantile of the sorted values x, interpolating
// linearly between the order statistics at (len(x)-1) q (numpy's
// "linear" method).
func percentile(x []float64, q float64) float64 {
	h := float64(len(x)-1) * q
	i := int(math.Floor(h))
	if i >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}
