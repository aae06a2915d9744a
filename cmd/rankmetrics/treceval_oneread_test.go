package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sideBySidePair writes a random qrels file and run: topics only one of
// them has, the run's topics in the qrels' order or shuffled or one split
// in two blocks, topics judged only negatively, tied scores, sometimes a
// document retrieved twice.
func sideBySidePair(t *testing.T, r *rand.Rand, dir string) (qrelsName, runName string) {
	n := 3 + r.IntN(40)
	qids := make([]string, n)
	for i := range qids {
		qids[i] = fmt.Sprint(i + 1)
		if r.IntN(5) == 0 {
			qids[i] = fmt.Sprintf("q%d", r.IntN(1000))
		}
	}
	qids = uniq(qids)
	var q, run bytes.Buffer
	var runQids []string
	for _, qid := range qids {
		inQrels, inRun := r.IntN(8) != 0, r.IntN(25) != 0
		if inRun {
			runQids = append(runQids, qid)
		}
		if !inQrels {
			continue
		}
		neg := r.IntN(150) == 0
		for d := range 1 + r.IntN(30) {
			rel := r.IntN(4) - 1
			if neg {
				rel = -1 - r.IntN(2)
			}
			fmt.Fprintf(&q, "%s 0 D%d %d\n", qid, d, rel)
		}
	}
	switch r.IntN(4) {
	case 0:
		r.Shuffle(len(runQids), func(i, j int) { runQids[i], runQids[j] = runQids[j], runQids[i] })
	case 1:
		if len(runQids) > 2 {
			runQids = append(runQids, runQids[0]) // a topic in two blocks
		}
	}
	for bi, qid := range runQids {
		for d := range 1 + r.IntN(30) {
			docno := fmt.Sprintf("D%d", r.IntN(40))
			if bi == len(runQids)-1 || r.IntN(500) != 0 {
				docno = fmt.Sprintf("D%d-%d", d, bi)
				if r.IntN(2) == 0 {
					docno = fmt.Sprintf("D%d", d) // judged, unless split
				}
			}
			fmt.Fprintf(&run, "%s Q0 %s %d %d.%d run%d\n", qid, docno, d+1, r.IntN(5), r.IntN(3), bi%3)
		}
	}
	qrelsName, runName = filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	if err := os.WriteFile(qrelsName, q.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runName, run.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return qrelsName, runName
}

func uniq(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// TestTrecEvalSideBySide: on random pairs, the side-by-side read prints
// the bytes and ends with the status and error of the usual reading (each
// file read whole first, checked against trec_eval's outputs by the golden
// tests), with its values in memory or in its temporary file; it answers
// a third of them or more, and gives way on the others.
func TestTrecEvalSideBySide(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 1))
	flagSets := [][]string{
		{"-m", "all_trec"}, {"-q", "-m", "all_trec"}, {"-c", "-m", "all_trec"},
		{"-q", "-c", "-m", "map", "-m", "P.5"}, {"-n", "-q", "-m", "ndcg_cut.3"},
	}
	answered, total := 0, 0
	for i := range 60 {
		dir := t.TempDir()
		qrels, run := sideBySidePair(t, r, dir)
		for _, version := range []string{"10.0", "9.0.8"} {
			for _, flags := range flagSets {
				args := append([]string{"--compat", version}, flags...)
				args = append(args, qrels, run)
				var want bytes.Buffer
				werr := runTrecEvalTuned(context.Background(), args, trecEvalTuning{budget: storedValuesBudget, noSideBySide: true}, nil, &want, io.Discard)
				for _, budget := range []int64{storedValuesBudget, 0} {
					n := 0
					var got bytes.Buffer
					gerr := runTrecEvalTuned(context.Background(), args, trecEvalTuning{budget: budget, sideBySide: &n}, nil, &got, io.Discard)
					answered += n
					total++
					if !bytes.Equal(got.Bytes(), want.Bytes()) || fmt.Sprint(gerr) != fmt.Sprint(werr) || trecEvalExitCode(gerr) != trecEvalExitCode(werr) {
						b, _ := os.ReadFile(run)
						t.Fatalf("pair %d %v budget %d: side by side %v (read so: %d)\n%s\nusual reading %v\n%s\nrun:\n%s", i, args, budget, gerr, n,
							firstDiff(got.Bytes(), want.Bytes()), werr, want.Bytes(), b)
					}
					var ee *exitError
					if gerr != nil && !errors.As(gerr, &ee) {
						t.Fatalf("pair %d %v: error without exit status: %v", i, args, gerr)
					}
				}
			}
		}
	}
	t.Logf("%d of %d evaluations read side by side", answered, total)
	if answered < total/3 || answered == total {
		t.Errorf("%d of %d evaluations read side by side: want a third or more, not all", answered, total)
	}
}

// TestTrecEvalSideBySideTwoBlocks: a qid in two blocks of the run or of
// the qrels, found early (its first block still waiting for the other
// file) or late (its first block evaluated, or kept to the end), makes the
// side-by-side read give way, and the output is the usual reading's; the
// same pairs without the second block are read side by side.
func TestTrecEvalSideBySideTwoBlocks(t *testing.T) {
	// Each string is a file's blocks: one qid a block, three lines each.
	tests := []struct {
		name        string
		qrels, run  string
		sideBySide  bool
		versionFlag string
	}{
		{"sorted pair", "1 2 3", "1 2 3", true, "10.0"},
		{"run only topic", "1 2", "1 4 2", true, "10.0"},
		{"run: first block evaluated", "1 2", "1 2 1", false, "10.0"},
		{"run: first block evaluated, second last", "1 2 3", "1 2 3 1", false, "9.0.8"},
		{"run: both blocks waiting for the qrels", "1 2 3", "3 1 3 2", false, "10.0"},
		{"run: qid the qrels lack", "1 2", "1 4 2 4", false, "10.0"},
		{"run: qid the qrels lack, twice in a row apart", "1 2", "4 1 2 4", false, "9.0.8"},
		{"qrels: first block evaluated", "1 2 1", "1 2", false, "10.0"},
		{"qrels: first block evaluated, second last", "1 2 3 1", "1 2 3", false, "9.0.8"},
		{"qrels: both blocks waiting for the run", "3 1 3 2", "1 2 3", false, "10.0"},
		{"qrels: qid the run lacks", "1 4 2 4", "1 2", false, "9.0.8"},
		{"qrels: qid the run lacks, -c", "1 4 2 4", "1 2", false, "10.0 -c"},
		{"qrels only topic, -c", "1 4 2", "1 2", true, "10.0 -c"},
		{"both files", "1 2 1", "1 2 1", false, "10.0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var q, r bytes.Buffer
			for b, qid := range strings.Fields(tc.qrels) {
				for d := range 3 {
					fmt.Fprintf(&q, "%s 0 D%d-%d %d\n", qid, b, d, d%2)
				}
			}
			for b, qid := range strings.Fields(tc.run) {
				for d := range 3 {
					fmt.Fprintf(&r, "%s Q0 D%d-%d %d %d run\n", qid, b, 2-d, d+1, 3-d)
				}
			}
			qrels, run := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
			if err := os.WriteFile(qrels, q.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(run, r.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			vf := strings.Fields(tc.versionFlag)
			for _, flags := range [][]string{{"-m", "all_trec"}, {"-q", "-m", "all_trec"}} {
				args := append(append([]string{"--compat", vf[0]}, vf[1:]...), flags...)
				args = append(args, qrels, run)
				var want, got bytes.Buffer
				werr := runTrecEvalTuned(context.Background(), args, trecEvalTuning{budget: storedValuesBudget, noSideBySide: true}, nil, &want, io.Discard)
				n := 0
				gerr := runTrecEvalTuned(context.Background(), args, trecEvalTuning{budget: storedValuesBudget, sideBySide: &n}, nil, &got, io.Discard)
				if (n == 1) != tc.sideBySide {
					t.Errorf("%v: read side by side %d times, want %v", args, n, tc.sideBySide)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) || fmt.Sprint(gerr) != fmt.Sprint(werr) {
					t.Errorf("%v: got %v\n%s\nwant %v\n%s", args, gerr, got.Bytes(), werr, want.Bytes())
				}
			}
		})
	}
}

// TestPackedStrings: the strings read back are those added, in order,
// and sorted gives their byte order and finds a string added twice, as a
// []string sorted and compared neighbour to neighbour does.
func TestPackedStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 2))
	tests := [][]string{
		nil,
		{""},
		{"", ""},
		{"b", "a", ""},
		{"10", "9", "1", "100"},
		{"q1", "q2", "q1"},
		{"ab", "a", "abc", "b"},
	}
	for range 50 {
		var s []string
		for range r.IntN(200) {
			s = append(s, fmt.Sprint(r.IntN(300)))
		}
		tests = append(tests, s)
	}
	for _, in := range tests {
		var l packedStrings
		for _, s := range in {
			if !l.add(s) {
				t.Fatalf("add(%q) refused", s)
			}
		}
		if l.len() != len(in) {
			t.Fatalf("%q: len %d", in, l.len())
		}
		for i, s := range in {
			if l.at(i) != s || string(l.bytesAt(i)) != s {
				t.Fatalf("%q: at(%d) = %q, bytesAt %q", in, i, l.at(i), l.bytesAt(i))
			}
		}
		want := slices.Clone(in)
		slices.Sort(want)
		wantTwice := false
		for i := 1; i < len(want); i++ {
			wantTwice = wantTwice || want[i] == want[i-1]
		}
		p, twice := l.sorted()
		var got []string
		for _, i := range p {
			got = append(got, in[i])
		}
		if !slices.Equal(got, want) || twice != wantTwice {
			t.Errorf("%q: sorted %q, twice %v; want %q, %v", in, got, twice, want, wantTwice)
		}
	}
}
