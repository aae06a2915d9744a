package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// failReader fails the test that reads it: the command had to stop before
// reading its input.
type failReader struct{ t *testing.T }

func (r failReader) Read([]byte) (int, error) {
	r.t.Error("the input was read before --plot was checked")
	return 0, io.EOF
}

// TestPlotPathChecked: --plot never writes over an input (by path, cleaned
// path, symbolic or hard link) nor over a file that is not a PNG, and a
// --plot that cannot be written is a usage error naming --plot, given
// before any input is read (the runs read from a failReader standard
// input, or do not exist).
func TestPlotPathChecked(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	qrels := writeTemp(t, dir, "q2", handQrels)
	a := writeTemp(t, dir, "A.run", handRunA)
	b := writeTemp(t, dir, "B.run", handRunB)
	text := writeTemp(t, dir, "notes.txt", "my notes\n")
	short := writeTemp(t, dir, "short.png", "\x89PN")
	if err := os.Symlink(qrels, filepath.Join(dir, "link.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, filepath.Join(dir, "hard.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "pics"), 0o755); err != nil {
		t.Fatal(err)
	}
	var ms []string
	for k := 1; k <= 65; k++ {
		ms = append(ms, "map@"+strconv.Itoa(k))
	}
	many := strings.Join(ms, ",")
	cases := []struct {
		name string
		cmd  string
		args []string
		want string
	}{
		{"eval qrels", "eval", []string{"--plot", "q2", "q2", "A.run"}, `--plot "q2": this is the input "q2"`},
		{"eval run", "eval", []string{"--plot", "A.run", "q2", "A.run"}, `this is the input "A.run"`},
		{"eval cleaned path", "eval", []string{"--plot", "./pics/../q2", "q2", "A.run"}, `this is the input "q2"`},
		{"eval absolute path", "eval", []string{"--plot", qrels, "q2", "A.run"}, `this is the input "q2"`},
		{"eval symbolic link", "eval", []string{"--plot", "link.png", "q2", "A.run"}, `--plot "link.png": this is the input "q2"`},
		{"eval hard link", "eval", []string{"--plot", "hard.png", "q2", "A.run"}, `--plot "hard.png": this is the input "A.run"`},
		{"eval not a PNG", "eval", []string{"--plot", "notes.txt", "--input-format", "tsv", "-"}, "exists and is not a PNG image"},
		{"eval PNG prefix only", "eval", []string{"--plot", "short.png", "--input-format", "tsv", "-"}, "exists and is not a PNG image"},
		{"eval missing folder", "eval", []string{"--plot", "nodir/x.png", "--input-format", "tsv", "-"}, `--plot "nodir/x.png": the folder "nodir" does not exist`},
		{"eval folder", "eval", []string{"--plot", "pics", "--input-format", "tsv", "-"}, `--plot "pics": this is a folder; name a file in it, e.g. "pics/plot.png"`},
		{"eval standard output", "eval", []string{"--plot", "-", "--input-format", "tsv", "-"}, "not standard output"},
		{"compare run", "compare", []string{"--plot", "A.run", "q2", "A.run", "B.run"}, `--plot "A.run": this is the input "A.run"`},
		{"compare qrels by link", "compare", []string{"--plot", "link.png", "q2", "A.run", "B.run"}, `this is the input "q2"`},
		{"compare hard link", "compare", []string{"--plot", "hard.png", "q2", "A.run", "B.run"}, `this is the input "A.run"`},
		{"compare missing folder", "compare", []string{"--plot", "nodir/x.png", "--input-format", "tsv", "--score-col", "a", "--score-col", "b", "-"}, `the folder "nodir" does not exist`},
		{"compare not a PNG", "compare", []string{"--plot", "notes.txt", "--input-format", "tsv", "--score-col", "a", "--score-col", "b", "-"}, "exists and is not a PNG image"},
		{"compare panels", "compare", []string{"--plot", "x.png", "-m", many, "--input-format", "tsv", "--score-col", "a", "--score-col", "b", "-"}, "--plot: 1 runs compared with the baseline x 65 measures = 65 panels; at most 64"},
	}
	before := map[string][]byte{}
	for _, p := range []string{qrels, a, b, text, short} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		before[p] = data
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		run := runEval
		if c.cmd == "compare" {
			run = runCompare
		}
		err := run(context.Background(), c.args, failReader{t}, &out, &errb)
		if !errors.Is(err, errUsage) {
			t.Errorf("%s: error %v, want a usage error", c.name, err)
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%s: stderr %q does not say %q", c.name, errb.String(), c.want)
		}
		if out.Len() > 0 {
			t.Errorf("%s: output %q before the error", c.name, out.String())
		}
		for p, data := range before {
			if now, err := os.ReadFile(p); err != nil || !bytes.Equal(now, data) {
				t.Fatalf("%s: %s was overwritten (%v)", c.name, p, err)
			}
		}
	}
	if _, err := os.Stat("x.png"); err == nil {
		t.Error("x.png was written")
	}
	// A PNG, or an empty file, is replaced.
	for _, name := range []string{"empty.png", "old.png"} {
		data := ""
		if name == "old.png" {
			data = string(pngSignature) + "old"
		}
		p := writeTemp(t, dir, name, data)
		mustEval(t, "--plot", p, qrels, a)
		if got, err := os.ReadFile(p); err != nil || !bytes.HasPrefix(got, pngSignature) || len(got) < 1000 {
			t.Errorf("%s: not replaced by the plot (%d bytes, %v)", name, len(got), err)
		}
	}
}
