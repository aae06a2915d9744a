package runio

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// SubtopicJudgment is one line of a subtopic qrels file.
type SubtopicJudgment struct {
	// Subtopic is the index of the line's subtopic id in
	// SubtopicQrels.Subtopics.
	Subtopic int
	// Doc is the docno.
	Doc string
	// Rel is the label.
	Rel int64
}

// SubtopicQrels are the judgments of a subtopic qrels file, the format of
// ndeval and of ir_measures' diversity measures: four fields a line, `qid
// subtopic docno rel`, rel an integer (TREC qrels with the subtopic in the
// iteration column).
type SubtopicQrels struct {
	// QIDs are the topics in the order they first appear.
	QIDs []string
	// Topics holds each topic's lines in file order.
	Topics map[string][]SubtopicJudgment
	// Subtopics are the subtopic ids of the whole file in the order they
	// first appear: ir_measures numbers them so, and ndeval adds a
	// document's gains in that order.
	Subtopics []string
}

// ReadSubtopicQrels reads a subtopic qrels file; name is used in errors,
// which give the line and the field.
func ReadSubtopicQrels(ctx context.Context, r io.Reader, name string) (*SubtopicQrels, error) {
	q := &SubtopicQrels{Topics: map[string][]SubtopicJudgment{}}
	index := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	var line int64
	for sc.Scan() {
		line++
		if line%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, &ParseError{File: name, Line: line, Value: truncate(sc.Text()),
				Msg: fmt.Sprintf("%d fields, want 4 (qid subtopic docno rel): a subtopic qrels line", len(f))}
		}
		rel, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Field: "rel", Value: truncate(f[3]),
				Msg: "not an integer label (subtopic qrels, field 4)"}
		}
		s, ok := index[f[1]]
		if !ok {
			s = len(q.Subtopics)
			index[f[1]] = s
			q.Subtopics = append(q.Subtopics, f[1])
		}
		if _, seen := q.Topics[f[0]]; !seen {
			q.QIDs = append(q.QIDs, f[0])
		}
		q.Topics[f[0]] = append(q.Topics[f[0]], SubtopicJudgment{Subtopic: s, Doc: f[2], Rel: rel})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", name, line+1, err)
	}
	return q, nil
}

// ReadSubtopicQrelsFile reads the subtopic qrels file at path, gzipped
// or not.
func ReadSubtopicQrelsFile(ctx context.Context, path string) (*SubtopicQrels, error) {
	if path == "-" {
		return nil, errors.New("subtopic qrels: read from a file, not standard input (the diversity measures read the qrels twice)")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := MaybeGunzip(f, path, 1<<16)
	if err != nil {
		return nil, err
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	return ReadSubtopicQrels(ctx, r, path)
}

// truncate shortens a value quoted in an error.
func truncate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
