package golden

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestEachAndNum(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("{\"a\":1,\"v\":\"NaN\"}\n{\"a\":2,\"v\":-0.5}\n"))
	zw.Close()
	p := filepath.Join(dir, "g.jsonl.gz")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	type c struct {
		A int `json:"a"`
		V any `json:"v"`
	}
	var lines []int
	Each(t, Files(t, "", filepath.Join(dir, "*.gz")), func(_ string, line int, v *c) {
		lines = append(lines, line*10+v.A)
	})
	if len(lines) != 2 || lines[0] != 11 || lines[1] != 22 {
		t.Errorf("lines and values %v, want [11 22]", lines)
	}
	all := All[c](t, []string{p})
	if f, ok := Num(all[0].V); !ok || !math.IsNaN(f) {
		t.Errorf("Num(%v) = %v, %v; want NaN", all[0].V, f, ok)
	}
	if f, ok := Num(all[1].V); !ok || f != -0.5 {
		t.Errorf("Num(%v) = %v, %v; want -0.5", all[1].V, f, ok)
	}
	for _, s := range []any{"Infinity", "-Infinity", "nan", true} {
		f, ok := Num(s)
		want := map[any]float64{"Infinity": math.Inf(1), "-Infinity": math.Inf(-1)}[s]
		if _, known := map[any]bool{"Infinity": true, "-Infinity": true}[s]; ok != known || ok && f != want {
			t.Errorf("Num(%v) = %v, %v", s, f, ok)
		}
	}
}
