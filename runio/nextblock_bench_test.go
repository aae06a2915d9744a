package runio

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkNextBlock: the blocks of bench/gen-like files of 100 lines per
// qid, read by nextBlockScan (one loop) and by nextBlockLines (through
// line, value and lineNo, as nextBlock read every file before).
func BenchmarkNextBlock(b *testing.B) {
	run, qrels := benchGenPair(2000)
	for _, f := range []struct {
		name  string
		data  []byte
		isRun bool
	}{{"run", run, true}, {"qrels", qrels, false}} {
		lines := bytes.Count(f.data, []byte{'\n'})
		for _, scan := range []bool{false, true} {
			name := f.name + "/lines"
			if scan {
				name = f.name + "/scan"
			}
			b.Run(name, func(b *testing.B) {
				var blk trecBlock
				for b.Loop() {
					p := newTRECParser(bytes.NewReader(f.data), "bench", f.isRun, &Options{})
					n := 0
					for {
						var err error
						if scan {
							err = p.nextBlockScan(&blk)
						} else {
							err = p.nextBlockLines(&blk)
						}
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						n += len(blk.vals)
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
