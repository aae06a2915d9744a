package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's examples run here, so that they cannot go stale. The
// convention, which the README states under "Examples in this README":
// a ```sh block followed (after blank lines only) by a ```text block is an
// example: its commands run from a directory holding the repository's
// testdata/examples, and what they print on standard output, one command
// after another, must be the text block, byte for byte. Every other ```sh
// or ```text block starts with the line notRun, giving the reason.

// readmePath is the README, from this package's directory.
const readmePath = "../../README.md"

// notRun starts the first line of a README block that is not run.
const notRun = "# not run by the README test:"

// fence is one fenced block of the README.
type fence struct {
	lang string
	line int // of the opening fence, from 1
	body string
	// follows says whether only blank lines separate it from the block
	// before.
	follows bool
}

// readmeFences returns the fenced blocks of a Markdown text.
func readmeFences(text string) ([]fence, error) {
	var out []fence
	lines := strings.Split(text, "\n")
	blank := false // only blank lines since the last block closed
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			blank = blank && strings.TrimSpace(l) == ""
			continue
		}
		f := fence{lang: strings.TrimSpace(l[3:]), line: i + 1, follows: blank && len(out) > 0}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		if i == len(lines) {
			return nil, fmt.Errorf("README.md:%d: the block is not closed", f.line)
		}
		if len(body) > 0 {
			f.body = strings.Join(body, "\n") + "\n"
		}
		out = append(out, f)
		blank = true
	}
	return out, nil
}

// shellWords splits one command line as sh would, for the README's
// commands: words, 'single' and "double" quotes, backslash escapes, a
// comment from a # that starts a word, and | as a word of its own.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			end()
		case c == '#' && !inWord:
			end()
			return words, nil
		case c == '|':
			end()
			words = append(words, "|")
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord, i = true, i+1+j
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`"\$`+"`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	return words, nil
}

// readmeCommands returns the command lines of a ```sh block: lines ending
// in a backslash go on, comment and blank lines are left out.
func readmeCommands(body string) []string {
	var out []string
	cur := ""
	for _, l := range strings.Split(body, "\n") {
		if strings.HasSuffix(l, `\`) {
			cur += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		cur += l
		if t := strings.TrimSpace(cur); t != "" && !strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
		cur = ""
	}
	return out
}

// runReadmeCommand runs one command line of the README in process and
// returns its standard output: "rankmetrics ARGS" (or "go run
// ./cmd/rankmetrics ARGS"), optionally fed by "echo TEXT |".
func runReadmeCommand(line string) (string, error) {
	words, err := shellWords(line)
	if err != nil {
		return "", err
	}
	var stdin io.Reader = strings.NewReader("")
	if len(words) > 0 && words[0] == "echo" {
		k := 0
		for k < len(words) && words[k] != "|" {
			k++
		}
		if k == len(words) {
			return "", errors.New("echo without a pipe into rankmetrics")
		}
		stdin = strings.NewReader(strings.Join(words[1:k], " ") + "\n")
		words = words[k+1:]
	}
	switch {
	case len(words) >= 1 && words[0] == "rankmetrics":
		words = words[1:]
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/rankmetrics":
		words = words[3:]
	default:
		return "", fmt.Errorf("not a rankmetrics command the README test runs: %q", line)
	}
	for _, w := range words {
		if w == "|" || strings.ContainsAny(w, "<>;&") {
			return "", fmt.Errorf("a pipe or redirection the README test does not run: %q", line)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), words, stdin, &stdout, &stderr); err != nil {
		return stdout.String(), fmt.Errorf("%w\nstderr:\n%s", err, stderr.String())
	}
	return stdout.String(), nil
}

// copyDir copies the files of directory src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestREADMEExamples runs every example of README.md and compares its
// output with the README's, and checks that every other command or output
// block says why it is not run.
func TestREADMEExamples(t *testing.T) {
	raw, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	fences, err := readmeFences(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	examples := dataDir(t)
	dir := t.TempDir()
	copyDir(t, examples, filepath.Join(dir, "testdata", "examples"))
	t.Chdir(dir)
	ran := 0
	for i := 0; i < len(fences); i++ {
		f := fences[i]
		if f.lang == "" {
			t.Errorf("README.md:%d: a block without a language: a command is ```sh, an output ```text", f.line)
			continue
		}
		if f.lang != "sh" && f.lang != "text" {
			continue
		}
		if f.lang == "sh" && i+1 < len(fences) && fences[i+1].lang == "text" && fences[i+1].follows {
			want := fences[i+1]
			i++
			if strings.HasPrefix(f.body, notRun) {
				continue // the output of a command that is not run
			}
			ran++
			t.Run(fmt.Sprintf("line%d", f.line), func(t *testing.T) {
				cmds := readmeCommands(f.body)
				if len(cmds) == 0 {
					t.Fatalf("README.md:%d: no command", f.line)
				}
				var got strings.Builder
				for _, c := range cmds {
					out, err := runReadmeCommand(c)
					got.WriteString(out)
					if err != nil {
						t.Fatalf("README.md:%d: %s: %v", f.line, c, err)
					}
				}
				if got.String() != want.body {
					t.Errorf("README.md:%d: the output of\n%s\ndiffers from the README's (from line %d), at its %s\nThe whole output:\n%s", f.line, f.body, want.line+1, firstDiff([]byte(got.String()), []byte(want.body)), got.String())
				}
			})
			continue
		}
		if !strings.HasPrefix(f.body, notRun) {
			t.Errorf("README.md:%d: a ```%s block that is neither an example (a ```sh block followed by the ```text block of its output) nor marked %q with the reason", f.line, f.lang, notRun)
		}
	}
	if ran == 0 {
		t.Fatal("README.md has no example")
	}
}

// dataDir returns the absolute path of testdata/examples.
func dataDir(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../testdata/examples")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestShellWords checks the splitting of the README's command lines.
func TestShellWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`rankmetrics eval -m map QRELS RUN   # a comment`, []string{"rankmetrics", "eval", "-m", "map", "QRELS", "RUN"}},
		{`echo '{"id":"a", "x": 1}' | rankmetrics compute`, []string{"echo", `{"id":"a", "x": 1}`, "|", "rankmetrics", "compute"}},
		{`a "b \"c\" d" e\ f x#y`, []string{"a", `b "c" d`, "e f", "x#y"}},
		{`a|b`, []string{"a", "|", "b"}},
	} {
		got, err := shellWords(tc.in)
		if err != nil || strings.Join(got, "\x00") != strings.Join(tc.want, "\x00") {
			t.Errorf("shellWords(%q) = %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := shellWords(`a 'b`); err == nil {
		t.Error("an unclosed quote: no error")
	}
}
