//go:build race

package racebuild

// Enabled reports whether the race detector is on.
const Enabled = true
