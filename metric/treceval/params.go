package treceval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// paramKind says how a measure reads its command-line parameters
// (measure.p1,p2,...) and names its values.
type paramKind int

const (
	// noParams: one value named after the measure.
	noParams paramKind = iota
	// longCuts: sorted positive integer cutoffs, one value each, named
	// name_cutoff (P_10).
	longCuts
	// doubleCuts: sorted real cutoffs, one value each, named name_%3.2f
	// (iprec_at_recall_0.10).
	doubleCuts
	// doubleParams: a list of reals in the given order, one value named
	// name_params when parameters are given (set_F_0.5).
	doubleParams
	// pairParams: level=gain pairs, one value named name_params when
	// given (ndcg_1=1,2=3).
	pairParams
)

// pair is one name=value measure parameter.
type pair struct {
	name  string
	value float64
}

// parseLongCuts reads comma-separated integer cutoffs as C's atol does,
// sorts them and refuses non-positive or repeated ones.
func parseLongCuts(s string) ([]int64, error) {
	parts := strings.Split(s, ",")
	cuts := make([]int64, len(parts))
	for i, p := range parts {
		cuts[i] = Atol(p)
	}
	slices.Sort(cuts)
	if cuts[0] <= 0 {
		return nil, errors.New("cutoffs must be positive")
	}
	for i := 1; i < len(cuts); i++ {
		if cuts[i] == cuts[i-1] {
			return nil, errors.New("duplicate cutoffs")
		}
	}
	return cuts, nil
}

// parseDoubleCuts reads comma-separated real cutoffs as C's atof does,
// sorts them and refuses repeated ones.
func parseDoubleCuts(s string) ([]float64, error) {
	cuts := parseDoubles(s)
	slices.SortFunc(cuts, func(a, b float64) int {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	for i := 1; i < len(cuts); i++ {
		if cuts[i] == cuts[i-1] {
			return nil, errors.New("duplicate cutoffs")
		}
	}
	return cuts, nil
}

func parseDoubles(s string) []float64 {
	parts := strings.Split(s, ",")
	v := make([]float64, len(parts))
	for i, p := range parts {
		v[i] = Atof(p)
	}
	return v
}

// parsePairs reads name=value pairs separated by commas, refusing the
// shapes trec_eval refuses (a missing '=', two '=' in a row, an empty
// element).
func parsePairs(s string) ([]pair, error) {
	last := byte(',')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ',' {
			if last == ',' {
				break
			}
			last = ','
		} else if c == '=' {
			if last == '=' {
				last = ','
				break
			}
			last = '='
		}
	}
	if last != '=' {
		return nil, fmt.Errorf("malformed pair parameters in %q", s)
	}
	var out []pair
	start := 0
	var cur pair
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=':
			cur.name = s[start:i]
			start = i + 1
		case ',':
			cur.value = Atof(s[start:i])
			out = append(out, cur)
			cur = pair{}
			start = i + 1
		}
	}
	cur.value = Atof(s[start:])
	out = append(out, cur)
	return out, nil
}

// cutName names a real cutoff's value as C's "%s_%3.2f" into a buffer of
// len(name)+10 bytes does (longer names are cut).
func cutName(name string, v float64) string {
	s := name + "_" + FormatFixed(v, 2, 3)
	if limit := len(name) + 9; len(s) > limit {
		s = s[:limit]
	}
	return s
}

// Atol parses the leading integer of s as C's atol does: optional leading
// white space and sign, then digits; anything else ends the number, an
// empty number is 0, overflow saturates.
func Atol(s string) int64 {
	if len(s) == 1 && s[0]-'0' <= 9 {
		return int64(s[0] - '0') // a qrels judgement's usual shape
	}
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v uint64
	over := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		v = v*10 + d
	}
	if neg {
		if over || v > 1<<63 {
			return math.MinInt64
		}
		return -int64(v)
	}
	if over || v > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// Atof parses the leading number of s as C's atof (strtod) does: decimal
// or hexadecimal, inf, infinity or nan in any case, anything after the
// longest valid prefix ignored, no number at all 0.
func Atof(s string) float64 {
	if v, ok := atofDecimal(s); ok {
		return v
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		// Go's NaN has another payload than strtod's.
		if !strings.ContainsRune(s, '_') && v == v {
			return v
		}
	}
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return parseOr(s[start:i+8], 0)
	case strings.HasPrefix(rest, "inf"):
		return parseOr(s[start:i+3], 0)
	case strings.HasPrefix(rest, "nan"):
		return atofNaN(s[i+3:], start < i && s[start] == '-')
	}
	hex := strings.HasPrefix(rest, "0x")
	j := i
	if hex {
		j += 2
	}
	digit := func(c byte) bool {
		if hex {
			return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		}
		return c >= '0' && c <= '9'
	}
	mant := 0
	for j < len(s) && digit(s[j]) {
		j++
		mant++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && digit(s[j]) {
			j++
			mant++
		}
	}
	if mant == 0 {
		if hex {
			// "0x" alone is the number 0 followed by "x".
			return parseOr(s[start:i+1], 0)
		}
		return 0
	}
	end := j
	if j < len(s) && (hex && (s[j] == 'p' || s[j] == 'P') || !hex && (s[j] == 'e' || s[j] == 'E')) {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			end = k
		}
	}
	num := s[start:end]
	if hex && !strings.ContainsAny(num, "pP") {
		num += "p0"
	}
	return parseOr(num, 0)
}

// atofNaN is strtod's NaN for "nan" followed by rest, negative after a
// '-': "nan(chars)", chars letters, digits and '_', sets the payload when
// chars are a whole C integer (strtoull, base 0), as glibc does.
func atofNaN(rest string, neg bool) float64 {
	bits := uint64(0x7ff8000000000000)
	if seq, _, ok := strings.Cut(rest, ")"); ok && strings.HasPrefix(seq, "(") {
		seq = seq[1:]
		if strings.IndexFunc(seq, func(c rune) bool {
			return !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_')
		}) < 0 {
			if m, ok := strtoullWhole(seq); ok {
				bits |= m & (1<<51 - 1)
			}
		}
	}
	if neg {
		bits |= 1 << 63
	}
	return math.Float64frombits(bits)
}

// strtoullWhole reads s as C's strtoull with base 0 (0x hexadecimal, a
// leading 0 octal, decimal otherwise; the largest value on overflow) and
// reports whether all of s was read.
func strtoullWhole(s string) (uint64, bool) {
	base, digits := uint64(10), s
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	if s == "" {
		return 0, false
	}
	var v uint64
	over := false
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'z':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = uint64(c-'A') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		if v > (math.MaxUint64-d)/base {
			over = true
		}
		v = v*base + d
	}
	if over {
		v = math.MaxUint64
	}
	return v, true
}

func parseOr(s string, def float64) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return def
	}
	return v
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// atofDecimal parses the common shape of a run's score, an optional sign
// and at most 15 digits with an optional decimal point ("-2.328"), and
// reports false for anything else. The digits form an integer below 2^53
// and the divisor is an exact power of ten up to 1e22, so the one IEEE
// division rounds correctly (Clinger's fast path) and the value is the
// one strtod returns. It is hand-written rather than strconv.ParseFloat
// because the run's scores are the hottest parse: BenchmarkAtof took
// 18 ns per "2.328" against BenchmarkParseFloat's 140 ns in one run.
func atofDecimal(s string) (float64, bool) {
	i := 0
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		i = 1
	}
	var m uint64
	nd, frac := 0, -1
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			m = m*10 + uint64(c-'0')
			nd++
			continue
		}
		if c == '.' && frac < 0 {
			frac = i
			continue
		}
		return 0, false
	}
	if nd == 0 || nd > 15 {
		return 0, false
	}
	v := float64(m)
	if frac >= 0 {
		v /= pow10[len(s)-1-frac]
	}
	if neg {
		v = -v
	}
	return v, true
}
