package ltrdata

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadSampleFile(t *testing.T) {
	d, err := ReadFile(filepath.Join("testdata", "sample.letor"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Dataset{
		NumFeatures: 5,
		Queries: []Query{
			{
				ID:     "10002",
				Labels: []float64{2, 0},
				Features: []float64{
					0.007477, 0, 1, 0, 0.007470,
					0.603738, 0, 1, 0, 0.603175,
				},
				Comments: []string{
					"docid = GX008-86-4444840 inc = 1 prob = 0.086622",
					"docid = GX037-06-11625428 inc = 0.0031586555555558 prob = 0.0897452",
				},
			},
			{
				ID:     "10032",
				Labels: []float64{1, 0},
				Features: []float64{
					0.056537, 0, 0.666667, 0, 0.056410,
					0, 1, 0, -0.0025, 700,
				},
			},
		},
	}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("ReadFile(sample.letor) =\n%+v\nwant\n%+v", d, want)
	}
	if got := d.NumDocs(); got != 4 {
		t.Errorf("NumDocs = %d, want 4", got)
	}
	if got := d.MaxLen(); got != 2 {
		t.Errorf("MaxLen = %d, want 2", got)
	}
}

func TestReadOptions(t *testing.T) {
	const in = "1 qid:a 2:5\n0 qid:a 1:3\n"
	tests := []struct {
		name    string
		opts    []ReadOption
		wantN   int
		wantErr string
	}{
		{name: "inferred", wantN: 2},
		{name: "fixed wider", opts: []ReadOption{WithNumFeatures(4)}, wantN: 4},
		{name: "fixed too narrow", opts: []ReadOption{WithNumFeatures(1)}, wantErr: `<input>:1: field 3 "2:5": feature index 2 exceeds the limit of 1 features`},
		{name: "max features", opts: []ReadOption{WithMaxFeatures(1), WithName("f.txt")}, wantErr: `f.txt:1: field 3 "2:5": feature index 2 exceeds the limit of 1 features`},
		{name: "negative", opts: []ReadOption{WithNumFeatures(-1)}, wantErr: "WithNumFeatures(-1): want >= 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Read(strings.NewReader(in), tc.opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.NumFeatures != tc.wantN {
				t.Fatalf("NumFeatures = %d, want %d", d.NumFeatures, tc.wantN)
			}
			// Document 0 has feature 2 = 5, document 1 has feature 1 = 3.
			if got := d.Queries[0].Doc(0, d.NumFeatures)[1]; got != 5 {
				t.Errorf("doc 0 feature 2 = %v, want 5", got)
			}
			if got := d.Queries[0].Doc(1, d.NumFeatures)[0]; got != 3 {
				t.Errorf("doc 1 feature 1 = %v, want 3", got)
			}
		})
	}
}

func TestReadMalformed(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line      int
		field     int
		wantInMsg string
	}{
		{"label only", "1\n", 1, 0, "want at least a label and qid:<id>"},
		{"bad label", "x qid:1 1:2\n", 1, 1, "label: not a number"},
		{"NaN label", "NaN qid:1 1:2\n", 1, 1, "label: value NaN is not finite"},
		{"missing qid", "0 1:2 2:3\n", 1, 2, "want qid:<id>"},
		{"empty qid", "0 qid: 1:2\n", 1, 2, "want qid:<id>"},
		{"no colon", "0 qid:1 1:2 7\n", 1, 4, "want <index>:<value>"},
		{"zero index", "0 qid:1\n1 qid:1 0:2\n", 2, 3, "feature index \"0\" is not a positive integer"},
		{"negative index", "0 qid:1 -1:2\n", 1, 3, "is not a positive integer"},
		{"bad value", "0 qid:1 1:abc\n", 1, 3, "feature 1: not a number"},
		{"inf value", "0 qid:1 1:2 2:+Inf\n", 1, 4, "feature 2: value +Inf is not finite"},
		{"out of range", "0 qid:1 1:1e400\n", 1, 3, "feature 1: not a number"},
		{"duplicate index", "0 qid:1 1:2 3:4 1:5\n", 1, 5, "feature 1 repeats field 3"},
		{"non-contiguous qid", "0 qid:1 1:1\n0 qid:2 1:1\n\n# note\n1 qid:1 1:1\n", 5, 2, "qid 1 appears again after other queries (its block started at line 1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), WithName("in.txt"))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if pe.File != "in.txt" || pe.Line != tc.line || pe.Field != tc.field {
				t.Errorf("error at %s:%d field %d, want in.txt:%d field %d", pe.File, pe.Line, pe.Field, tc.line, tc.field)
			}
			if !strings.Contains(err.Error(), tc.wantInMsg) || !strings.HasPrefix(err.Error(), "in.txt:") {
				t.Errorf("err = %q, want prefix in.txt: and %q", err, tc.wantInMsg)
			}
		})
	}
}

func TestReadLongLine(t *testing.T) {
	in := "0 qid:1 1:" + strings.Repeat("1", maxLineBytes) + "\n"
	_, err := Read(strings.NewReader(in))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "token too long") {
		t.Fatalf("err = %v, want a line-1 ParseError about the line length", err)
	}
}

func TestWriteHandWorked(t *testing.T) {
	d := &Dataset{NumFeatures: 2, Queries: []Query{
		{ID: "q1", Labels: []float64{3, 0}, Features: []float64{0.5, -1, 1e-7, 0}, Comments: []string{"docid = a", ""}},
		{ID: "q2", Labels: []float64{1.5}, Features: []float64{2, 1.25}},
	}}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	want := "3 qid:q1 1:0.5 2:-1 # docid = a\n0 qid:q1 1:1e-07 2:0\n1.5 qid:q2 1:2 2:1.25\n"
	if buf.String() != want {
		t.Fatalf("Write =\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestWriteRejectsInvalid(t *testing.T) {
	base := func() *Dataset {
		return &Dataset{NumFeatures: 1, Queries: []Query{{ID: "a", Labels: []float64{1}, Features: []float64{2}}}}
	}
	tests := []struct {
		name   string
		modify func(*Dataset)
		want   string
	}{
		{"id with space", func(d *Dataset) { d.Queries[0].ID = "a b" }, `id "a b" is empty or contains whitespace`},
		{"empty id", func(d *Dataset) { d.Queries[0].ID = "" }, `id "" is empty`},
		{"id with hash", func(d *Dataset) { d.Queries[0].ID = "a#" }, `contains whitespace or '#'`},
		{"duplicate id", func(d *Dataset) { d.Queries = append(d.Queries, d.Queries[0]) }, `query 1: id "a" already used by query 0`},
		{"short features", func(d *Dataset) { d.Queries[0].Features = nil }, "0 feature values for 1 documents of 1 features, want 1"},
		{"NaN feature", func(d *Dataset) { d.Queries[0].Features[0] = nan() }, "document 0 feature 1: value NaN is not finite"},
		{"Inf label", func(d *Dataset) { d.Queries[0].Labels[0] = inf() }, "document 0: label +Inf is not finite"},
		{"comment count", func(d *Dataset) { d.Queries[0].Comments = []string{"x", "y"} }, "2 comments for 1 documents"},
		{"comment newline", func(d *Dataset) { d.Queries[0].Comments = []string{"x\ny"} }, "line break"},
		{"comment padded", func(d *Dataset) { d.Queries[0].Comments = []string{" x"} }, "surrounding whitespace"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := base()
			tc.modify(d)
			err := Write(&bytes.Buffer{}, d)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	c := DefaultConfig()
	c.Queries = 30
	s, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	withComments := &Dataset{NumFeatures: 3, Queries: []Query{
		{ID: "x", Labels: []float64{-1, 0.25}, Features: []float64{1, 2, 3, 4, 5, 6}, Comments: []string{"c # with hash", ""}},
		{ID: "y:z", Labels: []float64{4}, Features: []float64{-0.1, 1e300, 5e-324}},
	}}
	for name, d := range map[string]*Dataset{"train": s.Train, "validation": s.Validation, "comments": withComments} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "d.txt")
			if err := WriteFile(path, d); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, d) {
				t.Fatalf("round trip changed the data:\n got %+v\nwant %+v", got.Queries[0], d.Queries[0])
			}
		})
	}
}

func TestWidenAlign(t *testing.T) {
	a := &Dataset{NumFeatures: 1, Queries: []Query{{ID: "1", Labels: []float64{0, 1}, Features: []float64{7, 8}}}}
	b := &Dataset{NumFeatures: 3, Queries: []Query{{ID: "2", Labels: []float64{1}, Features: []float64{1, 2, 3}}}}
	if err := Align(a, b); err != nil {
		t.Fatal(err)
	}
	if want := []float64{7, 0, 0, 8, 0, 0}; a.NumFeatures != 3 || !reflect.DeepEqual(a.Queries[0].Features, want) {
		t.Fatalf("widened = %d %v, want 3 %v", a.NumFeatures, a.Queries[0].Features, want)
	}
	if want := []float64{1, 2, 3}; !reflect.DeepEqual(b.Queries[0].Features, want) {
		t.Fatalf("b changed to %v", b.Queries[0].Features)
	}
	if err := a.Widen(2); err == nil || !strings.Contains(err.Error(), "cannot narrow dataset from 3 to 2 features") {
		t.Fatalf("Widen(2) err = %v", err)
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "nope.txt"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want ErrNotExist", err)
	}
}
