package significance

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Tukey is the randomised Tukey HSD test of Carterette (2012, "Multiple
// testing in statistical analysis of systems-based information retrieval
// experiments", ACM TOIS 30(1)), a test of every pair of m systems that
// controls the family-wise error rate. values[s][q] is the value of system
// s on query q; every system has the same queries.
//
// Each of samples permutations ([WithSamples]) shuffles the m values of
// every query among the systems, independently per query, so queries stay
// paired; its statistic R* is the range max - min of the systems' means.
// The p-value of systems i and j is
// p = (1 + #{R* >= |mean_i - mean_j|}) / (1 + samples), with the
// [tolerance] of [Randomization]: the observed difference is compared with
// the largest difference the permutation makes among all systems. P[i][j]
// = P[j][i]; P[i][i] = 1. Statistic[i][j] is mean_j - mean_i. Fewer than 2
// systems or no queries give p = 1 everywhere.
func Tukey(ctx context.Context, values [][]float64, opts ...Option) (stat, p [][]float64, err error) {
	s, err := applyOptions(opts)
	if err != nil {
		return nil, nil, err
	}
	m := len(values)
	n := 0
	if m > 0 {
		n = len(values[0])
	}
	means := make([]float64, m)
	for i, v := range values {
		if len(v) != n {
			return nil, nil, fmt.Errorf("significance: Tukey: system %d has %d values, system 0 has %d: the queries must be paired", i, len(v), n)
		}
		for q, x := range v {
			if err := finite(fmt.Sprintf("system %d", i), q, x); err != nil {
				return nil, nil, err
			}
		}
		means[i] = mean(v)
	}
	stat, p = square(m, 0), square(m, 1)
	for i := range m {
		for j := range m {
			stat[i][j] = means[j] - means[i]
		}
	}
	if m < 2 || n == 0 {
		return stat, p, nil
	}
	// byQuery[q*m+s] = values[s][q], for a cache-friendly shuffle.
	byQuery := make([]float64, n*m)
	for i, v := range values {
		for q, x := range v {
			byQuery[q*m+i] = x
		}
	}
	ranges := make([]float64, s.samples)
	err = forBlocks(ctx, s, kindTukey, s.samples, func(rng *rand.Rand, _, lo, hi int) {
		buf := make([]float64, m)
		sums := make([]float64, m)
		for k := lo; k < hi; k++ {
			clear(sums)
			for q := range n {
				copy(buf, byQuery[q*m:(q+1)*m])
				rng.Shuffle(m, func(a, b int) { buf[a], buf[b] = buf[b], buf[a] })
				for i, x := range buf {
					sums[i] += x
				}
			}
			ranges[k] = (slices.Max(sums) - slices.Min(sums)) / float64(n)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(ranges)
	for i := range m {
		for j := i + 1; j < m; j++ {
			thr := math.Abs(stat[i][j]) * (1 - tolerance)
			// len(ranges) - k ranges are >= thr (all of them when thr = 0).
			k, _ := slices.BinarySearch(ranges, thr)
			v := float64(1+len(ranges)-k) / float64(1+s.samples)
			p[i][j], p[j][i] = v, v
		}
	}
	return stat, p, nil
}

// square returns an m x m matrix filled with v.
func square(m int, v float64) [][]float64 {
	out := make([][]float64, m)
	for i := range out {
		out[i] = make([]float64, m)
		for j := range out[i] {
			out[i][j] = v
		}
	}
	return out
}
