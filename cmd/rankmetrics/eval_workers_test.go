package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestEvalWorkersIdentical: eval prints the same bytes, or the same error,
// with --workers 1 (one core; each TREC file parsed on one goroutine), 2
// (a gzipped file decompressed and parsed on two) and 8 (4 per file, in
// pieces), on the sorted, block-shuffled and shuffled pairs of
// testdata/treceval, gzipped, and with every hostile file of
// testdata/treceval/hostile, plain and gzipped, as the qrels and as the
// run, under every --unsorted policy.
func TestEvalWorkersIdentical(t *testing.T) {
	dir := "../../testdata/treceval"
	pairs := [][2]string{}
	for _, l := range []string{"sorted", "blocks", "shuffled"} {
		pairs = append(pairs, [2]string{filepath.Join(dir, l+".qrels"), filepath.Join(dir, l+".run")})
	}
	tmp := t.TempDir()
	qgz := gzipCopy(t, filepath.Join(dir, "sorted.qrels"), tmp)
	rgz := gzipCopy(t, filepath.Join(dir, "sorted.run"), tmp)
	pairs = append(pairs, [2]string{qgz, rgz})
	hostile, err := filepath.Glob(filepath.Join(dir, "hostile", "*"))
	if err != nil || len(hostile) == 0 {
		t.Fatalf("no hostile files: %v", err)
	}
	for _, h := range hostile {
		pairs = append(pairs, [2]string{h, filepath.Join(dir, "sorted.run")}, [2]string{filepath.Join(dir, "sorted.qrels"), h})
		// Gzipped, a file is decompressed on a goroutine of its own and
		// parsed on another from 2 workers on.
		gz := gzipCopy(t, h, tmp)
		pairs = append(pairs, [2]string{gz, rgz}, [2]string{qgz, gz})
	}
	eval := func(args ...string) string {
		var out, errb bytes.Buffer
		err := runEval(context.Background(), append([]string{"--quiet"}, args...), strings.NewReader(""), &out, &errb)
		s := out.String()
		if err != nil {
			s += "error: " + err.Error()
		}
		return s
	}
	errors := 0
	for _, p := range pairs {
		for _, pol := range []string{"auto", "error", "group"} {
			args := []string{"-q", "--format", "tsv", "-m", "map", "-m", "ndcg@10", "-m", "P_10", "--unsorted", pol, p[0], p[1]}
			one := eval(append([]string{"--workers", "1"}, args...)...)
			for _, w := range []string{"2", "8"} {
				if many := eval(append([]string{"--workers", w}, args...)...); one != many {
					t.Fatalf("%v --unsorted %s: --workers %s printed\n%s\n--workers 1 printed\n%s", p, pol, w, many, one)
				}
			}
			if strings.Contains(one, "error: ") {
				errors++
			}
		}
	}
	if errors == 0 {
		t.Fatal("no input was refused: the hostile files are not exercised")
	}
}

// gzipCopy writes the file at path gzipped into dir, under its name and
// ".gz", and returns the copy's path.
func gzipCopy(t *testing.T, path, dir string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	w.Close()
	gz := filepath.Join(dir, filepath.Base(path)+".gz")
	if err := os.WriteFile(gz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return gz
}

// TestWorkersLimitCores: --workers N below the process's core limit
// lowers it (runtime.GOMAXPROCS) for the command and puts it back after;
// N at or above it changes nothing.
func TestWorkersLimitCores(t *testing.T) {
	prev := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(prev)
	for _, c := range []struct{ workers, during int }{{1, 1}, {2, 2}, {3, 3}, {8, 3}} {
		o := engineArgs{workers: c.workers}
		restore := o.limitCores()
		if got := runtime.GOMAXPROCS(0); got != c.during {
			t.Errorf("--workers %d: GOMAXPROCS %d during the command, want %d", c.workers, got, c.during)
		}
		restore()
		if got := runtime.GOMAXPROCS(0); got != 3 {
			t.Errorf("--workers %d: GOMAXPROCS %d after the command, want 3", c.workers, got)
		}
	}
}
