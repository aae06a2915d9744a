package cases

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// caseLine is a one-update MAP case whose answer is worked out by hand:
// labels {0, 1} scored {1, 2} rank the relevant item first, AP 1.
func caseLine(id string) string {
	return fmt.Sprintf(`{"id":%q,"ties":"stable","updates":[{"labels":[[0,1]],"predictions":[[1,2]]}]}`, id)
}

func answerLine(id string) string {
	return fmt.Sprintf(`{"id":%q,"result":1,"per_list":[[1]],"list_weights":[[1]]}`, id)
}

// readAnswer reads one line from r, failing the test after 10 s.
func readAnswer(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		s, _ := r.ReadString('\n')
		got <- s
	}()
	select {
	case s := <-got:
		return strings.TrimSuffix(s, "\n")
	case <-time.After(10 * time.Second):
		t.Fatal("no answer 10 s after the case was sent: the answer was not written before the next line was read")
	}
	return ""
}

// TestProcessRequestResponse is a client that sends one case over a pipe
// and waits for its answer before sending the next, with stdin still open.
func TestProcessRequestResponse(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := Process(context.Background(), inR, outW, 0)
		outW.Close()
		done <- err
	}()
	answers := bufio.NewReader(outR)
	for _, id := range []string{"first", "second", "third"} {
		if _, err := io.WriteString(inW, caseLine(id)+"\n"); err != nil {
			t.Fatal(err)
		}
		if got, want := readAnswer(t, answers), answerLine(id); got != want {
			t.Fatalf("answer %s, want %s", got, want)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestProcessCancelWhileReading cancels the context while Process waits for
// a line that never comes: it returns at once, the answer before kept.
func TestProcessCancelWhileReading(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Process(ctx, inR, outW, 0)
		outW.Close()
		done <- err
	}()
	answers := bufio.NewReader(outR)
	if _, err := io.WriteString(inW, caseLine("only")+"\n"); err != nil {
		t.Fatal(err)
	}
	if got := readAnswer(t, answers); got != answerLine("only") {
		t.Fatalf("answer %s", got)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || err.Error() != "interrupted after 1 answers, each written: context canceled" {
			t.Fatalf("error %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Process still waits for stdin 10 s after the context was cancelled")
	}
}

// failingReader returns its data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (f *failingReader) Read(p []byte) (int, error) {
	if len(f.data) == 0 {
		return 0, f.err
	}
	n := copy(p, f.data)
	f.data = f.data[n:]
	return n, nil
}

// TestProcessKeepsAnswers checks that a read error, and a line over the
// limit, lose none of the answers before them.
func TestProcessKeepsAnswers(t *testing.T) {
	// long is longer than Process's 64 KiB read buffer: it arrives in pieces.
	// Its relevant item is ranked first of 40001: AP 1.
	long := `{"id":"long","ties":"stable","updates":[{"labels":[[` + strings.Repeat("0,", 40000) + `1]],"predictions":[[` + strings.Repeat("1,", 40000) + `2]]}]}`
	for _, tc := range []struct {
		name    string
		in      string
		readErr error
		maxLine int
		want    []string
		err     string
	}{
		{"read error", caseLine("a") + "\n" + caseLine("b") + "\n" + `{"id":"c","upd`, errors.New("disk on fire"), 0,
			[]string{answerLine("a"), answerLine("b")}, "line 3: reading: disk on fire"},
		{"line over the limit", caseLine("a") + "\n" + long + "\n" + caseLine("c"), io.EOF, 150,
			[]string{answerLine("a"),
				fmt.Sprintf(`{"id":"","error":"line 2: the line is %d bytes long, over the limit of 150; raise it with --max-line (rankmetrics compute) or split the case: bad case"}`, len(long)),
				answerLine("c")}, ""},
		{"long line under the limit", caseLine("a") + "\n" + long + "\n", io.EOF, 0,
			[]string{answerLine("a"), `{"id":"long","result":1,"per_list":[[1]],"list_weights":[[1]]}`}, ""},
		{"limit met exactly", caseLine("exact") + "\r\n", io.EOF, len(caseLine("exact")) + 1,
			[]string{answerLine("exact")}, ""},
		{"over by one", caseLine("x") + "\n", io.EOF, len(caseLine("x")) - 1,
			[]string{fmt.Sprintf(`{"id":"","error":"line 1: the line is %d bytes long, over the limit of %d; raise it with --max-line (rankmetrics compute) or split the case: bad case"}`, len(caseLine("x")), len(caseLine("x"))-1)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			n, err := Process(context.Background(), &failingReader{data: []byte(tc.in), err: tc.readErr}, &out, tc.maxLine)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if n != len(tc.want) || strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("%d answers:\n%s\nwant:\n%s", n, out.String(), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestProcessNulls checks that null where a number or a row must be is an
// error answer naming the update, key and position, and that a bare null
// line is not a case.
func TestProcessNulls(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`null`, `{"id":"","error":"line 1: bad case: a case is a JSON object {\"id\": ..., \"updates\": [...]}, not \"null\""}`},
		{`  [1, 2]`, `{"id":"","error":"line 1: bad case: a case is a JSON object {\"id\": ..., \"updates\": [...]}, not \"[1, 2]\""}`},
		{`{"id":"l","updates":[{"labels":[[0,null]],"predictions":[[1,2]]}]}`,
			`{"id":"l","error":"line 1: bad case: updates[0].labels[0][1] is null; write a number, or \"NaN\", \"Infinity\" or \"-Infinity\""}`},
		{`{"id":"p","updates":[{"labels":[[0,1]],"predictions":[[1,2]]},{"labels":[[0,1],[1,0]],"predictions":[[1,2],[null,3]]}]}`,
			`{"id":"p","error":"line 1: bad case: updates[1].predictions[1][0] is null; write a number, or \"NaN\", \"Infinity\" or \"-Infinity\""}`},
		{`{"id":"w","updates":[{"labels":[[0,1]],"predictions":[[1,2]],"weights":[[null]]}]}`,
			`{"id":"w","error":"line 1: bad case: updates[0].weights[0][0] is null; write a number, or \"NaN\", \"Infinity\" or \"-Infinity\""}`},
		{`{"id":"row","ragged":true,"updates":[{"labels":[[1],null],"predictions":[[1],[]]}]}`,
			`{"id":"row","error":"line 1: bad case: updates[0].labels[1] is null; a row is a list of numbers, [] for an empty one"}`},
		{`{"id":"field","updates":[{"labels":null,"predictions":[[1]]}]}`,
			`{"id":"field","error":"line 1: bad case: updates[0].labels is null or missing; give rows of numbers, [] for no lists"}`},
		{`{"id":"trailing"}}`, `{"id":"trailing","error":"line 1: bad case: text after the case object"}`},
		// weights null means no weights: labels {0, 1} scored {2, 1} give AP 1/2.
		{`{"id":"ok","ties":"stable","updates":[{"labels":[[0,1]],"predictions":[[2,1]],"weights":null}]}`,
			`{"id":"ok","result":0.5,"per_list":[[0.5]],"list_weights":[[1]]}`},
	} {
		var out bytes.Buffer
		if _, err := Process(context.Background(), strings.NewReader(tc.in), &out, 0); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.String()); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}
