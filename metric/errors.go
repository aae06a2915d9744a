package metric

import (
	"errors"
	"fmt"
	"math"
)

// ErrInput is wrapped by every error about the values of an input.
var ErrInput = errors.New("bad metric input")

func notFinite(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// weightError reports a non-finite weight of list b, item i (i < 0 for a
// per-list weight).
func weightError(b, i int, x float64) error {
	if i < 0 {
		return fmt.Errorf("metric: weights[%d] is %v; weights must be finite: %w", b, x, ErrInput)
	}
	return fmt.Errorf("metric: weights[%d][%d] is %v; weights must be finite: %w", b, i, x, ErrInput)
}

// scoreError reports a NaN score of an unmasked item.
func scoreError(b, i int, label float64) error {
	return fmt.Errorf("metric: predictions[%d][%d] is NaN (its label is %v); NaN scores cannot be ranked: %w", b, i, label, ErrInput)
}
