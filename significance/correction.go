package significance

import (
	"fmt"
	"math"
	"slices"
)

// Correction is a multiple-comparison correction of the p-values of a
// family of tests (in a report, the comparisons of one measure by one
// test).
type Correction uint8

// The corrections.
const (
	// None leaves the p-values as they are.
	None Correction = iota
	// Bonferroni multiplies each p by the number of tests m (capped at 1):
	// it controls the family-wise error rate.
	Bonferroni
	// Holm is Holm's step-down method: with p sorted increasingly,
	// p_(i) becomes max over j <= i of min(1, (m - j + 1) p_(j)). It
	// controls the family-wise error rate and is never above Bonferroni.
	Holm
	// BH is the Benjamini-Hochberg step-up method: with p sorted
	// increasingly, p_(i) becomes min over j >= i of min(1, m p_(j) / j).
	// It controls the false discovery rate.
	BH
)

// ParseCorrection parses none, bonferroni, holm or bh.
func ParseCorrection(s string) (Correction, error) {
	for c := None; c <= BH; c++ {
		if s == c.String() {
			return c, nil
		}
	}
	return None, fmt.Errorf("significance: correction %q: want none, bonferroni, holm or bh", s)
}

// String returns the name ParseCorrection accepts.
func (c Correction) String() string {
	switch c {
	case None:
		return "none"
	case Bonferroni:
		return "bonferroni"
	case Holm:
		return "holm"
	case BH:
		return "bh"
	}
	return fmt.Sprintf("Correction(%d)", uint8(c))
}

// Adjust returns the adjusted p-values of p, in the order of p. Every p
// must be in [0, 1]: a NaN or a value out of range is an error, never a
// silent result.
func (c Correction) Adjust(p []float64) ([]float64, error) {
	for i, v := range p {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return nil, fmt.Errorf("significance: %v: p-value %d is %v: want 0 <= p <= 1", c, i, v)
		}
	}
	m := len(p)
	out := slices.Clone(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	fm := float64(m)
	switch c {
	case None:
	case Bonferroni:
		for i, v := range p {
			out[i] = min(1, v*fm)
		}
	case Holm:
		run := 0.0
		for j, i := range order {
			run = max(run, min(1, (fm-float64(j))*p[i]))
			out[i] = run
		}
	case BH:
		run := 1.0
		for j := m - 1; j >= 0; j-- {
			i := order[j]
			run = min(run, fm*p[i]/float64(j+1))
			out[i] = run
		}
	default:
		return nil, fmt.Errorf("significance: unknown correction %d", uint8(c))
	}
	return out, nil
}
