package runio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
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
	// The TREC reader's lines and fields: its line limit (--max-line-bytes),
	// CRLF and blank lines, and its field separators.
	lr := newLineReader(r, name, &Options{})
	var f [][]byte
	for n := 1; ; n++ {
		b, err := lr.next()
		if err == io.EOF {
			return q, nil
		}
		if err != nil {
			return nil, err
		}
		if n%65536 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		// At most 5 fields are kept: a line of millions of fields costs
		// no memory, and the error counts the rest.
		f = splitFields(b, f[:0], ctlSpace, 5)
		if len(f) != 4 {
			return nil, &ParseError{File: name, Line: lr.line, Value: clip(b),
				Msg: fmt.Sprintf("%d fields, want 4 (qid subtopic docno rel): a subtopic qrels line", countFields(b, ctlSpace))}
		}
		rel, err := strconv.ParseInt(string(f[3]), 10, 64)
		if err != nil {
			return nil, &ParseError{File: name, Line: lr.line, Field: "rel", Value: clip(f[3]),
				Msg: "not an integer label (subtopic qrels, field 4)"}
		}
		s, ok := index[string(f[1])]
		if !ok {
			s = len(q.Subtopics)
			index[string(f[1])] = s
			q.Subtopics = append(q.Subtopics, string(f[1]))
		}
		qid := string(f[0])
		if _, seen := q.Topics[qid]; !seen {
			q.QIDs = append(q.QIDs, qid)
		}
		q.Topics[qid] = append(q.Topics[qid], SubtopicJudgment{Subtopic: s, Doc: string(f[2]), Rel: rel})
	}
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
