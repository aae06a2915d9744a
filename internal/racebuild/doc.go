// Package racebuild reports whether the binary was built with the race
// detector, for tests that measure allocated bytes: the detector
// allocates for its own bookkeeping, so those counts do not hold under it.
package racebuild
