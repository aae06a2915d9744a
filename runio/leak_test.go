package runio

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// TestNoGoroutineLeft opens TREC pairs (plain and gzipped, sound and
// broken) with 1 to 6 workers, reads all of them, a few queries or none,
// closes them, and checks that every goroutine the reader started (the
// block streams, the gzip read-ahead, the chunk readers and parsers) has
// ended.
func TestNoGoroutineLeft(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(41, 5))
	before := runtime.NumGoroutine()
	n := 0
	for i := range 12 {
		qrels, run := autoPair(rng, "sorted")
		if i%4 == 0 {
			// Larger than what the gzip read-ahead holds in its
			// pieces, so that its goroutine waits to hand one over.
			r, q := benchTREC(100)
			qrels, run = string(q), string(r)
		}
		if i%3 == 1 {
			run = breakTREC(rng, run, false, 1+rng.IntN(5))
		}
		for _, gz := range []bool{false, true} {
			qp := writeFile(t, dir, fmt.Sprintf("q%d", n), []byte(qrels), gz)
			rp := writeFile(t, dir, fmt.Sprintf("r%d", n), []byte(run), gz)
			n++
			for _, workers := range []int{1, 2, 3, 6} {
				for _, reads := range []int{0, 2, -1} {
					r, err := Open(bg, []string{qp, rp}, Options{Workers: workers, Unsorted: UnsortedError, parChunk: 64})
					if err != nil {
						t.Fatal(err)
					}
					var q Query
					for k := 0; reads < 0 || k < reads; k++ {
						if err := r.Next(&q); err != nil {
							if err != io.EOF && i%3 != 1 {
								t.Fatalf("pair %d: %v", i, err)
							}
							break
						}
					}
					r.Close()
				}
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := runtime.NumGoroutine(); got > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after closing every reader, %d before:\n%s", got, before, buf[:runtime.Stack(buf, true)])
	}
}
