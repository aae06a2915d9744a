package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
)

// maxDigits bounds --digits: 17 decimals tell every float64 in [0, 1]
// apart.
const maxDigits = 17

// digitsUsage is the help of --digits; def is what the default prints.
func digitsUsage(def string) string {
	return "print the table's values with `N` decimals, as trec_eval prints 4 (-1: the shortest form that reads back to the same number in the measure's dtype; default " + def + "); json and tsv always print that shortest form"
}

// checkDigits returns an error for a --digits out of range.
func checkDigits(n int) error {
	if n < -1 || n > maxDigits {
		return fmt.Errorf("--digits %d: want 0 to %d decimals, or -1 for the shortest form that reads back to the same number", n, maxDigits)
	}
	return nil
}

// formatValue formats a value of measure m, of a plan of dtype d: with
// digits decimals, or, when digits is negative, in the shortest form that
// reads back to the same number in the measure's dtype. With digits,
// trec_eval's counts (num_ret, num_rel, num_rel_ret,
// num_nonrel_judged_ret) print as integers, as trec_eval prints them.
func formatValue(v float64, m evaluate.Measure, d metric.DType, digits int) string {
	switch {
	case digits < 0:
		return evaluate.FormatValue(v, m.ValueDType(d))
	case isCount(m) && v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// isCount reports whether m is one of trec_eval's counts, the num_*
// values, which trec_eval prints as integers.
func isCount(m evaluate.Measure) bool {
	return m.IsTrecEval() && strings.HasPrefix(m.Name, "num_")
}

// meanIn returns the mean of values computed in dtype d, correctly
// rounded: their exact sum over their number, rounded once to d (0 for no
// value).
func meanIn(values []float64, d metric.DType) float64 {
	var t metric.ExactTotals
	for _, v := range values {
		t.Add(d, v, 1)
	}
	return t.ResultIn(d)
}
