package significance

import (
	"math"
	"slices"
)

// WilcoxonExactMax is the largest number of non-zero differences for which
// [Wilcoxon] uses the exact null distribution.
const WilcoxonExactMax = 50

// Wilcoxon is the Wilcoxon signed-rank test of the differences d (run -
// baseline), two-sided:
//
//   - differences equal to 0 are dropped (Wilcoxon's method), leaving n;
//   - the absolute differences are ranked, equal ones sharing their mean
//     rank; R+ and R- sum the ranks of the positive and negative ones;
//   - with n <= [WilcoxonExactMax] and no two equal absolute differences,
//     p = min(1, 2 P(W <= min(R+, R-))) under the exact distribution of
//     the signed-rank sum (Exact is true);
//   - otherwise p comes from the normal approximation of R+ with mean
//     n(n+1)/4 and variance n(n+1)(2n+1)/24 - sum(t^3 - t)/48 over the
//     groups of t equal absolute differences, without continuity
//     correction.
//
// Statistic is min(R+, R-). This is scipy.stats.wilcoxon(d[d != 0],
// correction=False, method="exact" or "approx" as above). (scipy 1.14's
// method="auto" differs: it uses the exact distribution, rounded, also
// with tied absolute differences, and the approximation whenever d has a
// zero.) With no non-zero difference, Wilcoxon returns statistic 0, p = 1.
func Wilcoxon(d []float64) (Result, error) {
	if err := checkFinite(d); err != nil {
		return Result{}, err
	}
	abs := make([]float64, 0, len(d))
	for _, v := range d {
		if v != 0 {
			abs = append(abs, math.Abs(v))
		}
	}
	n := len(abs)
	if n == 0 {
		return Result{P: 1, Exact: true}, nil
	}
	sorted := slices.Clone(abs)
	slices.Sort(sorted)
	// rank of a value: mean of the 1-based positions of its tie group.
	var rPlus, tieSum float64
	ties := false
	for i := 0; i < n; {
		j := i + 1
		for j < n && sorted[j] == sorted[i] {
			j++
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		i = j
	}
	rank := func(v float64) float64 {
		lo, _ := slices.BinarySearch(sorted, v)
		hi := lo
		for hi < n && sorted[hi] == v {
			hi++
		}
		return float64(lo+1+hi) / 2
	}
	for _, v := range d {
		if v > 0 {
			rPlus += rank(v)
		}
	}
	fn := float64(n)
	total := fn * (fn + 1) / 2
	rMinus := total - rPlus
	w := min(rPlus, rMinus)
	if n <= WilcoxonExactMax && !ties {
		return Result{Statistic: w, P: min(1, 2*signedRankCDF(n, int(w))), Exact: true}, nil
	}
	mn := fn * (fn + 1) / 4
	se := math.Sqrt((fn*(fn+1)*(2*fn+1) - tieSum/2) / 24)
	// se > 0 for n >= 1: a single tie group of all n values removes
	// less than n(n+1)(2n+1).
	z := (rPlus - mn) / se
	// 2 P(Z > |z|) = erfc(|z| / sqrt 2), accurate far in the tail (1 - CDF
	// would round to 0 beyond |z| = 8).
	p := math.Erfc(math.Abs(z) / math.Sqrt2)
	return Result{Statistic: w, P: min(1, p)}, nil
}

// signedRankCDF returns P(W <= k) for the signed-rank sum W of n untied
// ranks: the number of subsets of {1..n} with sum <= k over 2^n. The
// counts are exact in float64 for n <= 50 (they are below 2^50).
func signedRankCDF(n, k int) float64 {
	top := n * (n + 1) / 2
	c := make([]float64, top+1)
	c[0] = 1
	for r := 1; r <= n; r++ {
		for s := r * (r + 1) / 2; s >= r; s-- {
			c[s] += c[s-r]
		}
	}
	var cum float64
	for s := 0; s <= k && s <= top; s++ {
		cum += c[s]
	}
	return cum / math.Ldexp(1, n)
}
