//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTrecEvalReadsFIFOs gives the qrels and the run of golden cases
// through named pipes (as <(cat run) does): files that cannot seek, read
// several times by the trec_eval readers. The output must be the one of
// the real trec_eval on the regular files, recorded in golden.gz.
func TestTrecEvalReadsFIFOs(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "treceval")
	want := map[string]bool{
		"-m official": true, "-q -m all_trec": true, "-q -c -m all_trec": true,
		"-m all_trec": true, "-q -J -m all_trec": true,
	}
	n := 0
	for _, c := range readGolden(t, filepath.Join(dir, "golden.gz")) {
		if c.data == "sorted" || strings.Contains(c.data, ":") || !want[c.flags] {
			continue
		}
		n++
		t.Run(c.version+"/"+c.data+"/"+c.flags, func(t *testing.T) {
			fifos := t.TempDir()
			var args []string
			for _, ext := range []string{".qrels", ".run"} {
				b, err := os.ReadFile(filepath.Join(dir, c.data+ext))
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(fifos, ext[1:])
				if err := syscall.Mkfifo(p, 0o600); err != nil {
					t.Skip("no FIFOs here:", err)
				}
				go func() {
					// Opening for writing waits for the reader.
					if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
						w.Write(b)
						w.Close()
					}
				}()
				args = append(args, p)
			}
			args = append(append([]string{"--compat", c.version}, strings.Fields(c.flags)...), args...)
			var out bytes.Buffer
			err := runTrecEvalTuned(context.Background(), args, trecEvalTuning{}, nil, &out, io.Discard)
			if code := exitCodeOf(err); code != c.exit {
				t.Errorf("exit status %d (%v), trec_eval %d", code, err, c.exit)
			}
			if !bytes.Equal(out.Bytes(), c.out) {
				t.Errorf("output differs from trec_eval %s:\n%s", c.version, firstDiff(out.Bytes(), c.out))
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d cases", n)
	}
}

// exitCodeOf is the exit status of a trec_eval error (0 for nil).
func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	return trecEvalExitCode(err)
}
