package runio

import (
	"math"
	"strconv"
	"testing"
)

func TestParseFloat(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"-1", -1, true},
		{"+2.5", 2.5, true},
		{"0.1", 0.1, true},
		{"-0.001", -0.001, true},
		{"1.234", 1.234, true},
		{".5", 0.5, true},
		{"5.", 5, true},
		{"1e3", 1000, true},
		{"1E-3", 0.001, true},
		{"2.5e+2", 250, true},
		{"123456789012345", 123456789012345, true},
		{"1234567890123456789", 1234567890123456789, true}, // slow path
		{"0.1234567890123456789", 0.1234567890123456789, true},
		{"1e-30", 1e-30, true},
		{"1e400", math.Inf(1), true},
		{"-1e400", math.Inf(-1), true},
		{"inf", math.Inf(1), true},
		{"-Infinity", math.Inf(-1), true},
		{"0x1p-2", 0.25, true},
		{"", 0, false},
		{"-", 0, false},
		{".", 0, false},
		{"1e", 0, false},
		{"1e+", 0, false},
		{"abc", 0, false},
		{"1.2.3", 0, false},
		{"1,5", 0, false},
		{" 1", 0, false},
		{"1 ", 0, false},
	}
	for _, tc := range tests {
		got, ok := parseFloat([]byte(tc.in))
		if ok != tc.ok || ok && math.Float64bits(got) != math.Float64bits(tc.want) {
			t.Errorf("parseFloat(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	if f, ok := parseFloat([]byte("-0")); !ok || !math.Signbit(f) {
		t.Errorf("parseFloat(-0) = %v, %v; want -0", f, ok)
	}
	if f, ok := parseFloat([]byte("nan")); !ok || !math.IsNaN(f) {
		t.Errorf("parseFloat(nan) = %v, %v; want NaN", f, ok)
	}
}

// TestParseFloatMatchesStrconv checks every 3-decimal value in [-20, 20]
// (the benchmark's score grid) and a range of exponents bit for bit.
func TestParseFloatMatchesStrconv(t *testing.T) {
	var buf []byte
	for n := -20000; n <= 20000; n++ {
		buf = strconv.AppendFloat(buf[:0], float64(n)/1000, 'f', 3, 64)
		checkAgainstStrconv(t, string(buf))
	}
	for e := -30; e <= 30; e++ {
		checkAgainstStrconv(t, "7.123456789e"+strconv.Itoa(e))
		checkAgainstStrconv(t, "999999999999999e"+strconv.Itoa(e))
	}
}

func checkAgainstStrconv(t *testing.T, s string) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 64)
	wantOK := err == nil || err.(*strconv.NumError).Err == strconv.ErrRange
	got, ok := parseFloat([]byte(s))
	if ok != wantOK || ok && math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
		t.Fatalf("parseFloat(%q) = %v (%x), %v; strconv gives %v (%x), %v", s, got, math.Float64bits(got), ok, want, math.Float64bits(want), err)
	}
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0", "-1.5", "1e22", "1e23", "123456789012345", "0.000001", ".5e-3", "NaN", "+Inf", "1_0", "0x1p3", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkAgainstStrconv(t, s)
	})
}
