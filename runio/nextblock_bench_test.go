package runio

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkNextBlock: the blocks of bench/gen-like files of 100 lines per
// qid, read by nextBlockScan (one loop, the lines of the scanner's records
// through scanRecs), by nextBlockNext (that loop through Next alone, as
// nextBlockScan read before scanRecs) and by nextBlockLines (through line,
// value and lineNo, as nextBlock read every file before). Measured on 2
// cores (-count 6, min/median ns/line): run 23.0/23.6 scan against
// 31.2/31.7 next and 34.9/35.7 lines, qrels 17.1/17.2 against 22.7/23.2
// and 26.9/27.7.
func BenchmarkNextBlock(b *testing.B) {
	run, qrels := benchGenPair(2000)
	for _, f := range []struct {
		name  string
		data  []byte
		isRun bool
	}{{"run", run, true}, {"qrels", qrels, false}} {
		lines := bytes.Count(f.data, []byte{'\n'})
		for _, way := range []string{"lines", "next", "scan"} {
			name := f.name + "/" + way
			b.Run(name, func(b *testing.B) {
				var blk trecBlock
				for b.Loop() {
					p := newTRECParser(bytes.NewReader(f.data), "bench", f.isRun, &Options{})
					n := 0
					for {
						var err error
						switch way {
						case "scan":
							err = p.nextBlockScan(&blk)
						case "next":
							err = nextBlockNext(p, &blk)
						default:
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

// nextBlockNext is nextBlockScan reading every line through Next (its
// loop before scanRecs), for the benchmark.
func nextBlockNext(p *trecParser, b *trecBlock) error {
	b.reset()
	sc := p.sc
	vf := 3 // the field of the value
	if p.isRun {
		vf = 4
	}
	for {
		f, err := sc.Next()
		if err != nil {
			if err == io.EOF && len(b.vals) > 0 {
				return nil
			}
			return err
		}
		v, ok := parseShort(f[vf])
		if !ok {
			if v, err = p.value(f); err != nil {
				return err
			}
		}
		qid := f[0]
		switch {
		case len(b.vals) == 0:
			b.qid = append(b.qid, qid...)
		case !bytes.Equal(qid, b.qid):
			if compareQID(b.qid, qid) > 0 {
				if p.lag {
					p.disorder = true
					sc.Unread()
					return nil
				}
				return p.errorAt("qid", qid, unsortedMsg(b.qid))
			}
			sc.Unread()
			return nil
		}
		b.add(f[2], v, sc.Line())
	}
}
