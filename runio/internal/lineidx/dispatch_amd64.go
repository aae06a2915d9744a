//go:build amd64 && !purego

package lineidx

import "golang.org/x/sys/cpu"

// Fast says that Index runs the AVX2 kernels, decided once, at start-up:
// cpu.X86.HasAVX2 implies that the operating system saves the YMM registers
// (x/sys/cpu checks OSXSAVE and XCR0); the kernels also use BMI1's TZCNT,
// ANDN and BLSR, BMI2's BZHI and POPCNT.
var Fast = cpu.X86.HasAVX2 && cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
