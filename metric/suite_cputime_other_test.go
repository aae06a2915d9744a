//go:build !linux

package metric

import "time"

// threadCPU returns -1: the thread CPU clock is read on Linux only.
func threadCPU() time.Duration { return -1 }
