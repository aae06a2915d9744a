package runio

import (
	"strings"
	"testing"
)

func TestParsePositions(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{"", nil, ""},
		{"qid,doc,label,score", []string{"qid", "doc", "label", "score"}, ""},
		{"score,-,qid,-,label,weight", []string{"score", "-", "qid", "-", "label", "weight"}, ""},
		{"qid,label", nil, `no score column in "qid,label" (qid, label and score are required)`},
		{"qid,label,score,qid", nil, `column qid appears twice in "qid,label,score,qid"`},
		{"qid,rel,score", nil, `unknown column "rel" in "qid,rel,score" (want qid, doc, label, score, weight, or - to skip a column)`},
	}
	for _, tc := range tests {
		got, err := ParsePositions(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("%q: error %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !sameStrings(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// Headerless TSV and CSV read with positional columns give what the same
// data with a header gives; a file without a header and without --columns
// fails with a message that says how to give them.
func TestHeaderlessColumns(t *testing.T) {
	body := "q1\td1\t1\t0.5\tx\nq1\td2\t0\t0.25\ty\nq2\td1\t2\t-1\tz\n"
	want := []Query{
		{QID: "q1", Line: 1, Labels: []float64{1, 0}, Scores: []float64{0.5, 0.25}, Docs: []string{"d1", "d2"}},
		{QID: "q2", Line: 3, Labels: []float64{2}, Scores: []float64{-1}, Docs: []string{"d1"}},
	}
	for _, delim := range []byte{'\t', ','} {
		in := strings.ReplaceAll(body, "\t", string(delim))
		got, err := readAllOrErr(NewDelimitedReader(bg, strings.NewReader(in), "h", delim,
			Options{Positions: []string{"qid", "doc", "label", "score", "-"}, KeepDocs: true}))
		if err != nil {
			t.Fatal(err)
		}
		checkQueries(t, got, want)
		// The same rows under a header.
		hdr := strings.ReplaceAll("qid\tdoc\tlabel\tscore\tnote\n", "\t", string(delim))
		withHeader, err := readAllOrErr(NewDelimitedReader(bg, strings.NewReader(hdr+in), "h", delim, Options{KeepDocs: true}))
		if err != nil {
			t.Fatal(err)
		}
		for i := range withHeader {
			withHeader[i].Line--
		}
		checkQueries(t, withHeader, want)
	}
	// Weights by position, and errors that name the field by its role.
	got, err := readAllOrErr(NewDelimitedReader(bg, strings.NewReader("1\t2\t0.5\t3\n"), "h", '\t', Options{Positions: []string{"qid", "weight", "score", "label"}}))
	if err != nil || len(got) != 1 || got[0].Weights[0] != 2 || got[0].Labels[0] != 3 {
		t.Fatalf("weights by position: %+v, %v", got, err)
	}
	_, err = readAllOrErr(NewDelimitedReader(bg, strings.NewReader("1\t1\t0.5\n1\tx\t0.5\n"), "h", '\t', Options{Positions: []string{"qid", "label", "score"}}))
	if err == nil || err.Error() != `h:2: field label: value "x": not a number` {
		t.Errorf("bad label: %v", err)
	}
	_, err = readAllOrErr(NewDelimitedReader(bg, strings.NewReader("1\t1\n"), "h", '\t', Options{Positions: []string{"qid", "label", "score"}}))
	if err == nil || err.Error() != `h:1: line "1\t1": expected 3 fields as given by --columns, found 2` {
		t.Errorf("short line: %v", err)
	}
	// Without --columns the first data line is taken for a header.
	_, err = readAllOrErr(NewDelimitedReader(bg, strings.NewReader(body), "run.tsv", '\t', Options{}))
	if want := `run.tsv:1: field header: value "q1\td1\t1\t0.5\tx": no column named "qid" (the first line must be a header naming the columns; for a file without one, give them in order with --columns, as in --columns qid,doc,label,score)`; err == nil || err.Error() != want {
		t.Errorf("headerless without --columns:\n got %v\nwant %s", err, want)
	}
}
