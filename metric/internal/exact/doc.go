// Package exact adds float64 values without rounding. A Sum holds the exact
// value of every float64 added to it as a fixed-point integer scaled by
// 2^1074, wide enough for any float64 and for 2^63 additions, so that the
// result of a sum does not depend on the order of the additions or on how
// they were split between Sums that are merged later: it is rounded once,
// when it is read.
package exact
