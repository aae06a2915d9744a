package treceval

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func FuzzAtof(f *testing.F) {
	for _, s := range []string{"1.5", "1e5x", "-inf", "nan", "0x1p-2", "0x", ".", "1_0", "  3", "+.5e-3q", "1e400", "-0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Atof(s)
		if strings.ContainsAny(s, "_ \t") {
			return
		}
		if w, err := strconv.ParseFloat(s, 64); err == nil && !(v == w || v != v && w != w) {
			t.Fatalf("Atof(%q) = %v, ParseFloat %v", s, v, w)
		}
		_ = Atol(s)
	})
}

// FuzzEvaluate ranks arbitrary judgements and documents with every
// measure; it must never panic, and values must be finite or NaN.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{3, 1, 0, 2, 5, 7, 1, 9}, uint8(1), false)
	f.Add([]byte{0, 0, 0}, uint8(0), true)
	f.Fuzz(func(t *testing.T, b []byte, level uint8, judgedOnly bool) {
		if len(b) < 2 {
			return
		}
		var judged []Judgment
		var docs []Doc
		for i, x := range b {
			name := "d" + strconv.Itoa(int(x%16))
			if i%2 == 0 {
				if len(judged) == 0 || judged[len(judged)-1].Docno < name {
					judged = append(judged, Judgment{name, int64(x%6) - 2})
				}
			} else {
				docs = append(docs, Doc{name, float64(x % 5)})
			}
		}
		if len(judged) == 0 || judged[0].Rel < 0 {
			return
		}
		for _, v := range []Version{V10, V908} {
			cfg := DefaultConfig(v)
			cfg.RelLevel = int64(level % 4)
			cfg.JudgedOnly = judgedOnly
			ev, err := NewEvaluator(cfg, []string{"all_trec"})
			if err != nil {
				t.Fatal(err)
			}
			var tv TopicValues
			if err := ev.Evaluate("q", judged, docs, &tv); err != nil {
				continue // duplicate documents
			}
			for i, x := range tv.V {
				if math.IsInf(x, 0) {
					t.Fatalf("%s = %v", ev.Names()[i], x)
				}
			}
			_ = ev.AppendTopic(nil, &tv)
		}
	})
}
