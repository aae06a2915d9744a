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
//
// A case takes at most 12 times its line's length in memory: the line, read
// and then joined once (about 2 times), 8 bytes per number (which takes at
// least 2 bytes, "0,") and per row, read into slices of exactly their size
// and handed to the metric without a copy, and the answer, written a number
// at a time. Lists of numbers take about 6 times; a line of empty lists
// takes the most, for the metric's per-list values. TestCaseMemory checks it.
package cases
