package runio

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// blocksBoth reads data block by block with nextBlockScan and with
// nextBlockLines (the loop through line, value and lineNo that
// nextBlockScan unrolls) on the scanner's byte loops alone (no records,
// so no scanRecs), and fails unless both give the same blocks, the same
// error text, disorder and blank lines.
func blocksBoth(t *testing.T, data string, isRun, lag bool) {
	t.Helper()
	blocksBothOpts(t, data, isRun, lag, Options{}, 0)
}

// blocksBothOpts is blocksBoth with the buffer size and line limit of
// opts, the file handed over at most chunk bytes per Read (0: all).
func blocksBothOpts(t *testing.T, data string, isRun, lag bool, opts Options, chunk int) {
	t.Helper()
	type result struct {
		blocks   []string
		err      string
		disorder bool
		blank    int64
	}
	read := func(scan bool) result {
		var r io.Reader = strings.NewReader(data)
		if chunk > 0 {
			r = &chunkReader{r, chunk}
		}
		p := newTRECParser(r, "f", isRun, &opts)
		p.lag = lag
		if !scan {
			p.sc.vec = false
		}
		var res result
		var b trecBlock
		for range 1000 {
			var err error
			if scan {
				err = p.nextBlockScan(&b)
			} else {
				err = p.nextBlockLines(&b)
			}
			if err != nil {
				res.err = err.Error()
				break
			}
			var s strings.Builder
			fmt.Fprintf(&s, "%q:", b.qid)
			for i := range b.vals {
				fmt.Fprintf(&s, " %q=%x@%d", b.doc(i), math.Float64bits(b.vals[i]), b.lines[i])
			}
			st, en := p.sc.Span()
			fmt.Fprintf(&s, " line %d span %d-%d", p.sc.Line(), st, en)
			res.blocks = append(res.blocks, s.String())
			if p.disorder {
				// A lag stream reads the held line again as a new block.
				res.disorder = true
				p.disorder = false
			}
		}
		res.blank = p.blankLines()
		return res
	}
	got, want := read(true), read(false)
	if got.err != want.err || got.disorder != want.disorder || got.blank != want.blank || !slices.Equal(got.blocks, want.blocks) {
		t.Fatalf("%q (run %v, lag %v, %+v, chunk %d):\nscan  %+v\nlines %+v", data, isRun, lag, opts, chunk, got, want)
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

// FuzzNextBlockScan: nextBlockScan (through the records where it can)
// against nextBlockLines on the byte loops, with buffer sizes, line limits
// and read sizes from the fuzzer; the seeds include blockFile's long files,
// so that mutations keep many lines the records describe.
func FuzzNextBlockScan(f *testing.F) {
	f.Add("1 Q0 a 1 2.328 t\n1 Q0 b 2 -0.5 t\n2 Q0 a 1 1e3 t\n", true, false, uint16(0), uint16(0), uint8(0))
	f.Add("2 0 a 1\n1 0 b 0\n", false, true, uint16(0), uint16(0), uint8(0))
	f.Add("1 0 a nan\n", false, false, uint16(0), uint16(0), uint8(0))
	rng := rand.New(rand.NewPCG(9, 10))
	f.Add(blockFile(rng, 200, true), true, false, uint16(0), uint16(0), uint8(0))
	f.Add(blockFile(rng, 200, false), false, true, uint16(100), uint16(64), uint8(65))
	f.Fuzz(func(t *testing.T, data string, isRun, lag bool, buf, maxLine uint16, chunk uint8) {
		blocksBothOpts(t, data, isRun, lag, Options{BufferSize: int(buf % 400), MaxLineBytes: int(maxLine % 200)}, int(chunk))
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

// blockFile writes a run (isRun) or qrels file of about lines lines for
// the block readers: mostly data lines whose qids ascend in runs, with
// qids of 1 to 12 bytes (one word and more, some sharing prefixes), and
// now and then what the records do not take or nextBlockScan's loop over
// them stops at: values parseShort does not take, bad values, blank and
// comment lines, leading blanks, "\r\n", long docnos, wrong field counts,
// NUL and control bytes, qids out of order.
func blockFile(rng *rand.Rand, lines int, isRun bool) string {
	qids := []string{"1", "10", "2", "7", "0000012", "00000012", "12345678", "12345679", "123456780", "123456781", "q1234567", "q12345678901"}
	vals := []string{"0", "1", "2.328", "-0.123456", "3", "1e2", "x", "NaN", "inf", "1e400", "0.1234567890123456", "+5", "-.5", ".", "12345678901234"}
	var b strings.Builder
	qi := 0
	for range lines {
		if rng.IntN(8) == 0 {
			qi = rng.IntN(len(qids))
		}
		qid, v := qids[qi], vals[rng.IntN(4)]
		if rng.IntN(10) == 0 {
			v = vals[rng.IntN(len(vals))]
		}
		doc := fmt.Sprintf("D%d", rng.IntN(1000))
		end := "\n"
		switch rng.IntN(60) {
		case 0:
			b.WriteString("\n")
		case 1:
			b.WriteString("# note\n")
		case 2:
			b.WriteString(" ")
		case 3:
			end = "\r\n"
		case 4:
			doc = strings.Repeat("d", 50+rng.IntN(20))
		case 5:
			doc += "\x00x"
		case 6:
			doc += "\x01"
		case 7:
			v += " extra"
		case 8:
			b.WriteString("\t#")
		}
		if isRun {
			fmt.Fprintf(&b, "%s Q0 %s %d %s run", qid, doc, rng.IntN(100), v)
			if rng.IntN(200) == 0 {
				b.WriteString(" more")
			}
		} else {
			fmt.Fprintf(&b, "%s 0 %s %s", qid, doc, v)
		}
		b.WriteString(end)
	}
	return b.String()
}

// TestNextBlockScanRecords: nextBlockScan, whose lines come mostly from
// the records through scanRecs, against nextBlockLines on the byte loops,
// on files long enough for many calls of the kernel, with buffer sizes,
// line limits and read sizes that cut them anywhere.
func TestNextBlockScanRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	iters := 300
	if testing.Short() {
		iters = 30
	}
	for range iters {
		isRun := rng.IntN(2) == 0
		data := blockFile(rng, 1+rng.IntN(400), isRun)
		opts := Options{BufferSize: []int{16, 64, 100, 200, 0}[rng.IntN(5)],
			MaxLineBytes: []int{40, 63, 64, 65, 100, 0}[rng.IntN(6)]}
		for _, lag := range []bool{false, true} {
			blocksBothOpts(t, data, isRun, lag, opts, []int{0, 1, 7, 64, 65, 200}[rng.IntN(6)])
		}
	}
}

// TestScanRecsUsed: on bench/gen's lines, after Next read the first line
// of a qid from the records, scanRecs takes the other lines of the
// records, with their docnos, values, line numbers and spans, and stops
// at their end; it stops before a line of another qid or of another
// value.
func TestScanRecsUsed(t *testing.T) {
	run := []byte(strings.Repeat("1 Q0 D1 1 2.5 gen\n", 70) + strings.Repeat("2 Q0 D2 1 -1 gen\n", 70))
	p := newTRECParser(bytes.NewReader(nil), "f", true, &Options{})
	p.sc = NewTRECBytesScanner(run, "f", false, TRECStrict, &Options{})
	if !p.sc.vec {
		t.Skip("no vector kernel in this build or on this CPU")
	}
	f, err := p.sc.Next()
	if err != nil {
		t.Fatal(err)
	}
	var b trecBlock
	b.qid = append(b.qid, f[0]...)
	b.add(f[2], 2.5, 1)
	p.scanRecs(&b, 4, newQIDWord(b.qid))
	if p.sc.ri != p.sc.rn || p.sc.rn != recBatch {
		t.Fatalf("records %d..%d, want all %d", p.sc.ri, p.sc.rn, recBatch)
	}
	if len(b.vals) != recBatch || p.sc.Line() != recBatch {
		t.Fatalf("%d lines, scanner at %d; want %d", len(b.vals), p.sc.Line(), recBatch)
	}
	for i := range b.vals {
		if string(b.doc(i)) != "D1" || b.vals[i] != 2.5 || b.lines[i] != int64(i+1) {
			t.Fatalf("line %d: %q %v @%d", i, b.doc(i), b.vals[i], b.lines[i])
		}
	}
	if st, en := p.sc.Span(); st != 18*(recBatch-1) || en != 18*recBatch {
		t.Fatalf("span %d-%d, want %d-%d", st, en, 18*(recBatch-1), 18*recBatch)
	}
	for _, c := range []struct {
		qid     string
		badLine int // a line whose value parseShort does not take (0: none)
		stop    int64
	}{{"1", 0, 70}, {"1", 67, 66}, {"2", 0, 65}} {
		data := slices.Clone(run)
		if c.badLine > 0 {
			data[(c.badLine-1)*18+12] = 'x' // its value 2.x
		}
		p.sc.ResetBytes(data, 1)
		for p.sc.Line() < recBatch+1 {
			if _, err := p.sc.Next(); err != nil {
				t.Fatal(err)
			}
		}
		b.reset()
		b.qid = append(b.qid, c.qid...)
		b.add(nil, 0, 0)
		p.scanRecs(&b, 4, newQIDWord(b.qid))
		if p.sc.Line() != c.stop || len(b.vals) != int(c.stop-recBatch) {
			t.Fatalf("qid %s: stopped after line %d with %d lines, want %d", c.qid, p.sc.Line(), len(b.vals), c.stop)
		}
	}
}
