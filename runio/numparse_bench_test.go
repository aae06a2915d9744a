package runio

// The number parse of TREC lines before parseShort, kept to show why it
// changed: BenchmarkParseFields parses the score and label fields of
// bench/gen-like lines both ways.

import (
	"bytes"
	"math"
	"testing"
)

// oldParseFloat is parseFloat before parseShort: one-digit labels, then
// parseFastPrefix, then strconv.
func oldParseFloat(b []byte) (float64, bool) {
	if len(b) == 1 {
		if c := b[0] - '0'; c <= 9 {
			return float64(c), true
		}
	}
	if f, n, ok := parseFastPrefix(b); ok && n == len(b) {
		return f, true
	}
	return slowFloat(b)
}

// oldParseField is parseField over oldParseFloat, testing every value
// for NaN and ±Inf.
func oldParseField(b []byte, nanMsg, infMsg string) (float64, string) {
	v, ok := oldParseFloat(b)
	switch {
	case !ok:
		return 0, "not a number"
	case nanMsg != "" && math.IsNaN(v):
		return 0, nanMsg
	case infMsg != "" && math.IsInf(v, 0):
		return 0, infMsg
	}
	return v, ""
}

func BenchmarkParseFields(b *testing.B) {
	run, qrels := benchGenPair(100)
	field := func(data []byte, k int) [][]byte {
		var out [][]byte
		for _, l := range bytes.Split(bytes.TrimSpace(data), []byte{'\n'}) {
			out = append(out, bytes.Fields(l)[k])
		}
		return out
	}
	scores, labels := field(run, 4), field(qrels, 3)
	for _, c := range []struct {
		name  string
		parse func([]byte, string, string) (float64, string)
	}{{"old", oldParseField}, {"new", parseField}} {
		for _, f := range []struct {
			name string
			vals [][]byte
		}{{"score", scores}, {"label", labels}} {
			b.Run(c.name+"/"+f.name, func(b *testing.B) {
				var sum float64
				for b.Loop() {
					for _, v := range f.vals {
						x, _ := c.parse(v, "NaN score", "")
						sum += x
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(f.vals)), "ns/value")
			})
		}
	}
}
