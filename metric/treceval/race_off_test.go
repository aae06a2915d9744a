//go:build !race

package treceval

// raceEnabled reports whether the race detector is on: it changes what
// allocates, so the tests of allocated bytes do not hold under it.
const raceEnabled = false
