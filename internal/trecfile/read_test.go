package trecfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
)

// MaxLine counts the line terminator, "\r\n" as two bytes; a last line
// without one may be MaxLine bytes long. (The boundaries of the trec_eval
// front end since it has had a limit; runio's default mode counts neither
// terminator byte.)
func TestLineLimitBoundary(t *testing.T) {
	line := func(pre, post string, n int) string {
		return pre + strings.Repeat("x", n-len(pre)-len(post)) + post
	}
	tooLong := fmt.Sprintf("field line: longer than %d bytes", MaxLine)
	for _, c := range []struct {
		n    int
		term string
		ok   bool
	}{
		{MaxLine - 1, "\n", true},
		{MaxLine, "\n", false},
		{MaxLine - 2, "\r\n", true},
		{MaxLine - 1, "\r\n", false},
		{MaxLine, "", true},
		{MaxLine + 1, "", false},
	} {
		run := line("1 Q0 ", " 1 1 r", c.n) + c.term
		_, err := CollectRun(context.Background(), NewRunScanner(strings.NewReader(run), "r", treceval.V10))
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "r:1: "+tooLong) {
			t.Errorf("run line of %d bytes + %q: %v", c.n, c.term, err)
		}
		qrels := line("1 0 ", " 1", c.n) + c.term
		_, err = IndexQrels(context.Background(), strings.NewReader(qrels), "q", treceval.V908)
		if c.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "q:1: "+tooLong) {
			t.Errorf("qrels line of %d bytes + %q: %v", c.n, c.term, err)
		}
	}
}

// Numbers are read as C's atof and atol read them (trec_eval's rules):
// a number's longest valid prefix, NaN and Inf accepted, no number 0;
// runio's default mode rejects all but the plain numbers.
func TestNumbersAsC(t *testing.T) {
	run := "1 Q0 a 1 1.5abc r\n1 Q0 b 2 nan r\n1 Q0 c 3 -inf r\n1 Q0 d 4 x r\n"
	r, err := CollectRun(context.Background(), NewRunScanner(strings.NewReader(run), "r", treceval.V10))
	if err != nil {
		t.Fatal(err)
	}
	d := r.Topics[0].Docs
	if len(d) != 4 || d[0].Score != 1.5 || !math.IsNaN(d[1].Score) || !math.IsInf(d[2].Score, -1) || d[3].Score != 0 {
		t.Errorf("scores %+v, want 1.5 NaN -Inf 0", d)
	}
	q, err := ParseQrels("q", []byte("1 0 a 2x\n1 0 b -1\n1 0 c +3\n1 0 d y\n"), treceval.V908)
	if err != nil {
		t.Fatal(err)
	}
	var rels []int64
	for _, j := range q.Topics[0].Judged {
		rels = append(rels, j.Rel)
	}
	if fmt.Sprint(rels) != "[2 -1 3 0]" || q.RelAbove0() != 2 {
		t.Errorf("rels %v (%d above 0), want [2 -1 3 0] (2)", rels, q.RelAbove0())
	}
	// The same lines in runio's mode (rankmetrics eval).
	for _, c := range []struct{ qrels, run, want string }{
		{"1 0 a 1\n", "1 Q0 a 1 1.5abc r\n", `run:1: field score: value "1.5abc": not a number`},
		{"1 0 a 1\n", "1 Q0 a 1 nan r\n", `run:1: field score: value "nan": NaN score`},
		{"1 0 a 2x\n", "1 Q0 a 1 1 r\n", `qrels:1: field rel: value "2x": not a number`},
	} {
		rd, _ := runio.NewTRECReader(context.Background(), strings.NewReader(c.qrels), strings.NewReader(c.run), "qrels", "run", runio.Options{})
		var qq runio.Query
		if err := rd.Next(&qq); err == nil || err.Error() != c.want {
			t.Errorf("runio: %v, want %s", err, c.want)
		}
		rd.Close()
	}
}

// Scattered qrels are indexed with ErrScatteredQrels and parsed whole
// with the same lines; a comment between blocks belongs to neither.
func TestQrelsBlocks(t *testing.T) {
	in := "2 0 a 1\n2 0 b 0\n# note\n1 0 c 3\n"
	x, err := IndexQrels(context.Background(), strings.NewReader(in), "q", treceval.V10)
	if err != nil {
		t.Fatal(err)
	}
	if x.NumTopics() != 2 || x.Qid(0) != "1" || x.Qid(1) != "2" || x.Index("2") != 1 || x.Index("3") != -1 {
		t.Fatalf("topics %d %q %q", x.NumTopics(), x.Qid(0), x.Qid(1))
	}
	if j, err := x.Judged(1); err != nil || fmt.Sprint(j) != "[{a 1} {b 0}]" {
		t.Errorf("topic 2: %v %v", j, err)
	}
	if j, err := x.Judged(0); err != nil || fmt.Sprint(j) != "[{c 3}]" {
		t.Errorf("topic 1: %v %v", j, err)
	}
	// 9.0.8 reads the comment as a malformed line.
	_, err = IndexQrels(context.Background(), strings.NewReader(in), "q", treceval.V908)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Line != 3 || fe.Field != "3 (docno)" {
		t.Errorf("9.0.8: %v", err)
	}
	_, err = IndexQrels(context.Background(), bytes.NewReader([]byte(in+"2 0 d 1\n")), "q", treceval.V10)
	if !errors.Is(err, ErrScatteredQrels) {
		t.Errorf("scattered: %v", err)
	}
}
