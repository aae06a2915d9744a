package runio

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// naiveSorted says whether the data lines of a TREC text (blank and '#'
// lines skipped, the qid cut by strings.Fields) are in qid order, each
// qid's lines together.
func naiveSorted(text string) bool {
	var prev string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if prev != "" && f[0] != prev && CompareQID(prev, f[0]) >= 0 {
			return false
		}
		prev = f[0]
	}
	return true
}

// TestSortedParallel: the order check of a re-readable file, cut into
// ranges as small as one byte and scanned by several goroutines, says
// what the naive check says, on every layout of the generator.
func TestSortedParallel(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for _, layout := range []string{"sorted", "bytewise", "natural", "blocks", "shuffled"} {
		for i := range 60 {
			qrels, run := autoPair(rng, layout)
			for k, text := range []string{qrels, run} {
				want := naiveSorted(text)
				for _, chunk := range []int64{1, 2, 3, 7, 16, 61, 1 << 20} {
					for _, workers := range []int{1, 3} {
						sc := &trecScan{ra: strings.NewReader(text), size: int64(len(text)), qrels: k == 0, maxLine: 1 << 10, comments: true}
						got, err := sc.sortedParallel(context.Background(), workers, chunk)
						if err != nil {
							t.Fatalf("%s %d: %v", layout, i, err)
						}
						if got != want {
							t.Fatalf("%s %d (chunk %d, %d workers): sorted %v, want %v\n%s", layout, i, chunk, workers, got, want, text)
						}
					}
				}
			}
		}
	}
	// A line longer than the limit, or of separators only, stops the
	// check (the file is then gathered and its parser reports the line),
	// in whichever range it falls.
	for _, text := range []string{"1 Q0 a 1 1 r\n2 Q0 " + strings.Repeat("b", 40) + " 1 1 r\n3 Q0 c 1 1 r\n", "1 Q0 a 1 1 r\n\v\n2 Q0 b 1 1 r\n"} {
		for _, chunk := range []int64{1, 5, 1 << 20} {
			sc := &trecScan{ra: strings.NewReader(text), size: int64(len(text)), maxLine: 30, comments: true}
			if _, err := sc.sortedParallel(context.Background(), 2, chunk); err != errNoIndex {
				t.Errorf("%q chunk %d: %v, want errNoIndex", text, chunk, err)
			}
		}
	}
}

// readLag reads a qrels and a run text under UnsortedAuto with lag lines
// of lag, the run from a gzipped file and the qrels from a pipe, and the
// re-readable files scanned in ranges of chunk bytes.
func readLag(t *testing.T, qrels, run string, lag int, chunk int64) ([]Query, error) {
	t.Helper()
	dir := t.TempDir()
	rp := filepath.Join(dir, "r.gz")
	writeGzip(t, rp, run)
	rs, _, err := openTRECInput(rp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := trecInput{name: "q", r: oneReader{strings.NewReader(qrels)}}
	r := newTRECReader(bg, q, rs, Options{Unsorted: UnsortedAuto, KeepDocs: true}, nil)
	r.lag, r.scanChunk = lag, chunk
	return readAll(r)
}

// TestLagStream: a file read once streams lag lines behind its reading.
// Out of order within the lag it is gathered; out of order later, the rest
// is gathered with the blocks not returned yet, and a qid that does not
// come after the last query returned is an error at its line naming
// --unsorted group. Cases worked by hand with a lag of one line: after
// "1 2 3 5" blocks 1 and 2 are returned, 3 and 5 are held.
func TestLagStream(t *testing.T) {
	line := func(qids ...string) string {
		var b strings.Builder
		for i, q := range qids {
			fmt.Fprintf(&b, "%s Q0 d%d 1 %d r\n", q, i, len(qids)-i)
		}
		return b.String()
	}
	qrels := "1 0 d0 1\n4 0 d4 1\n"
	for _, c := range []struct {
		run  []string
		want string // error, "" for the naive join's queries
	}{
		{[]string{"1", "2", "3", "5", "4"}, ""},
		{[]string{"1", "2", "3", "5", "4", "3"}, ""},       // 3 held: merged
		{[]string{"1", "2", "3", "5", "4", "2"}, "r.gz:6"}, // 2 returned
		{[]string{"1", "2", "3", "5", "4", "9", "1"}, "r.gz:7"},
		{[]string{"2", "1", "3"}, ""}, // within the lag: gathered
	} {
		run := line(c.run...)
		got, err := readLag(t, qrels, run, 1, 0)
		if c.want == "" {
			if err != nil {
				t.Errorf("%v: %v", c.run, err)
				continue
			}
			checkAuto(t, strings.Join(c.run, " "), got, naiveTREC(t, qrels, run))
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want+": field qid") || !strings.Contains(err.Error(), "--unsorted group") {
			t.Errorf("%v: error %v, want one at %s naming --unsorted group", c.run, err, c.want)
		}
	}
	// Random layouts and lags: the naive join's queries, or an error only
	// for a file out of order; sorted files always stream.
	rng := rand.New(rand.NewPCG(23, 2))
	for _, layout := range []string{"sorted", "bytewise", "natural", "blocks", "shuffled"} {
		for i := range 40 {
			qrels, run := autoPair(rng, layout)
			want := naiveTREC(t, qrels, run)
			for _, lag := range []int{1, 2, 5, 1 << 14} {
				got, err := readLag(t, qrels, run, lag, 7)
				if err != nil {
					if naiveSorted(qrels) && naiveSorted(run) || !strings.Contains(err.Error(), "--unsorted group") {
						t.Fatalf("%s %d lag %d: %v", layout, i, lag, err)
					}
					continue
				}
				checkAuto(t, fmt.Sprintf("%s %d lag %d", layout, i, lag), got, want)
			}
		}
	}
}
