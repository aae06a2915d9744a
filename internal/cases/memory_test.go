package cases

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// bigCase returns a case line of about size bytes: one update of rows of
// width items, each item written by item(b, i).
func bigCase(size, width int, ragged bool, item func(k, b, i int) string, weights bool) []byte {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, `{"id":"big","ragged":%v,"updates":[{`, ragged)
	keys := []string{"labels", "predictions"}
	if weights {
		keys = append(keys, "weights")
	}
	rows := 1
	if width > 0 {
		rows = max(size/len(keys)/(width*(len(item(0, 0, 0))+1)+2), 1)
	} else {
		rows = size / len(keys) / 3
	}
	for k, key := range keys {
		if k > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `"%s":[`, key)
		for b := range rows {
			if b > 0 {
				buf.WriteByte(',')
			}
			buf.WriteByte('[')
			for i := range width {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(item(k, b, i))
			}
			buf.WriteByte(']')
		}
		buf.WriteByte(']')
	}
	buf.WriteString("}]}")
	return buf.Bytes()
}

// TestCaseMemory checks that a case takes at most maxCaseBytesPerLineByte
// times its line's length in memory: the bytes allocated while its line is
// decoded, run and answered, counted by the runtime, are the most it can
// hold at once.
func TestCaseMemory(t *testing.T) {
	const size = 4 << 20
	digit := func(k, b, i int) string { return string(rune('0' + (b*7+i+k)%2)) }
	for _, tc := range []struct {
		name string
		line []byte
	}{
		{"dense one-digit numbers", bigCase(size, 1000, false, digit, false)},
		{"decimals", bigCase(size, 100, false, func(k, b, i int) string { return fmt.Sprintf("%d.%03d", k, (b*31+i*17)%1000) }, false)},
		{"per-item weights", bigCase(size, 50, false, digit, true)},
		{"NaN strings", bigCase(size, 100, true, func(k, b, i int) string { return [...]string{`"NaN"`, `"-Infinity"`}[k] }, false)},
		{"empty rows", bigCase(size, 0, true, digit, false)},
		{"one-item rows", bigCase(size, 1, true, digit, true)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append(tc.line, '\n')
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			var out countWriter
			n, err := Process(context.Background(), bytes.NewReader(in), &out, 0)
			runtime.ReadMemStats(&after)
			if err != nil || n != 1 {
				t.Fatalf("%d answers, error %v", n, err)
			}
			if strings.Contains(out.first, `"error"`) {
				t.Fatalf("answer %s", out.first)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			ratio := float64(alloc) / float64(len(in))
			t.Logf("line %d bytes, allocated %d bytes, %.2f per line byte", len(in), alloc, ratio)
			if ratio > maxCaseBytesPerLineByte {
				t.Errorf("a line of %d bytes allocated %d bytes, %.1f times its length; want at most %d times",
					len(in), alloc, ratio, maxCaseBytesPerLineByte)
			}
		})
	}
}

// countWriter counts what is written to it and keeps the first 200 bytes.
type countWriter struct {
	n     int
	first string
}

func (w *countWriter) Write(p []byte) (int, error) {
	if len(w.first) < 200 {
		w.first += string(p[:min(len(p), 200-len(w.first))])
	}
	w.n += len(p)
	return len(p), nil
}

var _ io.Writer = (*countWriter)(nil)

// maxCaseBytesPerLineByte is the most memory a case may take per byte of
// its line: 8 bytes per number, which takes at least 2 ("0,"), and the
// line itself about twice (read, then joined), 6.2 in all; a line of
// empty lists ("[],") takes the most, 11.7, for the metric's per-list
// values, weights and work space.
const maxCaseBytesPerLineByte = 12
