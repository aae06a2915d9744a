package runio

// The single-core cost of reading TREC lines, on lines like bench/gen's
// (100 documents per qid): the scanner alone (line ends and fields), over
// windows of 1 MiB as the buffered reader hands them over, and the whole
// reader of a pair (fields, numbers, blocks, the join), on one goroutine
// (Workers 1) or two.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchTREC returns a run and a qrels file of queries qids of 100
// documents each, in bench/gen's layout.
func benchTREC(queries int) (run, qrels []byte) {
	rng := rand.New(rand.NewPCG(1, 2))
	var r, q bytes.Buffer
	for qid := 1; qid <= queries; qid++ {
		for k := range 100 {
			doc := rng.IntN(1000)
			fmt.Fprintf(&r, "%d Q0 D%d-%d %d %.3f gen\n", qid, doc, k, k+1, 3-float64(k)*0.02+rng.Float64()*0.01)
			fmt.Fprintf(&q, "%d 0 D%d-%d %d\n", qid, doc, 99-k, rng.IntN(5)/3)
		}
	}
	return r.Bytes(), q.Bytes()
}

// windows cuts data at line ends into pieces of at most size bytes.
func windows(data []byte, size int) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := min(len(data), size)
		if n < len(data) {
			n = bytes.LastIndexByte(data[:n], '\n') + 1
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// BenchmarkTRECScanner: the scanner alone, in ns per line, with the lines
// from lineidx's records where the CPU has its kernel (vector) and with
// the byte loops alone (scalar, the scanner's reference and fallback). The
// lines of "indented" (a leading blank) and "long" (a 70-byte docno) are
// read by the byte loops in both: vector shows what the records cost them.
// Measured on 2 cores (-count 6, min/median ns/line): run 16.5/16.6 vector
// against 32.7/34.0 scalar, qrels 14.0/14.7 against 26.6/27.1; end to end,
// eval --workers 1 -m map on bench/gen's 5M+5M-line pair took 0.54/0.57 s
// of CPU against 0.69/0.72 s with the byte loops alone (7 alternated runs).
func BenchmarkTRECScanner(b *testing.B) {
	run, qrels := benchTREC(2000)
	part := run[:bytes.LastIndexByte(run[:len(run)/4], '\n')+1]
	indented := bytes.ReplaceAll(part, []byte("\n"), []byte("\n "))
	long := bytes.ReplaceAll(part, []byte(" Q0 D"), []byte(" Q0 "+strings.Repeat("D", 70)))
	for _, c := range []struct {
		name  string
		data  []byte
		qrels bool
	}{{"run", run, false}, {"qrels", qrels, true}, {"indented", indented, false}, {"long", long, false}} {
		for _, vec := range []bool{true, false} {
			name := c.name + "/vector"
			if !vec {
				name = c.name + "/scalar"
			}
			b.Run(name, func(b *testing.B) {
				pieces := windows(c.data, 1<<20)
				buf := make([]byte, 1<<20)
				sc := NewTRECBytesScanner(nil, "bench", c.qrels, TRECStrict, &Options{})
				if vec && !sc.vec {
					b.Skip("no vector kernel in this build or on this CPU")
				}
				sc.vec = vec
				lines := bytes.Count(c.data, []byte{'\n'})
				b.SetBytes(int64(len(c.data)))
				for b.Loop() {
					n := 0
					for _, p := range pieces {
						sc.ResetBytes(buf[:copy(buf, p)], 1)
						for {
							_, err := sc.Next()
							if err == io.EOF {
								break
							}
							if err != nil {
								b.Fatal(err)
							}
							n++
						}
					}
					if n != lines {
						b.Fatalf("%d lines, want %d", n, lines)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
			})
		}
	}
}

func BenchmarkTRECPair(b *testing.B) {
	run, qrels := benchTREC(2000)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			b.SetBytes(int64(len(run) + len(qrels)))
			for b.Loop() {
				r, err := NewTRECReader(context.Background(), bytes.NewReader(qrels), bytes.NewReader(run), "q", "r", Options{Unsorted: UnsortedError, Workers: w})
				if n := drain(b, mustOpen(r, err)); n != 200000 {
					b.Fatalf("%d items, want 200000", n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/400000, "ns/line")
		})
	}
}

// BenchmarkByteLoops: what one pass over the run lines costs, per byte,
// as a scalar loop that only counts the bytes above ' ' (the test the
// field splitter makes on every byte) against bytes.Count of '\n'
// (vector instructions), on 1 MiB in cache: the scanner above runs near
// the scalar loop's speed, the I/O floor near bytes.Count's.
func BenchmarkByteLoops(b *testing.B) {
	run, _ := benchTREC(200)
	data := run[:1<<20]
	var n int
	b.Run("scalar", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, c := range data {
				if c > ' ' {
					n++
				}
			}
		}
	})
	b.Run("bytes.Count", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			n += bytes.Count(data, []byte{'\n'})
		}
	})
	_ = n
}
