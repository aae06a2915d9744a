package trecfile

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

func TestRunErrorsNameFileLineField(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 Q0 a 1 1 r\n1 Q0 b 2\n", "run.txt:2: field 5 (score): missing"},
		{"1 Q0 a 1 1 r\n\n1\n", "run.txt:3: field 2 (iteration): missing"},
		{"1 Q0 a\x00 1 1 r\n", "run.txt:1: field line: NUL byte"},
		{"1 Q0 " + strings.Repeat("x", MaxLine+10) + " 1 1 r\n", "run.txt:1: field line: longer than"},
	} {
		s := NewRunScanner(strings.NewReader(c.in), "run.txt", treceval.V10)
		_, err := CollectRun(context.Background(), s)
		var fe *FieldError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestQrelsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"1 0 a 1\n\n", "q:2: field 1 (qid): missing"},
		{"1 0 a 1 2\n", "q:1: field 5: unexpected"},
		{"1 0 a\n", "q:1: field 4 (relevance): missing"},
	} {
		_, err := ParseQrels("q", []byte(c.in), treceval.V10)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// A comment line is data for 9.0.8 (here a topic "#") and skipped by 10.0.
func TestCommentsByVersion(t *testing.T) {
	in := []byte("# judged by ab\n1 0 a 1\n")
	q10, err := ParseQrels("q", in, treceval.V10)
	if err != nil || len(q10.Topics) != 1 {
		t.Fatalf("10.0: %v %+v", err, q10)
	}
	q9, err := ParseQrels("q", in, treceval.V908)
	if err != nil || len(q9.Topics) != 2 || q9.Topics[0].Qid != "#" {
		t.Fatalf("9.0.8: %v %+v", err, q9)
	}
	run := "# a comment in a run\n1 Q0 a 1 1 r\n"
	if _, err := CollectRun(context.Background(), NewRunScanner(bytes.NewReader([]byte(run)), "r", treceval.V908)); err != nil {
		t.Fatal(err)
	}
}
