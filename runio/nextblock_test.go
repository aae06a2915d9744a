package runio

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// blocksBoth reads data block by block with nextBlockScan and with
// nextBlockLines (the loop through line, value and lineNo that
// nextBlockScan unrolls) and fails unless both give the same blocks, the
// same error text, disorder and blank lines.
func blocksBoth(t *testing.T, data string, isRun, lag bool) {
	t.Helper()
	type result struct {
		blocks   []string
		err      string
		disorder bool
		blank    int64
	}
	read := func(scan bool) result {
		p := newTRECParser(strings.NewReader(data), "f", isRun, &Options{})
		p.lag = lag
		var r result
		var b trecBlock
		for range 1000 {
			var err error
			if scan {
				err = p.nextBlockScan(&b)
			} else {
				err = p.nextBlockLines(&b)
			}
			if err != nil {
				r.err = err.Error()
				break
			}
			var s strings.Builder
			fmt.Fprintf(&s, "%q:", b.qid)
			for i := range b.vals {
				fmt.Fprintf(&s, " %q=%x@%d", b.doc(i), math.Float64bits(b.vals[i]), b.lines[i])
			}
			r.blocks = append(r.blocks, s.String())
			if p.disorder {
				// A lag stream reads the held line again as a new block.
				r.disorder = true
				p.disorder = false
			}
		}
		r.blank = p.blankLines()
		return r
	}
	got, want := read(true), read(false)
	if got.err != want.err || got.disorder != want.disorder || got.blank != want.blank || !slices.Equal(got.blocks, want.blocks) {
		t.Fatalf("%q (run %v, lag %v):\nscan  %+v\nlines %+v", data, isRun, lag, got, want)
	}
}

// TestNextBlockScan: nextBlockScan against nextBlockLines on hand-made
// files (values parseShort takes and does not, bad values, qids out of
// order, blank and comment lines, wrong field counts) and random ones.
func TestNextBlockScan(t *testing.T) {
	runs := []string{
		"1 Q0 a 1 2.328 t\n1 Q0 b 2 -0.123456 t\n2 Q0 a 1 1e3 t\n",
		"1 Q0 a 1 inf t\n\n1 Q0 b 2 0.12345678901234567 t\n# c\n3 Q0 c 1 -Inf t\n",
		"1 Q0 a 1 nan t\n",
		"1 Q0 a 1 x t\n",
		"2 Q0 a 1 1 t\n1 Q0 b 1 1 t\n3 Q0 c 1 1 t\n",
		"1 Q0 a 1 1 t\n1 Q0 a 1\n",
		"10 Q0 a 1 1 t\n9 Q0 a 1 1 t\n",
		"",
	}
	qrels := []string{
		"1 0 a 1\n1 0 b 0\n2 0 a 2\n",
		"1 0 a 1e400\n",
		"1 0 a nan\n",
		"1 0 a -1\n\n\n2 0 b 0.5\n1 0 c 1\n",
		"1 0 a\n",
	}
	for _, lag := range []bool{false, true} {
		for _, r := range runs {
			blocksBoth(t, r, true, lag)
		}
		for _, q := range qrels {
			blocksBoth(t, q, false, lag)
		}
	}
	rng := rand.New(rand.NewPCG(2, 3))
	vals := []string{"0", "1", "2.5", "-0", "1e2", "x", "NaN", "inf", "1e400", "0.1234567890123456"}
	for range 400 {
		var run, qrel strings.Builder
		for range rng.IntN(20) {
			qid, doc, v := rng.IntN(4), rng.IntN(5), vals[rng.IntN(len(vals))]
			switch rng.IntN(20) {
			case 0:
				run.WriteString("\n")
				qrel.WriteString("\n")
			case 1:
				run.WriteString("# note\n")
			}
			fmt.Fprintf(&run, "%d Q0 d%d 1 %s t\n", qid, doc, v)
			fmt.Fprintf(&qrel, "%d 0 d%d %s\n", qid, doc, v)
		}
		for _, lag := range []bool{false, true} {
			blocksBoth(t, run.String(), true, lag)
			blocksBoth(t, qrel.String(), false, lag)
		}
	}
}

func FuzzNextBlockScan(f *testing.F) {
	f.Add("1 Q0 a 1 2.328 t\n1 Q0 b 2 -0.5 t\n2 Q0 a 1 1e3 t\n", true, false)
	f.Add("2 0 a 1\n1 0 b 0\n", false, true)
	f.Add("1 0 a nan\n", false, false)
	f.Fuzz(func(t *testing.T, data string, isRun, lag bool) {
		blocksBoth(t, data, isRun, lag)
	})
}

// TestDuplicateAfterGap: a duplicate after a blank and a comment line
// names the lines counted by hand.
func TestDuplicateAfterGap(t *testing.T) {
	run := "1 Q0 a 1 1 t\n\n# c\n1 Q0 b 2 1 t\n1 Q0 c 3 1 t\n1 Q0 a 4 1 t\n"
	r, err := NewTRECReader(bg, strings.NewReader("1 0 a 1\n"), strings.NewReader(run), "q", "r", Options{Unsorted: UnsortedError})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var q Query
	want := `r:6: field docno: value "a": duplicate document for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`
	if err := r.Next(&q); err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
