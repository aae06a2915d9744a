package runio

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// breakTREC returns text with one line changed as kind says, or text.
func breakTREC(rng *rand.Rand, text string, qrels bool, kind int) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) < 2 {
		return text
	}
	i := rng.IntN(len(lines) - 1)
	switch kind {
	case 1: // not a number
		f := strings.Fields(lines[i])
		if len(f) >= 4 {
			if qrels {
				f[3] = "x1"
			} else if len(f) >= 6 {
				f[4] = "1e"
			}
			lines[i] = strings.Join(f, " ") + "\n"
		}
	case 2: // a field missing
		lines[i] = "7 Q0 d\n"
	case 3: // longer than the limit
		lines[i] = strings.Repeat("z", 70) + " 0 d 1\n"
	case 4: // a line repeated (a duplicate document)
		lines = append(lines[:i+1], lines[i:]...)
	case 5: // separators only
		lines[i] = "\v\x01\n"
	}
	return strings.Join(lines, "")
}

// runQueries reads a pair with opts and returns what it gave: the queries,
// and the error or the counts, as text.
func runQueries(t *testing.T, paths []string, opts Options) string {
	t.Helper()
	r, err := Open(bg, paths, opts)
	if err != nil {
		return "open: " + err.Error()
	}
	defer r.Close()
	var b strings.Builder
	var q Query
	for {
		err := r.Next(&q)
		if err == io.EOF {
			break
		}
		if err != nil {
			// The counts after an error depend on how far the other
			// file's goroutine had read: not compared.
			fmt.Fprintf(&b, "error: %v\n", err)
			return b.String()
		}
		fmt.Fprintf(&b, "%q %d %d %v %v %v %v %v\n", q.QID, q.Line, q.Match, q.Docs, q.Labels, q.Scores, q.UnrankedDocs, q.UnrankedLabels)
	}
	fmt.Fprintf(&b, "%+v\n", r.Stats())
	return b.String()
}

// TestWorkersIdentical: a TREC pair parsed by 2 to 6 workers (1 to 3 per
// file: with 1, a gzipped file is decompressed on a goroutine of its own,
// an aheadReader, and parsed as a plain file), cut into chunks as small as
// one line, gives what one worker gives, byte for byte: the
// queries and their order, the counts, and the first error in file order
// with its file, line and message (bad numbers, missing fields, lines over
// the limit, separator-only lines, duplicates, qids out of order), under
// every unsorted policy, from plain files, gzip and pipes.
func TestWorkersIdentical(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(23, 3))
	n := 0
	for _, layout := range []string{"sorted", "bytewise", "blocks", "shuffled"} {
		for i := range 30 {
			qrels, run := autoPair(rng, layout)
			if i%3 != 0 {
				kind := 1 + rng.IntN(5)
				if rng.IntN(2) == 0 {
					qrels = breakTREC(rng, qrels, true, kind)
				} else {
					run = breakTREC(rng, run, false, kind)
				}
			}
			for _, gz := range []bool{false, true} {
				qp := writeFile(t, dir, fmt.Sprintf("q%d", n), []byte(qrels), gz)
				rp := writeFile(t, dir, fmt.Sprintf("r%d", n), []byte(run), gz && i%2 == 0)
				n++
				for _, pol := range []UnsortedPolicy{UnsortedError, UnsortedGroup, UnsortedAuto} {
					opts := Options{Unsorted: pol, KeepDocs: true, MaxLineBytes: 60}
					want := runQueries(t, []string{qp, rp}, opts)
					for k, chunk := range []int{1, 7, 64, 0, 1, 7, 64, 0} {
						o := opts
						o.Workers, o.parChunk = []int{2, 4, 3, 6}[k%4], chunk
						if got := runQueries(t, []string{qp, rp}, o); got != want {
							t.Fatalf("%s %d %v gz %v chunk %d:\n got %s\nwant %s", layout, i, pol, gz, chunk, got, want)
						}
					}
				}
			}
		}
	}
	// Standard input (a pipe): read once by the lag stream.
	qrels, run := autoPair(rng, "sorted")
	run = breakTREC(rng, run, false, 1)
	qp := filepath.Join(dir, "stdin-q")
	os.WriteFile(qp, []byte(qrels), 0o644)
	read := func(workers int) string {
		o := Options{Unsorted: UnsortedAuto, KeepDocs: true, Workers: workers, parChunk: 5, Stdin: oneReader{strings.NewReader(run)}}
		return runQueries(t, []string{qp, "-"}, o)
	}
	if got, want := read(4), read(1); got != want {
		t.Fatalf("stdin:\n got %s\nwant %s", got, want)
	}
}
