package metric

// grow returns s with length n, reusing its array when it is large enough.
// The contents are not cleared.
func grow[E any](s []E, n int) []E {
	if cap(s) < n {
		return make([]E, n, max(n, 2*cap(s)))
	}
	return s[:n]
}

// slotWeight returns w[i], or wc when w is nil (every slot weighs wc).
func slotWeight[T float32 | float64](w []T, wc T, i int) T {
	if w == nil {
		return wc
	}
	return w[i]
}

// unrankedAt returns unranked[b], or 0 when unranked is nil.
func unrankedAt(unranked []int, b int) int {
	if unranked == nil {
		return 0
	}
	return unranked[b]
}
