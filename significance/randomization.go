package significance

import (
	"context"
	"math"
	"math/rand/v2"
)

// tolerance is the relative slack of "at least as extreme" comparisons:
// a resampled statistic T* counts when |T*| >= |T| (1 - tolerance), so
// that rounding does not split values that are equal in exact arithmetic.
// It is scipy.stats.permutation_test's (100 machine epsilons).
const tolerance = 100 * 0x1p-52

// Randomization is Fisher's randomization test (sign-flip permutation test)
// of the mean of the differences d (run - baseline), two-sided. Under the
// null hypothesis each difference is as likely to have either sign; T* is
// the mean of the differences with random signs, and p is the share of
// sign patterns with |T*| >= |T| (within [tolerance]):
//
//   - when 2^n <= samples ([WithSamples]), all 2^n patterns are enumerated
//     and p = #{|T*| >= |T|} / 2^n exactly (Exact is true);
//   - otherwise samples patterns are drawn and
//     p = (1 + #{|T*| >= |T|}) / (1 + samples).
//
// Statistic is T = mean(d). The exact p is scipy.stats.permutation_test's
// with permutation_type="samples" on the statistic mean(x - y). No
// differences (n = 0) or all zero give p = 1, and so does a sum within
// rounding of 0 (|sum| <= tolerance * sum of |d|): differences on a grid
// that cancel exactly, such as 0.1 + 0.2 - 0.3, sum to a residue such as
// 5.6e-17, and a relative comparison with a residue would count only the
// sign patterns whose own residue happens to reach it, where every
// pattern is at least as extreme as 0 (scipy does so, and then reports p
// below 1).
func Randomization(ctx context.Context, d []float64, opts ...Option) (Result, error) {
	s, err := applyOptions(opts)
	if err != nil {
		return Result{}, err
	}
	if err := checkFinite(d); err != nil {
		return Result{}, err
	}
	n := len(d)
	var sum, abs float64
	for _, v := range d {
		sum += v
		abs += math.Abs(v)
	}
	res := Result{}
	if n > 0 {
		res.Statistic = sum / float64(n)
	}
	if math.Abs(sum) <= tolerance*abs {
		res.P, res.Exact = 1, true
		return res, nil
	}
	thr := math.Abs(sum) * (1 - tolerance)
	if n < 63 && uint64(1)<<n <= uint64(s.samples) {
		count, err := flipsExact(ctx, d, thr)
		if err != nil {
			return Result{}, err
		}
		res.P, res.Exact = float64(count)/math.Ldexp(1, n), true
		return res, nil
	}
	counts := make([]int, (s.samples+blockSize-1)/blockSize)
	groups := (n + 7) / 8
	var tables []float64 // the sign tables of all groups, when small enough
	if groups <= maxSharedTables {
		tables = make([]float64, groups*256)
		for g := range groups {
			signTable(d[g*8:min(g*8+8, n)], (*[256]float64)(tables[g*256:]))
		}
	}
	err = forBlocks(ctx, s, kindRandomization, s.samples, func(rng *rand.Rand, b, lo, hi int) {
		acc := make([]float64, hi-lo)
		var own [256]float64
		for g := range groups {
			t := &own
			if tables != nil {
				t = (*[256]float64)(tables[g*256:])
			} else {
				signTable(d[g*8:min(g*8+8, n)], t)
			}
			for k := 0; k < len(acc); k += 8 {
				r := rng.Uint64()
				for j := k; j < min(k+8, len(acc)); j++ {
					acc[j] += t[uint8(r)]
					r >>= 8
				}
			}
		}
		c := 0
		for _, v := range acc {
			if math.Abs(v) >= thr {
				c++
			}
		}
		counts[b] = c
	})
	if err != nil {
		return Result{}, err
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	res.P = float64(1+total) / float64(1+s.samples)
	res.Samples = s.samples
	return res, nil
}

// maxSharedTables is the largest number of 8-query groups whose sign
// tables (2 KiB each) are built once and shared by the blocks; beyond it
// (more than 131,072 queries, 32 MiB of tables) each block builds them as
// it goes, with the same values.
const maxSharedTables = 1 << 14

// signTable sets t[j], for every byte j, to the sum of the values of vals
// (at most 8), value i with the sign + when bit i of j is set and -
// otherwise. A Monte Carlo sample then adds one entry per group of 8
// queries, picked by a random byte, instead of 8 signed values.
func signTable(vals []float64, t *[256]float64) {
	for j := range t {
		var s float64
		for i, v := range vals {
			if j>>i&1 == 1 {
				s += v
			} else {
				s -= v
			}
		}
		t[j] = s
	}
}

// flipsExact counts the sign patterns of d whose sum has absolute value at
// least thr, enumerating all 2^len(d) of them.
func flipsExact(ctx context.Context, d []float64, thr float64) (int, error) {
	n := len(d)
	count := 0
	for mask := uint64(0); mask < uint64(1)<<n; mask++ {
		if mask&0xffff == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		var sum float64
		for i, v := range d {
			sum += math.Float64frombits(math.Float64bits(v) ^ (mask>>i&1)<<63)
		}
		if math.Abs(sum) >= thr {
			count++
		}
	}
	return count, nil
}
