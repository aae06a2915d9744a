package crlog

import "testing"

// TestLog checks the correctly rounded natural logarithm against glibc's
// log (Python's math.log) at integers where Go's math.Log differs from it.
func TestLog(t *testing.T) {
	ln := New()
	for n, hex := range map[int64]float64{
		2:    0x1.62e42fefa39efp-1,
		3:    0x1.193ea7aad030bp+0,
		14:   0x1.51cca16d7bba7p+1,
		48:   0x1.ef8383c50bb75p+1,
		74:   0x1.1375cd6fcab1dp+2,
		176:  0x1.4ae935b3cb89dp+2,
		196:  0x1.51cca16d7bba7p+2,
		1000: 0x1.ba18a998fffa0p+2,
		1001: 0x1.ba2909ce4f864p+2,
		1002: 0x1.ba3965d405f5fp+2,
	} {
		if got := ln.Log(n); got != hex {
			t.Errorf("log(%d) = %x, glibc %x", n, got, hex)
		}
	}
}
