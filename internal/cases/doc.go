// Package cases reads and runs the JSON Lines cases of `rankmetrics
// compute`, the interface through which other languages check their
// numbers against rankmetrics, and writes their answers.
//
// An input line is one case: a fresh metric, configured by the line, that
// takes each element of "updates" as one Update call. Numbers may also be
// written as the strings "NaN", "Infinity" and "-Infinity", since JSON has
// no such numbers; null is an error, not 0. An answer line carries the result, and the per-list
// values and list weights of each update; a float32 value is written so that
// parsing it and rounding to float32 gives back the same bits.
package cases
