package runio

// The scanner's lines from lineidx's records (vec) against its byte loops
// (read, the reference): the same fields, errors, line numbers, spans and
// blank-line counts for every input, mode, buffer size and line limit.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// twinCase is one input and the options to read it with.
type twinCase struct {
	data  []byte
	mode  TRECMode
	qrels bool
	opts  Options
	// chunk > 0: the reader hands over at most chunk bytes per Read, so
	// the line reader's windows end at other offsets.
	chunk int
	// unread: Unread after every unread-th line (0: never).
	unread int
}

// chunkReader returns at most n bytes per Read.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// twinScanner makes the scanner of c, from memory (mem) or a reader, with
// the records on (vec) or off.
func twinScanner(c twinCase, mem, vec bool) *TRECScanner {
	var s *TRECScanner
	if mem {
		s = NewTRECBytesScanner(c.data, "f", c.qrels, c.mode, &c.opts)
	} else {
		var r io.Reader = bytes.NewReader(c.data)
		if c.chunk > 0 {
			r = &chunkReader{r, c.chunk}
		}
		s = NewTRECScanner(r, "f", c.qrels, c.mode, &c.opts)
	}
	s.vec = vec && indexable(s.lr)
	return s
}

// twinEvents lists everything s yields, line by line: the fields, Line,
// Span and BlankLines after each call, then the error, its text and its
// value.
func twinEvents(s *TRECScanner, unread int) []string {
	var ev []string
	held := false
	for i := 1; ; i++ {
		f, err := s.Next()
		st, en := s.Span()
		pos := fmt.Sprintf("line %d span [%d,%d) blank %d", s.Line(), st, en, s.BlankLines())
		if err == io.EOF {
			return append(ev, "EOF "+pos)
		}
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return append(ev, fmt.Sprintf("error %v %#v %s", err, *pe, pos))
			}
			return append(ev, fmt.Sprintf("error %v %s", err, pos))
		}
		ev = append(ev, fmt.Sprintf("%q %s", f, pos))
		// Each line at most once, or it would come back for ever.
		held = !held && unread > 0 && i%unread == 0
		if held {
			s.Unread()
		}
	}
}

// checkTwins asserts that the vector scanner yields what the scalar one
// does, from memory and from a reader.
func checkTwins(t *testing.T, c twinCase) {
	t.Helper()
	for _, mem := range []bool{true, false} {
		want := twinEvents(twinScanner(c, mem, false), c.unread)
		got := twinEvents(twinScanner(c, mem, true), c.unread)
		if !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("mode %d qrels %v mem %v opts %+v chunk %d, input %q: event %d:\nvector %s\nscalar %s",
						c.mode, c.qrels, mem, c.opts, c.chunk, c.data, i, got[i], want[i])
				}
			}
			t.Fatalf("mode %d qrels %v mem %v opts %+v, input %q: %d events, scalar %d",
				c.mode, c.qrels, mem, c.opts, c.data, len(got), len(want))
		}
	}
}

// randomTREC returns random TREC-like lines: fields of bytes biased to
// the ones the rules name, separated by runs of separators, with blank,
// comment, long, many-field and NUL lines, "\n" or "\r\n" ends, and
// sometimes no end on the last line.
func randomTREC(rng *rand.Rand, lines int) []byte {
	const fieldBytes = "aQ0.1-#\x00\x01\x1f\x7f\x80\xff\xc3"
	const sepBytes = " \t\r\v\f\x00\x01"
	var b []byte
	for range lines {
		nf := []int{4, 6, 6, 7, 0, 3, 5, 8, 30}[rng.IntN(9)]
		if rng.IntN(3) == 0 {
			nf = []int{4, 6}[rng.IntN(2)]
		}
		lead := rng.IntN(8) == 0
		if lead && rng.IntN(2) == 0 {
			b = append(b, sepBytes[rng.IntN(len(sepBytes))])
		}
		if rng.IntN(12) == 0 {
			b = append(b, '#')
			if rng.IntN(2) == 0 {
				b = append(b, ' ')
			}
		}
		if lead {
			b = append(b, sepBytes[rng.IntN(len(sepBytes))])
		}
		for k := range nf {
			if k > 0 {
				b = append(b, ' ')
				if rng.IntN(6) == 0 {
					b = append(b, sepBytes[rng.IntN(len(sepBytes))])
				}
			}
			w := 1 + rng.IntN(6)
			if rng.IntN(10) == 0 {
				w = rng.IntN(70)
			}
			for range w {
				c := byte('a' + rng.IntN(26))
				if rng.IntN(12) == 0 {
					c = fieldBytes[rng.IntN(len(fieldBytes))]
				}
				b = append(b, c)
			}
		}
		if rng.IntN(8) == 0 {
			b = append(b, sepBytes[rng.IntN(len(sepBytes))])
		}
		if rng.IntN(6) == 0 {
			b = append(b, '\r')
		}
		b = append(b, '\n')
	}
	if rng.IntN(3) == 0 && len(b) > 0 {
		b = b[:len(b)-1]
	}
	return b
}

// TestTRECScannerVecRandom: random inputs, every mode, both kinds of file,
// buffer sizes from the smallest to the default, line limits below, at and
// above the index's window, reads cut to random sizes, Unread.
func TestTRECScannerVecRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	iters := 2000
	if testing.Short() {
		iters = 60
	}
	for range iters {
		data := randomTREC(rng, 1+rng.IntN(60))
		for _, mode := range []TRECMode{TRECStrict, TRECEval10, TRECEval908} {
			for _, qrels := range []bool{false, true} {
				c := twinCase{data: data, mode: mode, qrels: qrels,
					opts: Options{
						BufferSize:     []int{16, 64, 100, 200, 0}[rng.IntN(5)],
						MaxLineBytes:   []int{10, 40, 62, 63, 64, 65, 66, 100, 0}[rng.IntN(9)],
						TRECNoComments: rng.IntN(4) == 0,
					},
					chunk:  []int{0, 1, 7, 33, 64, 65, 200}[rng.IntN(7)],
					unread: rng.IntN(4),
				}
				checkTwins(t, c)
			}
		}
	}
}

// TestTRECScannerVecOffsets: every suffix and every prefix of lines that
// the index describes (bench/gen's lines) with unusual ones between, so
// that every line starts at every offset of a block and the input ends at
// every offset; after an error, the lines after the one in error.
func TestTRECScannerVecOffsets(t *testing.T) {
	run := "1 Q0 D69 1 2.328 gen\n1 Q0 D7-12 2 2.3 gen\r\n  1 Q0 x 3 1 r\n# c\n\n" +
		"1 Q0 a 4 1 r extra\n # a b c d e\n\t#\tQ0 a 4 1 r\n1 Q0 " + strings.Repeat("d", 45) + " 5 1 r\n1\x00Q0 a 1 1 r\n1 Q0\x01a 1 1 r\n"
	qrels := "1 0 D99 0\n1 0 D7 1\r\n#1 0 a 1\n 1 0 b 1\n\n1 0 c\n1 0 c 1 2\n1 0 " + strings.Repeat("e", 52) + " 1\n1 0 f\x00 1\n"
	step := 1
	if testing.Short() {
		step = 7
	}
	for _, c := range []struct {
		data  string
		qrels bool
	}{{strings.Repeat(run, 2), false}, {strings.Repeat(qrels, 2), true}} {
		for off := 0; off < len(c.data); off += step {
			for _, mode := range []TRECMode{TRECStrict, TRECEval10, TRECEval908} {
				for _, d := range [][]byte{[]byte(c.data[off:]), []byte(c.data[:len(c.data)-off])} {
					for len(d) > 0 {
						checkTwins(t, twinCase{data: d, mode: mode, qrels: c.qrels, chunk: 64 + off%9})
						s := twinScanner(twinCase{data: d, mode: mode, qrels: c.qrels}, true, false)
						for {
							if _, err := s.Next(); err != nil {
								break
							}
						}
						_, en := s.Span()
						i := bytes.IndexByte(d[en:], '\n')
						if i < 0 {
							break
						}
						d = d[int(en)+i+1:]
					}
				}
			}
		}
	}
}

// TestTRECScannerVecLineLimit: lines of 58 to 66 bytes (with "\n" or
// "\r\n") under line limits of 58 to 66 bytes: the index sees lines of up
// to 63 bytes, so the scanner uses it only with limits of 64 and more.
func TestTRECScannerVecLineLimit(t *testing.T) {
	for ln := 58; ln <= 66; ln++ {
		for _, crlf := range []bool{false, true} {
			for _, qrels := range []bool{false, true} {
				line := "1 0 a 1 "
				if !qrels {
					line = "1 Q0 a 1 1 "
				}
				n := ln - len(line)
				end := "\n"
				if crlf {
					n--
					end = "\r\n"
				}
				line += strings.Repeat("x", n) + end
				data := []byte(strings.Repeat("1 0 b 1 1 r\n", 3) + line + line)
				if qrels {
					data = []byte(strings.Repeat("1 0 b 1\n", 3) + line + line)
				}
				for max := 58; max <= 66; max++ {
					for _, mode := range []TRECMode{TRECStrict, TRECEval10, TRECEval908} {
						checkTwins(t, twinCase{data: data, mode: mode, qrels: qrels, opts: Options{MaxLineBytes: max}})
					}
				}
			}
		}
	}
}

// TestTRECScannerVecUsed: on bench/gen's lines the records do the work
// (the test above would pass with none), and Reset drops them.
func TestTRECScannerVecUsed(t *testing.T) {
	run, _ := benchTREC(3)
	s := twinScanner(twinCase{data: run}, true, true)
	if !s.vec {
		t.Fatal("the scanner does not use the index")
	}
	if _, err := s.Next(); err != nil || s.rn < 2 || s.ri != 1 {
		t.Fatalf("first line: err %v, records %d..%d, want 1..n", err, s.ri, s.rn)
	}
	s.ResetBytes(run[:len(run)/2], 1)
	if s.rn != 0 {
		t.Fatalf("ResetBytes kept %d records", s.rn)
	}
	checkTwins(t, twinCase{data: run})
	checkTwins(t, twinCase{data: run, qrels: true})
}

// FuzzTRECScannerVec: the vector scanner yields what the scalar one does.
func FuzzTRECScannerVec(f *testing.F) {
	run, qrels := benchTREC(1)
	f.Add(run[:2000], uint8(0), false, uint16(0), uint16(0), uint8(0))
	f.Add(qrels[:2000], uint8(1), true, uint16(100), uint16(64), uint8(7))
	f.Add([]byte("1 Q0 a 1 1 r\n# c\n\n\v\f\n 1 0 a\x00 1\r\n1 Q0 "+strings.Repeat("d", 70)+" 1 1 r\n"), uint8(2), false, uint16(16), uint16(65), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, m uint8, qrels bool, buf, maxLine uint16, chunk uint8) {
		checkTwins(t, twinCase{data: data, mode: TRECMode(m % 3), qrels: qrels,
			opts:  Options{BufferSize: 1 + int(buf%400), MaxLineBytes: int(maxLine % 200), TRECNoComments: m&4 != 0},
			chunk: int(chunk), unread: int(m>>3) % 4})
	})
}
