package runio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// multiRuns writes a qrels file and nRuns runs over the same topics,
// sorted by qid: each run ranks its own subset of the topics (run 0 none,
// run 1 a few, so that the readers go at very different paces), some
// topics are judged and not ranked or ranked and not judged, and a run
// ranks unjudged documents. It returns the texts and the paths.
func multiRuns(t *testing.T, dir string, rng *rand.Rand, nRuns int, gz bool) (qrels string, runs []string, qp string, rps []string) {
	t.Helper()
	nq := 50 + rng.IntN(300)
	qids := make([]string, nq)
	for i := range qids {
		qids[i] = strconv.Itoa(1 + i*(1+rng.IntN(3)))
		if rng.IntN(10) == 0 {
			qids[i] = "q" + qids[i]
		}
	}
	slices.SortFunc(qids, CompareQID)
	qids = slices.Compact(qids)
	var qb strings.Builder
	for i, qid := range qids {
		if rng.IntN(6) == 0 {
			continue // a topic no qrels line judges
		}
		for d := range 1 + rng.IntN(12) {
			fmt.Fprintf(&qb, "%s 0 D%d-%d %d\n", qid, i, d, rng.IntN(3))
		}
	}
	qrels = qb.String()
	for k := range nRuns {
		var rb strings.Builder
		keep := 0.9
		switch k {
		case 0:
			keep = 0
		case 1:
			keep = 0.05
		}
		for i, qid := range qids {
			if rng.Float64() >= keep {
				continue
			}
			for d := range 1 + rng.IntN(15) {
				fmt.Fprintf(&rb, "%s Q0 D%d-%d %d %d.%03d r%d\n", qid, i, d, d+1, rng.IntN(10), rng.IntN(1000), k)
			}
		}
		runs = append(runs, rb.String())
	}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if gz {
			writeGzip(t, p, text)
			return p
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	qp = write("qrels", qrels)
	for k, r := range runs {
		rps = append(rps, write(fmt.Sprintf("run%d", k), r))
	}
	return qrels, runs, qp, rps
}

// readConcurrently reads every reader on a goroutine of its own, as
// OpenRuns wants, and returns each one's queries and error; it fails the
// test if the readers do not all end within a minute.
func readConcurrently(t *testing.T, rs []Reader, each func(k int, r Reader) ([]Query, error)) ([][]Query, []error) {
	t.Helper()
	qs := make([][]Query, len(rs))
	errs := make([]error, len(rs))
	var wg sync.WaitGroup
	for k, r := range rs {
		wg.Go(func() { qs[k], errs[k] = each(k, r) })
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the readers of OpenRuns did not end: one waits for another")
	}
	return qs, errs
}

// TestOpenRunsJoin: each reader of OpenRuns gives the queries of the naive
// join of its run with the qrels, and those of Open on the pair, for plain
// and gzipped files, small buffers and parallel parsing.
func TestOpenRunsJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	for i := range 12 {
		gz := i%3 == 2
		dir := t.TempDir()
		qrels, runs, qp, rps := multiRuns(t, dir, rng, 2+rng.IntN(5), gz)
		o := Options{Unsorted: UnsortedAuto, Restartable: true, KeepDocs: true}
		if i%2 == 1 {
			o.BufferSize, o.Workers = 64, 4
		}
		rs, err := OpenRuns(bg, qp, rps, o)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := readConcurrently(t, rs, func(_ int, r Reader) ([]Query, error) { return readAll(r) })
		for k := range rps {
			name := fmt.Sprintf("case %d (gzip %v), run %d", i, gz, k)
			if errs[k] != nil {
				t.Fatalf("%s: %v", name, errs[k])
			}
			checkAuto(t, name+" against the naive join", got[k], naiveTREC(t, qrels, runs[k]))
			o1 := o
			o1.Restartable = false
			want, err := readAll(openAuto(t, []string{qp, rps[k]}, o1))
			if err != nil {
				t.Fatal(err)
			}
			checkAuto(t, name+" against Open", got[k], want)
		}
	}
}

// TestOpenRunsStats: the counts of each reader are those of Open's reader
// of its pair.
func TestOpenRunsStats(t *testing.T) {
	dir := t.TempDir()
	_, _, qp, rps := multiRuns(t, dir, rand.New(rand.NewPCG(4, 4)), 4, false)
	o := Options{Unsorted: UnsortedAuto, Restartable: true}
	rs, err := OpenRuns(bg, qp, rps, o)
	if err != nil {
		t.Fatal(err)
	}
	stats := make([]Stats, len(rs))
	_, errs := readConcurrently(t, rs, func(k int, r Reader) ([]Query, error) {
		defer r.Close()
		var q Query
		for {
			if err := r.Next(&q); err != nil {
				stats[k] = r.Stats()
				if err == io.EOF {
					err = nil
				}
				return nil, err
			}
		}
	})
	for k := range rs {
		if errs[k] != nil {
			t.Fatal(errs[k])
		}
		r := openAuto(t, []string{qp, rps[k]}, Options{Unsorted: UnsortedAuto})
		var q Query
		for r.Next(&q) == nil {
		}
		if want := r.Stats(); stats[k] != want {
			t.Errorf("run %d: stats %+v, want %+v", k, stats[k], want)
		}
		r.Close()
	}
}

// TestOpenRunsRestart: a run that is not sorted, or not well formed, ends
// in an error wrapping ErrRestart on its reader alone, and ReadAgain then
// gives the queries, or the error, of Restarting on its pair; a qrels file
// that is not sorted makes every reader's error wrap ErrRestart.
func TestOpenRunsRestart(t *testing.T) {
	dir := t.TempDir()
	qrels, runs, qp, rps := multiRuns(t, dir, rand.New(rand.NewPCG(9, 1)), 4, false)
	lines := strings.SplitAfter(runs[2], "\n")
	lines = lines[:len(lines)-1]
	// Run 2: its last line first (a late qid out of order); run 3: a
	// score that is not a number, near its end.
	unsorted := lines[len(lines)-1] + strings.Join(lines[:len(lines)-1], "")
	if err := os.WriteFile(rps[2], []byte(unsorted), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := strings.SplitAfter(runs[3], "\n")
	broken[len(broken)-3] = strings.Replace(broken[len(broken)-3], " r3", "x r3", 1)
	if err := os.WriteFile(rps[3], []byte(strings.Join(broken, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Unsorted: UnsortedAuto, Restartable: true, KeepDocs: true}
	rs, err := OpenRuns(bg, qp, rps, o)
	if err != nil {
		t.Fatal(err)
	}
	got, errs := readConcurrently(t, rs, func(_ int, r Reader) ([]Query, error) { return readAll(r) })
	for k := range rps {
		if restart := k >= 2; errors.Is(errs[k], ErrRestart) != restart {
			t.Fatalf("run %d: error %v; want ErrRestart: %v", k, errs[k], restart)
		}
		if k < 2 {
			checkAuto(t, fmt.Sprint("run ", k), got[k], naiveTREC(t, qrels, runs[k]))
			continue
		}
		var again []Query
		err := ReadAgain(bg, []string{qp, rps[k]}, o, func(r Reader) error {
			var err error
			again, err = readAll(r)
			return err
		})
		var want []Query
		wantErr := Restarting(bg, []string{qp, rps[k]}, o, func(r Reader) error {
			var err error
			want, err = readAll(r)
			return err
		})
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("run %d: ReadAgain's error %v, Restarting's %v", k, err, wantErr)
		}
		if err == nil {
			checkAuto(t, fmt.Sprintf("run %d read again", k), again, want)
		}
		if k == 2 {
			if err != nil {
				t.Fatalf("run 2: %v", err)
			}
			checkAuto(t, "run 2 read again", again, naiveTREC(t, qrels, unsorted))
		}
		if k == 3 && (err == nil || !strings.Contains(err.Error(), "field score")) {
			t.Errorf("run 3: error %v, want the score's", err)
		}
	}

	// Qrels out of order: every reader restarts.
	ql := strings.SplitAfter(qrels, "\n")
	ql = ql[:len(ql)-1]
	if err := os.WriteFile(qp, []byte(ql[len(ql)-1]+strings.Join(ql[:len(ql)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err = OpenRuns(bg, qp, rps[:2], o)
	if err != nil {
		t.Fatal(err)
	}
	_, errs = readConcurrently(t, rs, func(_ int, r Reader) ([]Query, error) { return readAll(r) })
	// Run 0 ranks nothing: its reader reads the whole qrels too.
	for k, err := range errs {
		if !errors.Is(err, ErrRestart) {
			t.Errorf("unsorted qrels, run %d: error %v, want ErrRestart", k, err)
		}
	}
}

// TestOpenRunsClose: a reader closed early, or read slowly, does not stop
// the others; a reader neither read nor closed stops them until ctx is
// done, and their error is then ctx's.
func TestOpenRunsClose(t *testing.T) {
	dir := t.TempDir()
	qrels, runs, qp, rps := multiRuns(t, dir, rand.New(rand.NewPCG(3, 3)), 4, false)
	o := Options{Unsorted: UnsortedAuto, Restartable: true, KeepDocs: true}
	rs, err := OpenRuns(bg, qp, rps, o)
	if err != nil {
		t.Fatal(err)
	}
	got, errs := readConcurrently(t, rs, func(k int, r Reader) ([]Query, error) {
		switch k {
		case 2:
			var q Query
			err := r.Next(&q)
			r.Close()
			return nil, err
		case 3:
			time.Sleep(50 * time.Millisecond)
		}
		return readAll(r)
	})
	for k := range rs {
		if errs[k] != nil {
			t.Fatalf("run %d: %v", k, errs[k])
		}
		if k != 2 {
			checkAuto(t, fmt.Sprint("run ", k), got[k], naiveTREC(t, qrels, runs[k]))
		}
	}

	ctx, cancel := context.WithCancel(bg)
	rs, err = OpenRuns(ctx, qp, rps, o)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, cancel)
	_, errs = readConcurrently(t, rs[1:], func(_ int, r Reader) ([]Query, error) { return readAll(r) })
	for k, err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("run %d: error %v, want context.Canceled", k+1, err)
		}
	}
	rs[0].Close()
}

// TestOpenRunsNotShared: OpenRuns opens nothing for an input it does not
// read (standard input, a policy other than UnsortedAuto with
// Restartable, a file that is not a regular file or does not open).
func TestOpenRunsNotShared(t *testing.T) {
	dir := t.TempDir()
	_, _, qp, rps := multiRuns(t, dir, rand.New(rand.NewPCG(1, 1)), 2, false)
	auto := Options{Unsorted: UnsortedAuto, Restartable: true}
	for _, c := range []struct {
		name  string
		qrels string
		runs  []string
		o     Options
	}{
		{"standard input", qp, []string{rps[0], "-"}, auto},
		{"a directory", qp, []string{dir}, auto},
		{"UnsortedError", qp, rps, Options{Unsorted: UnsortedError, Restartable: true}},
		{"not Restartable", qp, rps, Options{Unsorted: UnsortedAuto}},
		{"no run", qp, nil, auto},
		{"missing file", qp, []string{rps[0], filepath.Join(dir, "absent")}, auto},
	} {
		rs, err := OpenRuns(bg, c.qrels, c.runs, c.o)
		if err == nil || rs != nil {
			t.Errorf("%s: readers %v, error %v", c.name, rs, err)
		}
	}
}
