//go:build amd64 && !purego

package vec

import "golang.org/x/sys/cpu"

// avx2 is decided once, at start-up: cpu.X86.HasAVX2 implies that the
// operating system saves the YMM registers (x/sys/cpu checks OSXSAVE and XCR0).
// The kernels also count with POPCNT, which every AVX2 CPU has.
var avx2 = cpu.X86.HasAVX2 && cpu.X86.HasPOPCNT
