package golden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// maxLine is the longest line a golden file may hold (a case with a whole
// qrels file and run in it).
const maxLine = 1 << 26

// Files returns the files that match the patterns, in order; when the
// environment variable env is set (a live check's fresh file), its value
// is the one pattern. It fails t when a pattern matches nothing.
func Files(t testing.TB, env string, patterns ...string) []string {
	t.Helper()
	if p := os.Getenv(env); env != "" && p != "" {
		patterns = []string{p}
	}
	var files []string
	for _, p := range patterns {
		f, err := filepath.Glob(p)
		if err != nil || len(f) == 0 {
			t.Fatalf("no golden file matches %s (%v)", p, err)
		}
		files = append(files, f...)
	}
	return files
}

// Each decodes every line of files into a new T and calls fn with it, its
// file and its line number (from 1). A file that cannot be read or a line
// that does not decode fails t, naming the file and line.
func Each[T any](t testing.TB, files []string, fn func(file string, line int, v *T)) {
	t.Helper()
	for _, name := range files {
		each(t, name, fn)
	}
}

func each[T any](t testing.TB, name string, fn func(file string, line int, v *T)) {
	t.Helper()
	fh, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	zr, err := gzip.NewReader(fh)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, maxLine)
	line := 0
	for sc.Scan() {
		line++
		v := new(T)
		if err := json.Unmarshal(sc.Bytes(), v); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		fn(name, line, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// All returns every case of files, in order.
func All[T any](t testing.TB, files []string) []T {
	t.Helper()
	var out []T
	Each(t, files, func(_ string, _ int, v *T) { out = append(out, *v) })
	return out
}

// Num reads a recorded value: a JSON number, or one of the strings "NaN",
// "Infinity" and "-Infinity" that the generators write for values JSON
// has no number for. ok is false for anything else.
func Num(v any) (f float64, ok bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		switch x {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			return math.Inf(1), true
		case "-Infinity":
			return math.Inf(-1), true
		}
	}
	return 0, false
}

// IRCase is one case of the ir_measures golden files of
// testdata/irmeasures (written by parity/irmeasures from ir_measures
// 0.4.3 and its providers): a qrels and a run, and what the reference gave
// for each measure.
type IRCase struct {
	Case    int        `json:"case"`
	Seed    int        `json:"seed"`
	Qrels   []string   `json:"qrels"`
	Run     []string   `json:"run"`
	Results []IRResult `json:"results"`
}

// IRResult is one measure's result in an [IRCase]: its name as written
// and (for the provider families) the provider's name and parameters, the
// reference's error if it failed, its per-query values as [qid, value]
// pairs, and its summary (read with [Num]).
type IRResult struct {
	Measure string         `json:"measure"`
	Name    string         `json:"name"`
	Params  map[string]any `json:"params"`
	Error   string         `json:"error"`
	PerQ    [][]any        `json:"perq"`
	All     any            `json:"all"`
}
