package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// compareRunsFiles writes a qrels file and five runs of 120 topics
// (randomTREC: each run ranks the relevant documents better than the one
// before, so their values differ), then changes three of them: run r1
// ranks only the topics up to 40 (a third of the judged ones: a warning,
// and judged topics it misses, at 0), run r2's lines are shuffled (not
// sorted: compare reads it again alone), and, when broken, run r3 has a
// score that is not a number on its last line.
func compareRunsFiles(t *testing.T, dir string, broken bool) []string {
	t.Helper()
	paths := randomTREC(t, dir, 23, 120, 5)
	rewrite := func(p string, f func([]string) []string) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		if err := os.WriteFile(p, []byte(strings.Join(f(lines[:len(lines)-1]), "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rewrite(paths[2], func(ls []string) []string { return ls[:40*20] })
	rewrite(paths[3], func(ls []string) []string {
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		return ls
	})
	if broken {
		rewrite(paths[4], func(ls []string) []string {
			f := strings.Fields(ls[len(ls)-1])
			f[4] = "x"
			ls[len(ls)-1] = strings.Join(f, " ") + "\n"
			return ls
		})
	}
	return paths
}

// TestCompareRunsValues: the per-query and overall values compare reads
// for each run, several runs at once with their qrels parsed once, are
// those eval -q gives for that run alone, for 1 to 8 workers (2 to 16 runs
// at once: every run in one read, or in several), the unsorted run too.
func TestCompareRunsValues(t *testing.T) {
	dir := t.TempDir()
	paths := compareRunsFiles(t, dir, false)
	want := make([]evalJSON, len(paths)-1)
	for k, run := range paths[1:] {
		want[k] = evalJSONOf(t, "-q", "--dtype", "float64", "-m", "map", "-m", "P_10", paths[0], run)
	}
	for _, w := range []string{"1", "2", "8"} {
		o, _, err := parseCompareArgs(append([]string{"--workers", w, "--dtype", "float64", "-m", "map", "-m", "P_10"}, paths...), io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		o.stderr = io.Discard
		runs, err := o.evaluateRuns(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for k, rv := range runs {
			ev := want[k]
			name := fmt.Sprintf("workers %s, run %s", w, rv.name)
			if rv.numQueries() != len(ev.PerQuery) {
				t.Fatalf("%s: %d queries, eval -q %d", name, rv.numQueries(), len(ev.PerQuery))
			}
			for i, pq := range ev.PerQuery {
				if q := rv.qid(i); q != pq["qid"] || rv.values[0][i] != pq["map"] || rv.values[1][i] != pq["P_10"] {
					t.Fatalf("%s: query %d: %s map %v P_10 %v; eval -q: %v", name, i, q, rv.values[0][i], rv.values[1][i], pq)
				}
			}
			if rv.means[0] != ev.Measures["map"] || rv.means[1] != ev.Measures["P_10"] {
				t.Errorf("%s: means %v, eval %v", name, rv.means, ev.Measures)
			}
		}
	}
}

// TestCompareRunsSameBytes: compare prints the same bytes, on stdout and
// on stderr, for any --workers, whether its runs are read one at a time,
// two or more at once or all at once; with an error in run 3 of 4, it
// stops with eval's error for that run, named as before, after the
// warnings of the runs before it.
func TestCompareRunsSameBytes(t *testing.T) {
	dir := t.TempDir()
	for _, broken := range []bool{false, true} {
		paths := compareRunsFiles(t, dir, broken)
		if broken {
			paths = paths[:5] // qrels and runs r0 to r3: the broken run is the last but one
			paths[3], paths[4] = paths[4], paths[3]
		}
		for _, format := range []string{"table", "json"} {
			var first, firstErr string
			for _, w := range []string{"1", "2", "3", "4"} {
				args := append([]string{"--workers", w, "--format", format, "-m", "map,P_10", "--test", "t,randomization", "--samples", "500", "--seed", "3"}, paths...)
				out, errOut, err := compareRun(t, args...)
				got := out + "\n--- stderr\n" + errOut + "\n--- error\n" + fmt.Sprint(err)
				if w == "1" {
					first, firstErr = got, fmt.Sprint(err)
					if !strings.Contains(errOut, "warning: run r1.run") {
						t.Errorf("no warning for run r1: %s", errOut)
					}
					continue
				}
				if got != first {
					t.Errorf("broken %v, %s: --workers %s gives\n%s\n--workers 1\n%s", broken, format, w, got, first)
				}
			}
			if !broken {
				if firstErr != "<nil>" {
					t.Fatalf("%s: %s", format, firstErr)
				}
				continue
			}
			// The error of eval on the broken run alone, named by compare.
			var evalOut, evalErr bytes.Buffer
			err := run(context.Background(), []string{"eval", "-m", "map", paths[0], paths[3]}, nil, &evalOut, &evalErr)
			if err == nil || !strings.Contains(err.Error(), `field score: value "x"`) {
				t.Fatalf("eval on the broken run: %v", err)
			}
			if want := fmt.Sprintf("run %s: %v", paths[3], err); firstErr != want {
				t.Errorf("%s: error\n%s\nwant\n%s", format, firstErr, want)
			}
		}
	}
}

// TestCompareRunsBadQrels: a malformed qrels line fails every run read at
// once; compare reports it for the first run, as eval reports it for that
// run alone, for any --workers.
func TestCompareRunsBadQrels(t *testing.T) {
	dir := t.TempDir()
	paths := randomTREC(t, dir, 5, 60, 4)
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[700] = "31 0 d0\n" // three fields
	if err := os.WriteFile(paths[0], []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	var evalOut, evalErr bytes.Buffer
	evalE := run(context.Background(), []string{"eval", "-m", "map", paths[0], paths[1]}, nil, &evalOut, &evalErr)
	if evalE == nil || !strings.Contains(evalE.Error(), ":701:") {
		t.Fatalf("eval on the bad qrels: %v", evalE)
	}
	want := fmt.Sprintf("run %s: %v", paths[1], evalE)
	for _, w := range []string{"1", "2", "4"} {
		_, _, err := compareRun(t, append([]string{"--workers", w, "-m", "map"}, paths...)...)
		if fmt.Sprint(err) != want {
			t.Errorf("--workers %s: error\n%v\nwant\n%s", w, err, want)
		}
	}
}
