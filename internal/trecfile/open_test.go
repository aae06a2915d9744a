package trecfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// readAll returns every topic of s as "qid: docno score ..." lines, or the
// error.
func readAll(s *Source) (string, error) {
	var out string
	for {
		qid, docs, err := s.Next(context.Background())
		if err == io.EOF {
			return out + "runid " + s.Runid(), nil
		}
		if err != nil {
			return "", err
		}
		out += qid + ":"
		for _, d := range docs {
			out += fmt.Sprintf(" %s %v", d.Docno, d.Score)
		}
		out += "\n"
	}
}

// FuzzReadRun: ReadRun (a stream, block by block or gathered, after the
// scan) gives the topics that CollectRun gathers in memory from the same
// bytes, or the same error.
func FuzzReadRun(f *testing.F) {
	for _, s := range []string{
		"1 Q0 a 1 1.5 r\n1 Q0 b 2 1 r\n2 Q0 a 1 2 r\n",                    // sorted
		"2 Q0 a 1 1 r\n# c\n10 Q0 b 1 2 s\n10 Q0 c 2 1 s\n1 Q0 d 1 0 t\n", // in blocks
		"2 Q0 a 1 1 r\n1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n",                      // scattered
		"1 Q0 a 1 1 r\n1 Q0\n",
		"# only a comment\n",
		"",
		"1\x01 Q0 a 1 1.5abc r\r\n\v\f\n1 Q0 b 2 -inf r\n",
		"1 Q0 a 1 1 r\n\x002 Q0 a 1 1 r\n",
	} {
		f.Add([]byte(s), false)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte, old bool) {
		v := treceval.V10
		if old {
			v = treceval.V908
		}
		ctx := context.Background()
		path := filepath.Join(dir, "run")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := ""
		run, werr := CollectRun(ctx, NewRunScanner(bytes.NewReader(data), "run", v))
		if werr == nil {
			want, werr = readAll(run.Source())
		}
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		src, gerr := ReadRun(ctx, file, "run", v)
		got := ""
		if gerr == nil {
			got, gerr = readAll(src)
			src.Close()
		}
		if (werr == nil) != (gerr == nil) || werr != nil && errors.Is(werr, ErrEmptyRun) != errors.Is(gerr, ErrEmptyRun) {
			t.Fatalf("%q: ReadRun: %v; CollectRun: %v", data, gerr, werr)
		}
		if werr != nil && !errors.Is(werr, ErrEmptyRun) && werr.Error() != gerr.Error() {
			t.Fatalf("%q: ReadRun: %v; CollectRun: %v", data, gerr, werr)
		}
		if got != want {
			t.Fatalf("%q:\nReadRun:\n%s\nCollectRun:\n%s", data, got, want)
		}
	})
}
