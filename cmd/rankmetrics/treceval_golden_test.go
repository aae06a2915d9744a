package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goldenCase is one output of the real trec_eval recorded by
// parity/treceval_golden.sh.
type goldenCase struct {
	version, data, flags string
	exit                 int
	out                  []byte
}

func readGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	var cases []goldenCase
	for {
		h, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := strings.SplitN(strings.TrimSuffix(h, "\n"), "\t", 6)
		if len(p) != 6 || p[0] != "#case" {
			t.Fatalf("bad golden header %q", h)
		}
		exit, _ := strconv.Atoi(p[3])
		n, _ := strconv.Atoi(p[4])
		out := make([]byte, n)
		if _, err := io.ReadFull(br, out); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, goldenCase{version: p[1], data: p[2], exit: exit, flags: p[5], out: out})
	}
	return cases
}

// TestTrecEvalGolden checks every committed output of trec_eval 10.0 and
// 9.0.8 byte for byte, with its exit status.
// Pairs of files that hold the same topics in the same order are read
// side by side (readSideBySide); the test fails unless some are.
func TestTrecEvalGolden(t *testing.T) {
	n := 0
	testTrecEvalGolden(t, trecEvalTuning{budget: storedValuesBudget, sideBySide: &n})
	if n < 70 {
		t.Errorf("%d cases read side by side, want at least 70", n)
	}
	t.Logf("%d cases read side by side", n)
}

// TestTrecEvalGoldenSpilled checks them again with the side-by-side read
// keeping no values in memory: every topic's values go to its temporary
// file.
func TestTrecEvalGoldenSpilled(t *testing.T) {
	n := 0
	testTrecEvalGolden(t, trecEvalTuning{sideBySide: &n})
	if n < 70 {
		t.Errorf("%d cases read side by side, want at least 70", n)
	}
}

// TestTrecEvalGoldenOnePass checks them again without the side-by-side
// read, so that runs are evaluated in one pass of the run after the qrels
// index when their values fit in memory.
func TestTrecEvalGoldenOnePass(t *testing.T) {
	testTrecEvalGolden(t, trecEvalTuning{budget: storedValuesBudget, noSideBySide: true})
}

// TestTrecEvalGoldenTwoPass checks them again with no memory for the
// one-pass summary, so that runs are read a second time in topic order.
func TestTrecEvalGoldenTwoPass(t *testing.T) {
	testTrecEvalGolden(t, trecEvalTuning{noSideBySide: true})
}

func testTrecEvalGolden(t *testing.T, tune trecEvalTuning) {
	dir := filepath.Join("..", "..", "testdata", "treceval")
	cases := readGolden(t, filepath.Join(dir, "golden.gz"))
	if len(cases) < 50 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.version+"/"+c.data+"/"+c.flags, func(t *testing.T) {
			flags := c.flags
			var stdin io.Reader = strings.NewReader("")
			run := filepath.Join(dir, c.data+".run")
			qrels := filepath.Join(dir, c.data+".qrels")
			if hq, hr, ok := strings.Cut(c.data, ":"); ok {
				qrels, run = filepath.Join(dir, hq), filepath.Join(dir, filepath.Dir(hq), hr)
			}
			if rest, ok := strings.CutPrefix(flags, "STDIN"); ok {
				flags = rest
				b, err := os.ReadFile(run)
				if err != nil {
					t.Fatal(err)
				}
				stdin, run = bytes.NewReader(b), "-"
			}
			args := append([]string{"--compat", c.version}, strings.Fields(flags)...)
			args = append(args, qrels, run)
			var out, errb bytes.Buffer
			err := runTrecEvalTuned(context.Background(), args, tune, stdin, &out, &errb)
			code := 0
			if err != nil {
				var ee *exitError
				if !errors.As(err, &ee) {
					t.Fatalf("error without exit status: %v", err)
				}
				code = ee.ExitCode()
			}
			if code != c.exit {
				t.Errorf("exit status %d (%v), trec_eval %d", code, err, c.exit)
			}
			if !bytes.Equal(out.Bytes(), c.out) {
				t.Errorf("output differs from trec_eval %s:\n%s", c.version, firstDiff(out.Bytes(), c.out))
			}
		})
	}
}

// firstDiff describes the first differing line.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + strconv.Quote(gl) + "\n want " + strconv.Quote(wl)
		}
	}
	return "(lengths differ)"
}
