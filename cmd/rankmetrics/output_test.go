package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rankmetrics/rankmetrics/evaluate"
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

// TestReportNamesInert: file names and qids of any bytes are inert text in
// every report format, written as the -h of compare and eval says (the
// expected strings are written out by hand), and the reports keep their
// structure: as many lines as with plain names, as many fields per line.
func TestReportNamesInert(t *testing.T) {
	dir := t.TempDir()
	qrels := writeTemp(t, dir, "q", handQrels)
	hostile := "b\n\\immediate\\write18{x}%|*_<i>\t\xff.run"
	plainA, plainB := writeTemp(t, dir, "A.run", handRunA), writeTemp(t, dir, "B.run", handRunB)
	a := writeTemp(t, dir, `\input{secret}.run`, handRunA)
	b := writeTemp(t, dir, hostile, handRunB)
	cases := []struct {
		format string
		want   []string
	}{
		{"latex", []string{
			`\textbackslash{}input\{secret\}.run & `,
			`b\textbackslash{}n\textbackslash{}immediate\textbackslash{}write18\{x\}\%|*\_<i>\textbackslash{}t\textbackslash{}xff.run & `,
			`% 5 paired queries; baseline \textbackslash{}input\{secret\}.run;`,
		}},
		{"markdown", []string{
			`| \\input{secret}.run | `,
			`| b\\n\\immediate\\write18{x}%\|\*\_\<i\>\\t\\xff.run | `,
		}},
		{"tsv", []string{"\t\\input{secret}.run\t" + `"b\n\\immediate\\write18{x}%|*_<i>\t\xff.run"` + "\t5\t"}},
		{"table", []string{"\n" + `"b\n\\immediate\\write18{x}%|*_<i>\t\xff.run"  `, "baseline \\input{secret}.run;"}},
	}
	for _, c := range cases {
		plain, _, err := compareRun(t, "--format", c.format, qrels, plainA, plainB)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := compareRun(t, "--format", c.format, qrels, a, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.format, w, out)
			}
		}
		pl, ol := strings.Split(plain, "\n"), strings.Split(out, "\n")
		if len(pl) != len(ol) {
			t.Errorf("%s: %d lines, %d with plain names:\n%s", c.format, len(ol), len(pl), out)
			continue
		}
		for i := range pl {
			if n, m := strings.Count(pl[i], "\t"), strings.Count(ol[i], "\t"); n != m {
				t.Errorf("%s: line %d has %d tabs, %d with plain names: %q", c.format, i+1, m, n, ol[i])
			}
		}
	}
	out, _, err := compareRun(t, "--format", "json", qrels, a, b)
	if err != nil {
		t.Fatal(err)
	}
	var r compareJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if got, want := r.Runs[1].Name, "b\n\\immediate\\write18{x}%|*_<i>\t\uFFFD.run"; got != want {
		t.Errorf("json name %q, want %q", got, want)
	}

	// eval: a qid and a path of control bytes, in tsv and table.
	tsv := writeTemp(t, dir, "x\ny\x1b[2J.jsonl", `{"qid":"\"a\u0001b\tc\"","label":1,"score":0.5}`+"\n")
	for _, c := range []struct {
		format string
		want   []string
	}{
		{"tsv", []string{"measure\tqid\tvalue\nmap\t\"\\\"a\\x01b\\tc\\\"\"\t1\nmap\tall\t1\n"}},
		{"table", []string{"map       \t\"\\\"a\\x01b\\tc\\\"\"\t1\n", `/x\ny\x1b[2J.jsonl" (jsonl)`}},
	} {
		out := mustEval(t, "--quiet", "-q", "--format", c.format, tsv)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("eval %s: no %q in\n%s", c.format, w, out)
			}
		}
		if strings.ContainsAny(out, "\x01\x1b") {
			t.Errorf("eval %s: a control byte in\n%q", c.format, out)
		}
	}
}

// nameSeeds are the seeds of the fuzz tests of names.
var nameSeeds = [][2]string{
	{"a.run", "b.run"},
	{`\input{secret}.run`, "b\n\\immediate\\write18{x}%"},
	{"x|y\r\nz", "<b>*i*</b> _u_ `c` [l](u) & ~s~ !$#"},
	{"\xff\xfe\x00\t", "\u202e\u2028\uFFFD"},
	{`"quoted"`, `\\`},
	{"^^J\\^^M", "ä_ö a_ _b"},
}

// compareReportOf returns the report of compare over two runs named n1
// and n2 with t and randomization tests, built without reading files.
func compareReportOf(t *testing.T, n1, n2 string) *compareReport {
	t.Helper()
	o, _, err := parseCompareArgs([]string{"--samples", "20", "-m", "map", "-m", "P_10", "q", "a", "b"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	qids := []string{"1", "2", "3"}
	runs := []*runValues{
		{name: n1, file: n1, qidBytes: []byte("123"), qidEnd: []int{1, 2, 3}, means: []float64{0.5, 0.3}},
		{name: n2, file: n2, qidBytes: []byte("123"), qidEnd: []int{1, 2, 3}, means: []float64{0.6, 0.2}},
	}
	values := [][][]float64{{{0.1, 0.5, 0.9}, {0.1, 0.3, 0.5}}, {{0.9, 0.5, 0.4}, {0.2, 0.1, 0.3}}}
	rep, err := o.compare(context.Background(), runs, qids, values)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// unescaped returns the bytes of s that are not escaped by a backslash,
// with a backslash escaping the byte after it.
func unescaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// checkLatexInert fails unless every special character of LaTeX in s is
// part of an escape that latexText writes, and s holds no control byte.
func checkLatexInert(t *testing.T, name, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			t.Fatalf("%q -> %q: control byte %#x", name, s, c)
		case c == '\\':
			rest := s[i+1:]
			ok := false
			for _, e := range []string{"textbackslash{}", "textasciicircum{}", "textasciitilde{}"} {
				if strings.HasPrefix(rest, e) {
					i += len(e)
					ok = true
				}
			}
			if !ok && rest != "" && strings.IndexByte("{}$&#_%", rest[0]) >= 0 {
				i++
				ok = true
			}
			if !ok {
				t.Fatalf("%q -> %q: a command at byte %d", name, s, i)
			}
		case strings.IndexByte("{}$&#^_~%", c) >= 0:
			t.Fatalf("%q -> %q: unescaped %q at byte %d", name, s, c, i)
		}
	}
}

// FuzzCompareReportNames: whatever the bytes of the two run names, every
// format of compare's report keeps its structure (the lines, cells and
// fields of the report with plain names), holds no control byte but its
// line feeds (and tabs in TSV), and the name is inert text: LaTeX's
// specials and Markdown's markup are escaped, and the TSV and table field
// unquotes back to the name.
func FuzzCompareReportNames(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, n1, n2 string) {
		if n1 == n2 {
			t.Skip() // runs have distinct names
		}
		plain := compareReportOf(t, "a.run", "b.run")
		rep := compareReportOf(t, n1, n2)
		for _, format := range []string{"table", "markdown", "latex", "tsv", "json"} {
			var pb, ob bytes.Buffer
			if err := plain.write(&pb, format); err != nil {
				t.Fatal(err)
			}
			if err := rep.write(&ob, format); err != nil {
				t.Fatal(err)
			}
			out := ob.String()
			if format == "json" {
				var r compareJSON
				if err := json.Unmarshal(ob.Bytes(), &r); err != nil || len(r.Runs) != 2 {
					t.Fatalf("json: %v\n%s", err, out)
				}
				continue
			}
			if !utf8.ValidString(out) {
				t.Fatalf("%s: invalid UTF-8 in %q", format, out)
			}
			for _, c := range []byte(out) {
				if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || (c == '\t' && format != "tsv") {
					t.Fatalf("%s: control byte %#x in %q", format, c, out)
				}
			}
			pl, ol := strings.Split(pb.String(), "\n"), strings.Split(out, "\n")
			if len(pl) != len(ol) {
				t.Fatalf("%s: %d lines, %d with plain names:\n%s", format, len(ol), len(pl), out)
			}
			for i := range pl {
				p, o, sep := unescaped(pl[i]), unescaped(ol[i]), "&"
				switch format {
				case "tsv":
					p, o, sep = pl[i], ol[i], "\t"
				case "markdown":
					sep = "|"
				case "table":
					continue
				}
				if n, m := strings.Count(p, sep), strings.Count(o, sep); n != m {
					t.Fatalf("%s: line %d has %d %q, %d with plain names: %q", format, i+1, m, sep, n, ol[i])
				}
			}
		}
		for _, n := range []string{n1, n2} {
			checkLatexInert(t, n, latexText(n))
			md := markdownText(n)
			for i := 0; i < len(md); i++ {
				c := md[i]
				switch {
				case c == '\\':
					i++
				case c < 0x20 || c == 0x7f:
					t.Fatalf("markdown %q -> %q: control byte", n, md)
				case c == '_' && intraword(md, i):
					// between two letters or digits, never emphasis
				case strings.IndexByte(markdownSpecials, c) >= 0:
					t.Fatalf("markdown %q -> %q: unescaped %q", n, md, c)
				}
			}
			cell := textCell(n)
			if back, err := strconv.Unquote(cell); strings.HasPrefix(cell, `"`) && (err != nil || back != n) {
				t.Fatalf("text %q -> %q: unquotes to %q, %v", n, cell, back, err)
			} else if !strings.HasPrefix(cell, `"`) && cell != n {
				t.Fatalf("text %q -> %q", n, cell)
			}
		}
	})
}

// FuzzEvalReportNames: whatever the bytes of the input's path, eval's
// summary keeps its structure: the lines of the summary of a plain path,
// three fields per TSV line, valid JSON, no control byte but line feeds.
func FuzzEvalReportNames(f *testing.F) {
	for _, s := range nameSeeds {
		f.Add(s[0] + s[1])
	}
	f.Fuzz(func(t *testing.T, path string) {
		res := &evaluate.Result{Values: []float64{0.5}, Read: 1, Evaluated: 1}
		for _, format := range []string{"table", "tsv", "json"} {
			write := func(p string) string {
				o, _, err := parseEvalArgs([]string{"--format", format, "--input-format", "tsv", "x"}, io.Discard, io.Discard)
				if err != nil {
					t.Fatal(err)
				}
				o.paths = []string{p}
				var b bytes.Buffer
				w := bufio.NewWriter(&b)
				if err := newReporter(w, o).finish(res); err != nil {
					t.Fatal(err)
				}
				w.Flush()
				return b.String()
			}
			plain, out := write("x.tsv"), write(path)
			if format == "json" {
				if !json.Valid([]byte(out)) {
					t.Fatalf("json: %s", out)
				}
				continue
			}
			for _, c := range []byte(out) {
				if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || (c == '\t' && format != "tsv") {
					t.Fatalf("%s: control byte %#x in %q", format, c, out)
				}
			}
			pl, ol := strings.Split(plain, "\n"), strings.Split(out, "\n")
			if len(pl) != len(ol) {
				t.Fatalf("%s: %d lines, %d with a plain path:\n%s", format, len(ol), len(pl), out)
			}
			for i := range pl {
				if n, m := strings.Count(pl[i], "\t"), strings.Count(ol[i], "\t"); n != m {
					t.Fatalf("%s: line %d has %d tabs, %d with a plain path: %q", format, i+1, m, n, ol[i])
				}
			}
		}
	})
}
