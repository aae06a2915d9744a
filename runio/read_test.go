package runio

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// The expected queries below are written by hand from the input text.

func TestDelimitedReader(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name  string
		delim byte
		opts  Options
		in    string
		want  []Query
		hasW  bool
	}{
		{
			name: "tsv basic", delim: '\t',
			in: "qid\tlabel\tscore\n1\t1\t0.5\n1\t0\t0.25\n2\t2\t-3\n10\t0\t1e2\n",
			want: []Query{
				{QID: "1", Line: 2, Labels: []float64{1, 0}, Scores: []float64{0.5, 0.25}},
				{QID: "2", Line: 4, Labels: []float64{2}, Scores: []float64{-3}},
				{QID: "10", Line: 5, Labels: []float64{0}, Scores: []float64{100}},
			},
		},
		{
			name: "tsv crlf, bom, blank lines, extra column, reordered", delim: '\t',
			in: "\xef\xbb\xbfscore\textra\tqid\tlabel\r\n0.5\tx\tq1\t1\r\n\r\n-inf\ty\tq1\t0\r\n",
			want: []Query{
				{QID: "q1", Line: 2, Labels: []float64{1, 0}, Scores: []float64{0.5, -inf}},
			},
		},
		{
			name: "tsv weights", delim: '\t', hasW: true,
			in: "qid\tlabel\tscore\tweight\na\t1\t2\t0.5\na\t0\t1\t3\n",
			want: []Query{
				{QID: "a", Line: 2, Labels: []float64{1, 0}, Scores: []float64{2, 1}, Weights: []float64{0.5, 3}},
			},
		},
		{
			name: "custom column names", delim: '\t', hasW: true,
			opts: Options{Columns: Columns{QID: "query", Label: "rel", Score: "pred", Weight: "w"}},
			in:   "query\trel\tpred\tw\tweight\nz\t3\t0.1\t2\t9\n",
			want: []Query{{QID: "z", Labels: []float64{3}, Scores: []float64{0.1}, Weights: []float64{2}}},
		},
		{
			name: "csv quoted", delim: ',',
			opts: Options{KeepDocs: true},
			in:   "qid,doc,label,score\n\"q,1\",\"d \"\"x\"\"\",1,0.5\n\"q,1\",d2,0,\"0.25\"\nq2,d1,0,1\n",
			want: []Query{
				{QID: "q,1", Line: 2, Docs: []string{`d "x"`, "d2"}, Labels: []float64{1, 0}, Scores: []float64{0.5, 0.25}},
				{QID: "q2", Line: 4, Docs: []string{"d1"}, Labels: []float64{0}, Scores: []float64{1}},
			},
		},
		{
			name: "csv empty trailing field is a field", delim: ',',
			in:   "qid,label,score,note\nq,1,2,\n",
			want: []Query{{QID: "q", Labels: []float64{1}, Scores: []float64{2}}},
		},
		{
			name: "header only", delim: '\t',
			in: "qid\tlabel\tscore\n",
		},
		{
			name: "no trailing newline", delim: '\t',
			in:   "qid\tlabel\tscore\n7\t1\t1",
			want: []Query{{QID: "7", Labels: []float64{1}, Scores: []float64{1}}},
		},
		{
			name: "dedupe first", delim: '\t', opts: Options{Dedupe: DedupeFirst, KeepDocs: true},
			in:   "qid\tdoc\tlabel\tscore\n1\ta\t1\t0.5\n1\tb\t0\t0.7\n1\ta\t0\t0.9\n",
			want: []Query{{QID: "1", Docs: []string{"a", "b"}, Labels: []float64{1, 0}, Scores: []float64{0.5, 0.7}}},
		},
		{
			name: "dedupe max keeps first position", delim: '\t', opts: Options{Dedupe: DedupeMax, KeepDocs: true},
			in:   "qid\tdoc\tlabel\tscore\n1\ta\t1\t0.5\n1\tb\t0\t0.7\n1\ta\t0\t0.9\n1\ta\t2\t0.1\n",
			want: []Query{{QID: "1", Docs: []string{"a", "b"}, Labels: []float64{0, 0}, Scores: []float64{0.9, 0.7}}},
		},
		{
			name: "group unsorted", delim: '\t', opts: Options{Unsorted: UnsortedGroup},
			in: "qid\tlabel\tscore\nb\t1\t1\na\t0\t2\nb\t0\t3\n",
			want: []Query{
				{QID: "b", Line: 2, Labels: []float64{1, 0}, Scores: []float64{1, 3}},
				{QID: "a", Line: 3, Labels: []float64{0}, Scores: []float64{2}},
			},
		},
		{
			name: "nan label passes through (the metric masks it)", delim: '\t',
			in:   "qid\tlabel\tscore\n1\tNaN\t1\n",
			want: []Query{{QID: "1", Labels: []float64{math.NaN()}, Scores: []float64{1}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewDelimitedReader(bg, strings.NewReader(tc.in), "in", tc.delim, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.HasWeights() != tc.hasW {
				t.Errorf("HasWeights = %v, want %v", r.HasWeights(), tc.hasW)
			}
			got, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			checkQueries(t, got, tc.want)
		})
	}
}

func TestDelimitedStats(t *testing.T) {
	in := "qid\tdoc\tlabel\tscore\n1\ta\t1\t1\n\n1\ta\t1\t2\n2\tb\t0\t0\n"
	r, err := NewDelimitedReader(bg, strings.NewReader(in), "in", '\t', Options{Dedupe: DedupeFirst})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := readAll(r); err != nil {
		t.Fatal(err)
	}
	want := Stats{Rows: 3, Queries: 2, Items: 2, BlankLines: 1, DuplicatesDropped: 1}
	if got := r.Stats(); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

func TestJSONLReader(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   string
		want []Query
	}{
		{
			name: "items",
			in: `{"qid":"1","label":1,"score":0.5}
{"score":-2.5e-1,"label":0,"qid":"1","extra":{"nested":[1,"x",{"y":null}],"t":true}}

{"qid":2,"label":2,"score":3}
`,
			want: []Query{
				{QID: "1", Line: 1, Labels: []float64{1, 0}, Scores: []float64{0.5, -0.25}},
				{QID: "2", Line: 4, Labels: []float64{2}, Scores: []float64{3}},
			},
		},
		{
			name: "lists with weights and docs",
			opts: Options{KeepDocs: true},
			in: `{"qid":"a","docs":["d1","d\u00e92"],"labels":[1,0],"scores":[0.5,Infinity],"weights":[1,2]}
{"qid":"b","docs":["x"],"labels":[0],"scores":[-Infinity],"weights":[0]}
`,
			want: []Query{
				{QID: "a", Line: 1, Docs: []string{"d1", "dé2"}, Labels: []float64{1, 0}, Scores: []float64{0.5, math.Inf(1)}, Weights: []float64{1, 2}},
				{QID: "b", Line: 2, Docs: []string{"x"}, Labels: []float64{0}, Scores: []float64{math.Inf(-1)}, Weights: []float64{0}},
			},
		},
		{
			name: "item lines and list lines of one qid join",
			in: `{"qid":"q","labels":[1,0],"scores":[2,1]}
{"qid":"q","label":1,"score":0}
{"qid":"r","labels":[0],"scores":[5]}
`,
			want: []Query{
				{QID: "q", Line: 1, Labels: []float64{1, 0, 1}, Scores: []float64{2, 1, 0}},
				{QID: "r", Line: 3, Labels: []float64{0}, Scores: []float64{5}},
			},
		},
		{
			name: "escapes in qid",
			in:   `{"qid":"a\"b\\c\/\ud83d\ude00","label":0,"score":0}` + "\n",
			want: []Query{{QID: "a\"b\\c/😀", Labels: []float64{0}, Scores: []float64{0}}},
		},
		{
			name: "custom keys",
			opts: Options{Columns: Columns{QID: "query_id", Label: "y", Score: "s"}},
			in:   `{"query_id":"1","ys":[1,0],"ss":[0.2,0.1]}` + "\n",
			want: []Query{{QID: "1", Labels: []float64{1, 0}, Scores: []float64{0.2, 0.1}}},
		},
		{
			name: "empty input",
			in:   "\n\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewJSONLReader(bg, strings.NewReader(tc.in), "in", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			checkQueries(t, got, tc.want)
		})
	}
}

func TestTRECReader(t *testing.T) {
	tests := []struct {
		name      string
		opts      Options
		qrels     string
		run       string
		want      []Query
		wantStats Stats
	}{
		{
			name: "join, unjudged, unranked, run-only and qrels-only",
			opts: Options{KeepDocs: true},
			qrels: "1 0 a 1\n1 0 b 0\n1 0 c 2\n1 0 d -1\n" +
				"3 0 x 1\n" +
				"4 0 y 0\n",
			run: "1 Q0 c 1 0.9 t\n1 Q0 z 2 0.5 t\n1\tQ0\ta  3\t0.5\tt\n" +
				"2 Q0 q 1 1 t\n" +
				"4 Q0 y 1 7 t\n",
			want: []Query{
				{QID: "1", Line: 1, Docs: []string{"c", "z", "a"}, Labels: []float64{2, 0, 1}, Scores: []float64{0.9, 0.5, 0.5},
					UnrankedLabels: []float64{0, -1}, UnrankedDocs: []string{"b", "d"}},
				{QID: "2", Line: 4, Match: MatchRunOnly, Docs: []string{"q"}, Labels: []float64{0}, Scores: []float64{1}},
				{QID: "3", Line: 5, Match: MatchQrelsOnly, UnrankedLabels: []float64{1}, UnrankedDocs: []string{"x"}},
				{QID: "4", Line: 5, Docs: []string{"y"}, Labels: []float64{0}, Scores: []float64{7}},
			},
			wantStats: Stats{Rows: 5, Queries: 4, Items: 5, QrelsRows: 6, RunOnlyQueries: 1, QrelsOnlyQueries: 1,
				UnjudgedItems: 2, UnrankedJudged: 3, UnrankedRelevant: 1},
		},
		{
			name:  "numeric qid order streams",
			qrels: "9 0 a 1\n10 0 a 1\n",
			run:   "9 Q0 a 1 1 t\n10 Q0 b 1 1 t\n",
			want: []Query{
				{QID: "9", Labels: []float64{1}, Scores: []float64{1}},
				{QID: "10", Labels: []float64{0}, Scores: []float64{1}, UnrankedLabels: []float64{1}},
			},
			wantStats: Stats{Rows: 2, Queries: 2, Items: 2, QrelsRows: 2, UnjudgedItems: 1, UnrankedJudged: 1, UnrankedRelevant: 1},
		},
		{
			name:  "grouped unsorted: run order, then qrels-only",
			opts:  Options{Unsorted: UnsortedGroup},
			qrels: "b 0 d1 1\nz 0 d9 1\na 0 d2 1\nb 0 d3 2\n",
			run:   "b Q0 d3 1 3 t\na Q0 d2 1 1 t\nb Q0 d1 2 2 t\nc Q0 d4 1 0 t\n",
			want: []Query{
				{QID: "b", Line: 1, Labels: []float64{2, 1}, Scores: []float64{3, 2}},
				{QID: "a", Line: 2, Labels: []float64{1}, Scores: []float64{1}},
				{QID: "c", Line: 4, Match: MatchRunOnly, Labels: []float64{0}, Scores: []float64{0}},
				{QID: "z", Line: 2, Match: MatchQrelsOnly, UnrankedLabels: []float64{1}},
			},
			wantStats: Stats{Rows: 4, Queries: 4, Items: 4, QrelsRows: 4, RunOnlyQueries: 1, QrelsOnlyQueries: 1,
				UnjudgedItems: 1, UnrankedJudged: 1, UnrankedRelevant: 1},
		},
		{
			name:  "dedupe first in run and qrels",
			opts:  Options{Dedupe: DedupeFirst},
			qrels: "1 0 a 1\n1 0 a 3\n1 0 b 2\n1 0 b 0\n",
			run:   "1 Q0 a 1 1 t\n1 Q0 a 2 5 t\n",
			want:  []Query{{QID: "1", Labels: []float64{1}, Scores: []float64{1}, UnrankedLabels: []float64{2}}},
			wantStats: Stats{Rows: 2, Queries: 1, Items: 1, QrelsRows: 4, DuplicatesDropped: 3,
				UnrankedJudged: 1, UnrankedRelevant: 1},
		},
		{
			name:  "dedupe max in run and qrels",
			opts:  Options{Dedupe: DedupeMax},
			qrels: "1 0 a 1\n1 0 a 3\n1 0 b 0\n1 0 b 2\n",
			run:   "1 Q0 a 1 1 t\n1 Q0 c 2 2 t\n1 Q0 a 3 5 t\n",
			want:  []Query{{QID: "1", Labels: []float64{3, 0}, Scores: []float64{5, 2}, UnrankedLabels: []float64{2}}},
			wantStats: Stats{Rows: 3, Queries: 1, Items: 2, QrelsRows: 4, DuplicatesDropped: 3, UnjudgedItems: 1,
				UnrankedJudged: 1, UnrankedRelevant: 1},
		},
		{
			name:      "blank lines and crlf",
			qrels:     "1 0 a 1\r\n\r\n",
			run:       "\n1 Q0 a 1 1 t\r\n",
			want:      []Query{{QID: "1", Labels: []float64{1}, Scores: []float64{1}}},
			wantStats: Stats{Rows: 1, Queries: 1, Items: 1, QrelsRows: 1, BlankLines: 2},
		},
		{
			name: "empty files",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewTRECReader(bg, strings.NewReader(tc.qrels), strings.NewReader(tc.run), "qrels", "run", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(r)
			if err != nil {
				t.Fatal(err)
			}
			checkQueries(t, got, tc.want)
			if st := r.Stats(); st != tc.wantStats {
				t.Errorf("stats %+v\nwant  %+v", st, tc.wantStats)
			}
		})
	}
}

// TestTRECCloseEarly stops reading after one query; Close must not hang.
func TestTRECCloseEarly(t *testing.T) {
	var qrels, run strings.Builder
	for q := 1; q <= 500; q++ {
		for d := 0; d < 10; d++ {
			qrels.WriteString(strings.Join([]string{strconv.Itoa(q), "0", "d" + strconv.Itoa(d), strconv.Itoa(d % 2)}, " ") + "\n")
			run.WriteString(strings.Join([]string{strconv.Itoa(q), "Q0", "d" + strconv.Itoa(d), strconv.Itoa(d + 1), strconv.Itoa(10 - d), "t"}, " ") + "\n")
		}
	}
	r, err := NewTRECReader(bg, strings.NewReader(qrels.String()), strings.NewReader(run.String()), "q", "r", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var q Query
	if err := r.Next(&q); err != nil {
		t.Fatal(err)
	}
	if q.QID != "1" || len(q.Scores) != 10 {
		t.Fatalf("first query %q with %d items", q.QID, len(q.Scores))
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestSmallBuffer reads lines much longer than a 64-byte buffer, with and
// without a final newline, and must match the default buffer.
func TestSmallBuffer(t *testing.T) {
	var b strings.Builder
	b.WriteString("qid\tdoc\tlabel\tscore\n")
	for i := range 50 {
		doc := strings.Repeat("x", i*7) + strconv.Itoa(i)
		b.WriteString("q\t" + doc + "\t1\t" + strconv.Itoa(i) + "\r\n")
		if i%9 == 0 {
			b.WriteString("\n")
		}
	}
	for _, in := range []string{b.String(), strings.TrimSuffix(b.String(), "\r\n")} {
		want, err := readAll(mustReader(t)(NewDelimitedReader(bg, strings.NewReader(in), "a", '\t', Options{KeepDocs: true})))
		if err != nil {
			t.Fatal(err)
		}
		r := mustReader(t)(NewDelimitedReader(bg, strings.NewReader(in), "a", '\t', Options{KeepDocs: true, BufferSize: 64}))
		got, err := readAll(r)
		if err != nil {
			t.Fatal(err)
		}
		checkQueries(t, got, want)
		if len(got) != 1 || len(got[0].Docs) != 50 || got[0].Docs[49] != strings.Repeat("x", 343)+"49" {
			t.Fatalf("long lines misread: %d queries", len(got))
		}
		if st := r.Stats(); st.BlankLines != 6 {
			t.Errorf("blank lines %d, want 6", st.BlankLines)
		}
	}
}

func mustReader(t *testing.T) func(Reader, error) Reader {
	return func(r Reader, err error) Reader {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}
