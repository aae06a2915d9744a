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
// differences (n = 0) or all zero give p = 1.
func Randomization(ctx context.Context, d []float64, opts ...Option) (Result, error) {
	s, err := newSettings(opts)
	if err != nil {
		return Result{}, err
	}
	if err := checkFinite(d); err != nil {
		return Result{}, err
	}
	n := len(d)
	var sum float64
	for _, v := range d {
		sum += v
	}
	res := Result{}
	if n > 0 {
		res.Statistic = sum / float64(n)
	}
	if sum == 0 {
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
	db := make([]uint64, n)
	for i, v := range d {
		db[i] = math.Float64bits(v)
	}
	counts := make([]int, (s.samples+blockSize-1)/blockSize)
	err = forBlocks(ctx, s, kindRandomization, s.samples, func(rng *rand.Rand, b, lo, hi int) {
		c := 0
		for range hi - lo {
			if math.Abs(flipSum(rng, db)) >= thr {
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

// flipSum returns the sum of the values whose bits are db, each with a
// random sign: the sign bit is XORed with one random bit.
func flipSum(rng *rand.Rand, db []uint64) float64 {
	var sum float64
	for i := 0; i < len(db); i += 64 {
		r := rng.Uint64()
		for _, b := range db[i:min(i+64, len(db))] {
			sum += math.Float64frombits(b ^ (r << 63))
			r >>= 1
		}
	}
	return sum
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
