package runio

import (
	"math"
	"math/rand/v2"
	"regexp"
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

// shortForm is the form parseShort takes, written as a regular
// expression: a plain decimal of at most 15 bytes.
var shortForm = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$`)

// checkShort: parseShort(s) succeeds exactly on shortForm, with
// strconv.ParseFloat's bits.
func checkShort(t *testing.T, s string) {
	t.Helper()
	got, ok := parseShort([]byte(s))
	wantOK := len(s) <= 15 && shortForm.MatchString(s)
	if ok != wantOK {
		t.Fatalf("parseShort(%q) ok = %v, want %v", s, ok, wantOK)
	}
	if !ok {
		return
	}
	want, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseShort(%q) = %v (%x); strconv gives %v (%x), %v", s, got, math.Float64bits(got), want, math.Float64bits(want), err)
	}
}

// TestParseShort: every string of up to 6 bytes over digits, signs, dots
// and an exponent letter, and of up to 4 bytes over bytes next to those
// or with the high bit set, random strings of 1 to 9 bytes (parse8's
// lengths and one more) of mostly digits, and random decimals of 1 to 17
// bytes (around the 15-byte limit), against shortForm and strconv.
func TestParseShort(t *testing.T) {
	const alphabet = "0159+-.e"
	var rec func(prefix []byte, n int)
	rec = func(prefix []byte, n int) {
		checkShort(t, string(prefix))
		if n == 0 {
			return
		}
		for i := range len(alphabet) {
			rec(append(prefix, alphabet[i]), n-1)
		}
	}
	rec(nil, 6)
	// Bytes next to the digits, the dot and the signs, and with the high
	// bit set (parse8 tests 8 bytes at once, with carries between them).
	const odd = "09.-/:,*\x00 \xae\xb0\xb9\xfa\xff"
	var rec2 func(prefix []byte, n int)
	rec2 = func(prefix []byte, n int) {
		checkShort(t, string(prefix))
		if n == 0 {
			return
		}
		for i := range len(odd) {
			rec2(append(prefix, odd[i]), n-1)
		}
	}
	rec2(nil, 4)
	r := rand.New(rand.NewPCG(4, 4))
	for range 200000 {
		// 1 to 9 bytes, most of them digits.
		b := make([]byte, 1+r.IntN(9))
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
			if r.IntN(6) == 0 {
				b[i] = "+-.\x00\xff/:e"[r.IntN(8)]
			}
		}
		checkShort(t, string(b))
	}
	for range 200000 {
		b := make([]byte, 1+r.IntN(17))
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if r.IntN(4) > 0 {
			b[r.IntN(len(b))] = '.'
		}
		if r.IntN(2) == 0 {
			b[0] = "+-"[r.IntN(2)]
		}
		checkShort(t, string(b))
	}
}

func FuzzParseShort(f *testing.F) {
	for _, s := range []string{"0", "1", "-0.123456", "2.328", "+.5", "5.", "999999999999999", "99999999999.9999", ".00000000000001", "-", "1.2.3", "1e5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkShort(t, s)
	})
}

// TestParseFieldNaive: ParseScore, ParseRel and ParseLabel against
// strconv.ParseFloat and the checks they document, on the short, long,
// infinite, NaN and invalid inputs of the float tests.
func TestParseFieldNaive(t *testing.T) {
	inputs := []string{"0", "1", "-0", "2.328", "-0.123456", "1e3", "1e400", "-1e400", "inf", "-Inf", "NaN", "nan", "", "x", "0.12345678901234567", "1234567890123456", "+.5", "1_0", "0x1p-2", "1e-400"}
	for _, s := range inputs {
		f, err := strconv.ParseFloat(s, 64)
		isNum := err == nil || err.(*strconv.NumError).Err == strconv.ErrRange
		for _, c := range []struct {
			name   string
			parse  func([]byte) (float64, string)
			nanMsg string
			infMsg string
		}{
			{"ParseScore", ParseScore, "NaN score", ""},
			{"ParseRel", ParseRel, "not a number", msgInfRel},
			{"ParseLabel", ParseLabel, "", msgInfLabel},
		} {
			want, wantMsg := f, ""
			switch {
			case !isNum:
				want, wantMsg = 0, "not a number"
			case c.nanMsg != "" && f != f:
				want, wantMsg = 0, c.nanMsg
			case c.infMsg != "" && (f > math.MaxFloat64 || f < -math.MaxFloat64):
				want, wantMsg = 0, c.infMsg
			}
			got, msg := c.parse([]byte(s))
			if msg != wantMsg || math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Errorf("%s(%q) = %v, %q; want %v, %q", c.name, s, got, msg, want, wantMsg)
			}
		}
	}
}
