package runio

import (
	"bytes"
	"math"
	"testing"
)

// Infinite labels (inf, -inf, Infinity, 1e400) are rejected by every parser
// with the file, line and field; a NaN label stays a mask where it was one.
func TestInfiniteLabels(t *testing.T) {
	const msg = "infinite label (labels must be finite; NaN masks an item)"
	type labelCase struct {
		name string
		open func() (Reader, error)
		want string
	}
	var tests []labelCase
	tsv := func(label string) func() (Reader, error) {
		return func() (Reader, error) {
			return NewDelimitedReader(bg, bytes.NewReader([]byte("qid\tlabel\tscore\n1\t0\t1\n1\t"+label+"\t2\n")), "in.tsv", '\t', Options{})
		}
	}
	for _, v := range []string{"inf", "-inf", "+Inf", "Infinity", "1e400", "-1e999"} {
		tests = append(tests, labelCase{"tsv " + v, tsv(v), `in.tsv:3: field label: value "` + v + `": ` + msg})
	}
	jsonl := func(in string) func() (Reader, error) {
		return func() (Reader, error) {
			return NewJSONLReader(bg, bytes.NewReader([]byte(in)), "in.jsonl", Options{})
		}
	}
	trec := func(rel string) func() (Reader, error) {
		return func() (Reader, error) {
			return NewTRECReader(bg, bytes.NewReader([]byte("1 0 a 1\n1 0 b "+rel+"\n")), bytes.NewReader([]byte("1 Q0 a 1 1 t\n")), "qrels", "run", Options{})
		}
	}
	tests = append(tests, []labelCase{
		{"jsonl item", jsonl(`{"qid":"1","label":Infinity,"score":1}` + "\n"), `in.jsonl:1: field label: value "Infinity": ` + msg},
		{"jsonl item 1e400", jsonl(`{"qid":"1","label":1e400,"score":1}` + "\n"), `in.jsonl:1: field label: value "1e400": ` + msg},
		{"jsonl list", jsonl(`{"qid":"1","labels":[0,-Infinity],"scores":[1,2]}` + "\n"), `in.jsonl:1: field labels[1]: value "-Infinity": ` + msg},
		{"trec inf", trec("inf"), `qrels:2: field rel: value "inf": infinite relevance (judgments must be finite)`},
		{"trec 1e400", trec("1e400"), `qrels:2: field rel: value "1e400": infinite relevance (judgments must be finite)`},
		{"parquet", func() (Reader, error) {
			inf := math.Inf(-1)
			data := writeParquet(t, []optionalRow{{"a", 1, &inf}})
			return NewParquetReader(bg, bytes.NewReader(data), int64(len(data)), "p.parquet", Options{Columns: Columns{Label: "score", Score: "label"}})
		}, `p.parquet:1: field score: value "-Inf": ` + msg},
	}...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAllOrErr(tc.open())
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v\nwant %s", err, tc.want)
			}
		})
	}
	// Infinite scores stay legal (TF-Ranking ranks them), NaN labels stay
	// masks.
	got, err := readAllOrErr(NewDelimitedReader(bg, bytes.NewReader([]byte("qid\tlabel\tscore\n1\tnan\tinf\n1\t1\t-1e400\n")), "in.tsv", '\t', Options{}))
	if err != nil || len(got) != 1 || !math.IsNaN(got[0].Labels[0]) || !math.IsInf(got[0].Scores[0], 1) || !math.IsInf(got[0].Scores[1], -1) {
		t.Fatalf("got %+v, %v", got, err)
	}
}
