package runio

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestReadSubtopicQrels(t *testing.T) {
	in := "7 b d1 1\n7 a d2 0\n\n3 a d1 -1\n3 c d9 2\n7 c d1 1\n"
	q, err := ReadSubtopicQrels(context.Background(), strings.NewReader(in), "div.qrels")
	if err != nil {
		t.Fatal(err)
	}
	want := &SubtopicQrels{
		QIDs:      []string{"7", "3"},
		Subtopics: []string{"b", "a", "c"},
		Topics: map[string][]SubtopicJudgment{
			"7": {{0, "d1", 1}, {1, "d2", 0}, {2, "d1", 1}},
			"3": {{1, "d1", -1}, {2, "d9", 2}},
		},
	}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("got %+v, want %+v", q, want)
	}
}

func TestReadSubtopicQrelsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"7 b d1 1\n7 b d2 1.5\n", `div.qrels:2: field rel: value "1.5": not an integer label`},
		{"7 b d1 1\n7 d2 1\n", `div.qrels:2: line "7 d2 1": 3 fields, want 4 (qid subtopic docno rel)`},
	} {
		_, err := ReadSubtopicQrels(context.Background(), strings.NewReader(c.in), "div.qrels")
		var pe *ParseError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a ParseError with %q", c.in, err, c.want)
		}
	}
}
