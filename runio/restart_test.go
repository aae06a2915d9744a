package runio

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readRestarting reads every query of the pair through Restarting with
// Restartable on, and counts the readers run was given.
func readRestarting(t *testing.T, paths []string, o Options) (qs []Query, calls int, err error) {
	t.Helper()
	o.Restartable = true
	err = Restarting(bg, paths, o, func(r Reader) error {
		calls++
		var err error
		qs, err = readAll(r)
		return err
	})
	return qs, calls, err
}

// TestRestartable: with Restartable, whatever the layout, the queries and
// the errors (file, line, text) are those of UnsortedAuto without it; a
// sorted, well-formed pair is read once, anything else twice.
func TestRestartable(t *testing.T) {
	dir := t.TempDir()
	const qrels = "1 0 a 1\n1 0 b 0\n2 0 c 1\n3 0 d 2\n3 0 e 1\n"
	sorted := "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n2 Q0 c 1 1 r\n2 Q0 x 2 0 r\n3 Q0 d 1 5 r\n3 Q0 e 2 4 r\n"
	for _, c := range []struct {
		name, qrels, run string
		calls            int
	}{
		{"sorted", qrels, sorted, 1},
		{"blocks in qid order (q10 before q9)", "q10 0 b 1\nq9 0 a 1\n", "q10 Q0 b 1 1 r\nq10 Q0 a 2 0 r\nq9 Q0 a 1 1 r\n", 1},
		{"natural (q9 before q10)", "q9 0 a 1\nq10 0 b 1\n", "q9 Q0 a 1 1 r\nq10 Q0 b 1 1 r\n", 2},
		{"bytewise (19 before 2)", "19 0 a 1\n2 0 b 1\n", "19 Q0 a 1 1 r\n2 Q0 b 1 1 r\n", 2},
		{"blocks out of order", qrels, "3 Q0 d 1 5 r\n3 Q0 e 2 4 r\n1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n2 Q0 c 1 1 r\n", 2},
		{"shuffled", qrels, "2 Q0 c 1 1 r\n3 Q0 e 2 4 r\n1 Q0 b 2 2 r\n3 Q0 d 1 5 r\n1 Q0 a 1 3 r\n2 Q0 x 2 0 r\n", 2},
		{"late line of the first query", qrels, sorted + "1 Q0 z 3 0 r\n", 2},
		{"late qrels line", qrels + "1 0 z 1\n", sorted, 2},
		{"two sorted halves", qrels, "1 Q0 a 1 3 r\n2 Q0 c 1 1 r\n3 Q0 d 1 5 r\n1 Q0 b 2 2 r\n2 Q0 x 2 0 r\n3 Q0 e 2 4 r\n", 2},
		{"broken line early", qrels, "1 Q0 a 1 x r\n" + sorted[13:], 2},
		{"broken line late", qrels, sorted + "3 Q0 f 3\n", 2},
		{"broken line, unsorted", qrels, "3 Q0 d 1 5 r\n1 Q0 a 1 x r\n1 Q0 b 2 2 r\n", 2},
		{"broken qrels line", "1 0 a 1\n2 0 c\n", sorted, 2},
		{"duplicate doc, sorted", qrels, "1 Q0 a 1 3 r\n1 Q0 a 2 2 r\n2 Q0 c 1 1 r\n", 2},
		{"duplicate docs, blocks out of order", qrels, "2 Q0 c 1 1 r\n2 Q0 c 2 1 r\n1 Q0 a 1 3 r\n1 Q0 a 2 2 r\n", 2},
		{"empty run", qrels, "", 1},
	} {
		qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
		if os.WriteFile(qp, []byte(c.qrels), 0o644) != nil || os.WriteFile(rp, []byte(c.run), 0o644) != nil {
			t.Fatal("cannot write the pair")
		}
		for _, dedupe := range []DedupePolicy{DedupeError, DedupeFirst} {
			o := Options{Unsorted: UnsortedAuto, KeepDocs: true, Dedupe: dedupe}
			want, wantErr := readAll(openAuto(t, []string{qp, rp}, o))
			got, calls, err := readRestarting(t, []string{qp, rp}, o)
			name := fmt.Sprintf("%s (dedupe %v)", c.name, dedupe)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%s: error\n%v\nwant\n%v", name, err, wantErr)
			}
			if errors.Is(err, ErrRestart) {
				t.Errorf("%s: ErrRestart escaped Restarting: %v", name, err)
			}
			if err == nil {
				checkAuto(t, name, got, want)
			}
			wantCalls := c.calls
			if dedupe == DedupeFirst && strings.HasPrefix(c.name, "duplicate doc, sorted") {
				wantCalls = 1
			}
			if calls != wantCalls {
				t.Errorf("%s: read %d times, want %d", name, calls, wantCalls)
			}
		}
	}
}

// TestRestartableRandom: the layouts of TestUnsortedAuto read with
// Restartable give the naive join, as without it.
func TestRestartableRandom(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(19, 2))
	for _, layout := range []string{"sorted", "bytewise", "natural", "blocks", "shuffled"} {
		for i := range 40 {
			qrels, run := autoPair(rng, layout)
			qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r")
			if os.WriteFile(qp, []byte(qrels), 0o644) != nil || os.WriteFile(rp, []byte(run), 0o644) != nil {
				t.Fatal("cannot write the pair")
			}
			want := naiveTREC(t, qrels, run)
			for _, small := range []int{0, 64} {
				got, calls, err := readRestarting(t, []string{qp, rp}, Options{Unsorted: UnsortedAuto, KeepDocs: true, BufferSize: small})
				name := fmt.Sprintf("%s/%d/%d", layout, i, small)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if layout == "sorted" && calls != 1 {
					t.Errorf("%s: sorted pair read %d times", name, calls)
				}
				checkAuto(t, name, got, want)
			}
		}
	}
}

// TestRestartableIgnored: input read once (gzip, a pipe) is read as
// without Restartable, never streamed optimistically.
func TestRestartableIgnored(t *testing.T) {
	o := Options{Unsorted: UnsortedAuto, Restartable: true}
	r, _ := NewTRECReader(bg, oneReader{strings.NewReader("1 0 a 1\n")}, strings.NewReader("2 Q0 a 1 1 r\n1 Q0 a 1 1 r\n"), "q", "r", o)
	if _, err := readAll(r); err != nil {
		t.Fatalf("pipe and file: %v", err)
	}
	if r.(*trecReader).optimistic {
		t.Errorf("a pipe read optimistically")
	}
}

// TestRestartableGzip: a gzipped pair streams as sorted once when it is,
// and otherwise is read again and gathered, so that any line order gives
// the queries UnsortedGroup gives, a qid out of order after the lag of a
// gzipped file included (which UnsortedAuto alone refuses), and a broken
// line the error UnsortedGroup gives.
func TestRestartableGzip(t *testing.T) {
	dir := t.TempDir()
	var sorted, qrels strings.Builder
	for q := 1; q <= 300; q++ {
		for d := range 100 {
			fmt.Fprintf(&sorted, "%d Q0 d%d %d %d r\n", q, d, d+1, 100-d)
		}
		fmt.Fprintf(&qrels, "%d 0 d%d 1\n%d 0 d%d 0\n", q, q%100, q, (q+7)%100)
	}
	late := sorted.String() + "1 Q0 late 101 -1 r\n" // after 30,000 lines: past the lag
	for _, c := range []struct {
		name, run string
		calls     int
	}{
		{"sorted", sorted.String(), 1},
		{"late line of the first query", late, 2},
		{"broken line late", sorted.String() + "5 Q0 x 1\n", 2},
	} {
		qp, rp := filepath.Join(dir, "qrels.gz"), filepath.Join(dir, "run.gz")
		writeGzip(t, qp, qrels.String())
		writeGzip(t, rp, c.run)
		o := Options{Unsorted: UnsortedAuto, KeepDocs: true}
		g := o
		g.Unsorted = UnsortedGroup
		want, wantErr := readAll(openAuto(t, []string{qp, rp}, g))
		got, calls, err := readRestarting(t, []string{qp, rp}, o)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: error\n%v\nwant (--unsorted group)\n%v", c.name, err, wantErr)
		}
		if err == nil {
			checkAuto(t, c.name, got, want)
		}
		if calls != c.calls {
			t.Errorf("%s: read %d times, want %d", c.name, calls, c.calls)
		}
	}
}

// writeGzip writes text gzipped to path.
func writeGzip(t *testing.T, path, text string) {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(text))
	w.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMayRestart: only a TREC pair read optimistically (Restartable,
// UnsortedAuto, two files on disk) may fail with ErrRestart.
func TestMayRestart(t *testing.T) {
	dir := t.TempDir()
	qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r")
	os.WriteFile(qp, []byte("1 0 a 1\n"), 0o644)
	os.WriteFile(rp, []byte("1 Q0 a 1 1 r\n"), 0o644)
	for _, c := range []struct {
		opts Options
		want bool
	}{
		{Options{Unsorted: UnsortedAuto, Restartable: true}, true},
		{Options{Unsorted: UnsortedAuto}, false},
		{Options{Unsorted: UnsortedError, Restartable: true}, false},
		{Options{Unsorted: UnsortedGroup, Restartable: true}, false},
	} {
		r, err := Open(bg, []string{qp, rp}, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if got := MayRestart(r); got != c.want {
			t.Errorf("%+v: MayRestart %v, want %v", c.opts, got, c.want)
		}
		r.Close()
	}
}
