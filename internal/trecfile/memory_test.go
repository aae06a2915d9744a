package trecfile

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/racebuild"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// allocated returns the bytes f allocates, counted by the runtime.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// runText returns a run of topics topics of perTopic documents each, its
// lines shuffled when shuffle is set. Docnos are 10 bytes.
func runText(topics, perTopic int, shuffle bool) []byte {
	lines := make([]string, 0, topics*perTopic)
	for t := range topics {
		for d := range perTopic {
			lines = append(lines, fmt.Sprintf("%d Q0 doc%07d %d %d.5 run\n", t+1, t*perTopic+d, d+1, d%97))
		}
	}
	if shuffle {
		r := rand.New(rand.NewPCG(1, 2))
		r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l)
	}
	return b.Bytes()
}

// Reading a run takes memory per topic or per document, not per line of
// bookkeeping: Scan of a shuffled run (a block per line) keeps nothing
// per block once it knows the run is scattered, and one topic of n
// documents is read into n documents of 24 bytes and their docnos, which
// grow as a slice does (up to about 4 times while growing), with nothing
// per document besides.
func TestRunReadingMemory(t *testing.T) {
	if racebuild.Enabled {
		t.Skip("the race detector allocates for its own bookkeeping: the bytes allocated are not the reader's")
	}
	const lines = 200_000
	for _, tc := range []struct {
		name    string
		run     []byte
		read    func(r io.Reader) error
		perLine uint64 // the most bytes allocated per run line, besides 2 MiB of buffers
	}{
		// 1000 topics in 200,000 one-line blocks: a few bytes per line
		// for the set of 1000 qids and the scanner's buffers.
		{"Scan shuffled", runText(1000, lines/1000, true), func(r io.Reader) error {
			s, err := scanFile(context.Background(), NewScanner(r, "run", false, treceval.V10), false)
			if err == nil && (s.layout != runio.TopicsScattered || s.lines != lines) {
				err = fmt.Errorf("layout %v after %d lines, want TopicsScattered after %d", s.layout, s.lines, lines)
			}
			return err
		}, 2},
		// One topic: 24 bytes of treceval.Doc and 10 of docno per line,
		// the Docs slice doubling to its size (up to 4 times 24 bytes
		// allocated on the way).
		{"one topic", runText(1, lines, false), func(r io.Reader) error {
			qid, docs, err := NewRunScanner(r, "run", treceval.V10).Next(context.Background())
			if err == nil && (qid != "1" || len(docs) != lines || docs[lines-1].Docno != fmt.Sprintf("doc%07d", lines-1)) {
				err = fmt.Errorf("qid %q, %d documents", qid, len(docs))
			}
			return err
		}, 4*24 + 10 + 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := allocated(func() {
				err = tc.read(bytes.NewReader(tc.run))
			})
			if err != nil && err != io.EOF {
				t.Fatal(err)
			}
			if per := float64(alloc) / lines; alloc > tc.perLine*lines+2<<20 {
				t.Errorf("allocated %d bytes for %d lines, %.1f per line; want at most %d and 2 MiB", alloc, lines, per, tc.perLine)
			}
		})
	}
}
