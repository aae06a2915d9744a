package runio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// slice returns a TopicMerge side giving xs in order.
func slice(xs []string) func() (string, bool, error) {
	i := 0
	return func() (string, bool, error) {
		if i == len(xs) {
			return "", false, nil
		}
		i++
		return xs[i-1], true, nil
	}
}

// mergeAll joins q and r and writes each pair as Q/R, Q/- or -/R.
func mergeAll(t *testing.T, q, r []string, cmp func(a, b string) int) []string {
	t.Helper()
	m := NewTopicMerge(slice(q), slice(r), cmp)
	var out []string
	for {
		p, err := m.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		s := "-/"
		if p.HasQ {
			s = p.Q + "/"
		}
		if p.HasR {
			s += p.R
		} else {
			s += "-"
		}
		out = append(out, s)
	}
}

// TestTopicMergeHandWorked: the join of two qid lists, worked by hand in
// both orders: CompareQID puts 9 before 10, byte order (trec_eval's) puts
// 10 before 9.
func TestTopicMergeHandWorked(t *testing.T) {
	for _, c := range []struct {
		name string
		cmp  func(a, b string) int
		q, r []string
		want string
	}{
		{"CompareQID", CompareQID, []string{"1", "9", "10", "a"}, []string{"2", "9", "10", "b"}, "1/- -/2 9/9 10/10 a/- -/b"},
		{"bytes", strings.Compare, []string{"1", "10", "9", "a"}, []string{"10", "2", "9", "b"}, "1/- 10/10 -/2 9/9 a/- -/b"},
		{"qrels only", strings.Compare, []string{"1", "2"}, nil, "1/- 2/-"},
		{"run only", strings.Compare, nil, []string{"1", "2"}, "-/1 -/2"},
		{"none", strings.Compare, nil, nil, ""},
	} {
		got := strings.Join(mergeAll(t, c.q, c.r, c.cmp), " ")
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestTopicMergeNaive: on random sorted lists, the join equals a naive
// one: the union of the qids in order, each with the sides that have it.
func TestTopicMergeNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 500 {
		var q, r []string
		set := map[string]bool{}
		for i := range 30 {
			id := fmt.Sprint(i)
			if rng.IntN(2) == 0 {
				q = append(q, id)
				set[id] = true
			}
			if rng.IntN(2) == 0 {
				r = append(r, id)
				set[id] = true
			}
		}
		slices.SortFunc(q, CompareQID)
		slices.SortFunc(r, CompareQID)
		var all []string
		for id := range set {
			all = append(all, id)
		}
		slices.SortFunc(all, CompareQID)
		var want []string
		for _, id := range all {
			s := "-/"
			if slices.Contains(q, id) {
				s = id + "/"
			}
			if slices.Contains(r, id) {
				s += id
			} else {
				s += "-"
			}
			want = append(want, s)
		}
		if got := mergeAll(t, q, r, CompareQID); !slices.Equal(got, want) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
}

// An error of a side stops the join; the run is asked first.
func TestTopicMergeErrors(t *testing.T) {
	bad := errors.New("bad run")
	m := NewTopicMerge(slice([]string{"1"}), func() (string, bool, error) { return "", false, bad }, strings.Compare)
	if _, err := m.Next(); err != bad {
		t.Errorf("error %v, want the run's", err)
	}
}

// TestScanTopicsHandWorked: layouts of small runs under byte order, with
// their blocks (offsets, first lines) worked by hand.
func TestScanTopicsHandWorked(t *testing.T) {
	line := "1 Q0 d 1 1 r\n" // 13 bytes
	for _, c := range []struct {
		name, run string
		want      TopicLayout
		blocks    string
	}{
		{"sorted", "1 Q0 d 1 1 r\n1 Q0 e 2 1 r\n10 Q0 d 1 1 r\n9 Q0 d 1 1 r\n", TopicsSorted, "1[0,26)@1 10[26,40)@3 9[40,53)@4"},
		{"blocks", "9 Q0 d 1 1 r\n1 Q0 d 1 1 r\n# c\n1 Q0 e 2 1 r\n", TopicsInBlocks, "1[13,43)@2 9[0,13)@1"},
		{"scattered", line + "2 Q0 d 1 1 r\n" + line, TopicsScattered, ""},
		{"empty", "# only a comment\n", TopicsSorted, ""},
	} {
		sc := NewTRECScanner(strings.NewReader(c.run), "r", false, TRECEval10, &Options{})
		n := 0
		lay, blocks, err := ScanTopics(context.Background(), sc, strings.Compare, func([][]byte) { n++ })
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, b := range blocks {
			got = append(got, fmt.Sprintf("%s[%d,%d)@%d", b.QID, b.Off, b.End, b.FirstLine))
		}
		if lay != c.want || strings.Join(got, " ") != c.blocks || n != strings.Count(c.run, " Q0 ") {
			t.Errorf("%s: layout %v, blocks %v, %d lines; want %v, %s", c.name, lay, got, n, c.want, c.blocks)
		}
	}
	// A malformed line anywhere, even after the layout is known to be
	// scattered, is the scan's error.
	sc := NewTRECScanner(strings.NewReader(line+"2 Q0 d 1 1 r\n"+line+"3 Q0\n"), "r", false, TRECEval10, &Options{})
	if _, _, err := ScanTopics(context.Background(), sc, strings.Compare, nil); err == nil || !strings.Contains(err.Error(), "r:4: field 3 (docno)") {
		t.Errorf("malformed line 4: %v", err)
	}
}

// TestScanTopicsNaive: on random runs (topics sorted, in blocks or
// scattered, comment lines between), ScanTopics (in byte order) and the
// TREC reader's scan (trecScan, in the order of CompareQID) give the
// layout and blocks found naively: the maximal runs of lines of one qid,
// written down as the run is generated.
func TestScanTopicsNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		ids := []string{"1", "10", "2", "9", "a", "bx"}[:1+rng.IntN(6)]
		if trial%10 == 0 {
			// Enough topics for the index to sort and check its
			// blocks a few times before the end.
			ids = nil
			for i := range 1 + rng.IntN(5000) {
				ids = append(ids, fmt.Sprint(i))
			}
		}
		var order []string // one qid per block
		switch rng.IntN(4) {
		case 0: // sorted
			order = slices.Clone(ids)
			slices.SortFunc(order, strings.Compare)
		case 1: // in blocks, any order
			order = slices.Clone(ids)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		case 2: // anything
			for range 1 + rng.IntN(8) {
				order = append(order, ids[rng.IntN(len(ids))])
			}
		default: // in blocks, then one topic again, late
			order = slices.Clone(ids)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			order = append(order, ids[rng.IntN(len(ids))])
		}
		var run strings.Builder
		type span struct {
			qid       string
			off, end  int64
			firstLine int64
		}
		var spans []span
		line := int64(0)
		for _, id := range order {
			if rng.IntN(4) == 0 {
				run.WriteString("# note\n")
				line++
			}
			n := 1 + rng.IntN(3)
			for k := range n {
				off := int64(run.Len())
				fmt.Fprintf(&run, "%s Q0 d%d %d 1.5 r\n", id, k, k+1)
				line++
				if k == 0 && (len(spans) == 0 || spans[len(spans)-1].qid != id) {
					spans = append(spans, span{id, off, 0, line})
				}
				spans[len(spans)-1].end = int64(run.Len())
			}
		}
		// The naive layout under cmp.
		naive := func(cmp func(a, b string) int) (TopicLayout, []string) {
			want := TopicsSorted
			seen := map[string]bool{}
			for i, s := range spans {
				if seen[s.qid] {
					return TopicsScattered, nil
				}
				seen[s.qid] = true
				if i > 0 && cmp(spans[i-1].qid, s.qid) >= 0 {
					want = TopicsInBlocks
				}
			}
			sorted := slices.Clone(spans)
			slices.SortFunc(sorted, func(a, b span) int { return cmp(a.qid, b.qid) })
			var blocks []string
			for _, s := range sorted {
				blocks = append(blocks, fmt.Sprintf("%s[%d,%d)@%d", s.qid, s.off, s.end, s.firstLine))
			}
			return want, blocks
		}
		str := func(blocks []TopicBlock) []string {
			var got []string
			for _, b := range blocks {
				got = append(got, fmt.Sprintf("%s[%d,%d)@%d", b.QID, b.Off, b.End, b.FirstLine))
			}
			return got
		}
		// The checked scan, in byte order.
		want, wantBlocks := naive(strings.Compare)
		sc := NewTRECScanner(strings.NewReader(run.String()), "r", false, TRECEval10, &Options{})
		lay, blocks, err := ScanTopics(context.Background(), sc, strings.Compare, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := str(blocks); lay != want || !slices.Equal(got, wantBlocks) {
			t.Fatalf("trial %d: %q\nlayout %v, blocks %v\nwant %v, %v", trial, run.String(), lay, got, want, wantBlocks)
		}
		// The TREC reader's scan, in the order of CompareQID.
		want, wantBlocks = naive(CompareQID)
		ts := &trecScan{ra: strings.NewReader(run.String()), size: int64(run.Len()), maxLine: 1 << 10, comments: true}
		lay, blocks, err = ts.index(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := str(blocks); lay != want || !slices.Equal(got, wantBlocks) {
			t.Fatalf("trial %d, trecScan: %q\nlayout %v, blocks %v\nwant %v, %v", trial, run.String(), lay, got, want, wantBlocks)
		}
		if sorted, err := ts.sorted(context.Background()); err != nil || sorted != (want == TopicsSorted) {
			t.Fatalf("trial %d, trecScan: sorted %v, %v; want %v", trial, sorted, err, want == TopicsSorted)
		}
	}
}

// TestTRECScanIndexStops: the TREC reader's scan stops where a file of two
// sorted parts repeats its first qid, before a line it could not place
// (longer than its limit: errNoIndex when it reads that far).
func TestTRECScanIndexStops(t *testing.T) {
	long := "4 Q0 " + strings.Repeat("d", 40) + " 1 1 r\n"
	for _, c := range []struct {
		name, text string
		want       TopicLayout
		err        error
	}{
		{"two parts", "1 Q0 d 1 1 r\n2 Q0 d 1 1 r\n1 Q0 e 2 1 r\n" + long, TopicsScattered, nil},
		{"blocks", "2 Q0 d 1 1 r\n1 Q0 d 1 1 r\n3 Q0 e 2 1 r\n" + long, TopicsScattered, errNoIndex},
	} {
		ts := &trecScan{ra: strings.NewReader(c.text), size: int64(len(c.text)), maxLine: 30, comments: true}
		lay, blocks, err := ts.index(context.Background())
		if lay != c.want || blocks != nil || err != c.err {
			t.Errorf("%s: layout %v, blocks %v, error %v; want %v, none, %v", c.name, lay, blocks, err, c.want, c.err)
		}
	}
}
