package runio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
)

// randomQueries makes n queries with ascending numeric qids, unique docs,
// graded and odd labels, and scores that include ties, ±Inf and -0.
func randomQueries(seed uint64, n int, weights, docs bool) []Query {
	r := rand.New(rand.NewPCG(seed, 7))
	qs := make([]Query, n)
	for i := range qs {
		q := &qs[i]
		q.QID = strconv.Itoa(3 * (i + 1))
		m := 1 + r.IntN(12)
		for j := range m {
			var label float64
			switch r.IntN(10) {
			case 0:
				label = -1
			case 1:
				label = 0.5
			case 2:
				label = math.NaN()
			default:
				label = float64(r.IntN(5))
			}
			score := math.Round(r.NormFloat64()*1e6) / 1e3
			switch r.IntN(20) {
			case 0:
				score = math.Inf(1)
			case 1:
				score = math.Inf(-1)
			case 2:
				score = math.Copysign(0, -1)
			case 3:
				score = r.Float64() // a full-precision double
			case 4:
				if j > 0 {
					score = q.Scores[r.IntN(j)]
				}
			}
			q.Labels = append(q.Labels, label)
			q.Scores = append(q.Scores, score)
			if weights {
				q.Weights = append(q.Weights, float64(r.IntN(4))/2)
			}
			if docs {
				q.Docs = append(q.Docs, fmt.Sprintf("doc-%d-%d", i, j))
			}
		}
	}
	return qs
}

// writeFile writes data to dir/name, gzipped if zip is set.
func writeFile(t *testing.T, dir, name string, data []byte, zip bool) string {
	t.Helper()
	if zip {
		data = gzipBytes(t, data)
		name += ".gz"
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeAll(t *testing.T, w Writer, qs []Query) {
	t.Helper()
	for i := range qs {
		if err := w.WriteQuery(&qs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	type variant struct {
		name    string
		ext     string
		weights bool
		docs    bool
		write   func(*bytes.Buffer, []Query)
	}
	variants := []variant{
		{"tsv", ".tsv", false, false, func(b *bytes.Buffer, qs []Query) {
			writeAll(t, NewDelimitedWriter(b, '\t', Columns{}, false, false), qs)
		}},
		{"tsv weights docs", ".tsv", true, true, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewDelimitedWriter(b, '\t', Columns{}, true, true), qs) }},
		{"csv weights docs", ".csv", true, true, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewDelimitedWriter(b, ',', Columns{}, true, true), qs) }},
		{"jsonl items", ".jsonl", true, true, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewJSONLWriter(b, Columns{}, false), qs) }},
		{"jsonl lists", ".jsonl", true, true, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewJSONLWriter(b, Columns{}, true), qs) }},
		{"jsonl lists bare", ".ndjson", false, false, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewJSONLWriter(b, Columns{}, true), qs) }},
		{"parquet", ".parquet", false, false, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewParquetWriter(b, Columns{}, false, false), qs) }},
		{"parquet weights docs", ".parquet", true, true, func(b *bytes.Buffer, qs []Query) { writeAll(t, NewParquetWriter(b, Columns{}, true, true), qs) }},
	}
	for i, v := range variants {
		for _, zip := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s gzip=%v", v.name, zip), func(t *testing.T) {
				qs := randomQueries(uint64(i), 40, v.weights, v.docs)
				if v.name == "csv weights docs" {
					qs[len(qs)-1].QID = `a "quoted", qid` // non-integers sort after integers
				}
				if v.name == "jsonl items" {
					qs[len(qs)-1].QID = "z\"\\\u00e9\t\U0001F600"
				}
				var b bytes.Buffer
				v.write(&b, qs)
				path := writeFile(t, dir, fmt.Sprintf("v%d%s", i, v.ext), b.Bytes(), zip)
				r, err := Open(bg, []string{path}, Options{KeepDocs: true})
				if err != nil {
					t.Fatal(err)
				}
				if r.HasWeights() != v.weights {
					t.Errorf("HasWeights = %v, want %v", r.HasWeights(), v.weights)
				}
				got, err := readAll(r)
				if err != nil {
					t.Fatal(err)
				}
				checkQueries(t, got, qs)
				st := r.Stats()
				items := 0
				for _, q := range qs {
					items += len(q.Scores)
				}
				if st.Queries != int64(len(qs)) || st.Items != int64(items) || st.Rows != int64(items) {
					t.Errorf("stats %+v, want %d queries and %d items", st, len(qs), items)
				}
			})
		}
	}
}

func TestRoundTripTREC(t *testing.T) {
	dir := t.TempDir()
	for _, zip := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", zip), func(t *testing.T) {
			qs := randomQueries(99, 60, false, true)
			for i := range qs {
				q := &qs[i]
				for j := range q.Labels { // trec labels are numbers, not NaN
					if math.IsNaN(q.Labels[j]) {
						q.Labels[j] = 3
					}
				}
				switch i % 5 {
				case 1: // some judged documents are not ranked
					q.UnrankedDocs = []string{"u1-" + q.QID, "u2-" + q.QID}
					q.UnrankedLabels = []float64{2, 0}
				case 2:
					q.Match = MatchRunOnly
					clear(q.Labels) // no judgments: every label reads back as 0
				case 3:
					q.Match = MatchQrelsOnly
					q.UnrankedDocs, q.UnrankedLabels = q.Docs, q.Labels
					q.Docs, q.Labels, q.Scores = nil, nil, nil
				}
			}
			var qrels, run bytes.Buffer
			writeAll(t, NewTRECWriter(&qrels, &run, "tag"), qs)
			qp := writeFile(t, dir, "qrels", qrels.Bytes(), zip)
			rp := writeFile(t, dir, "run", run.Bytes(), zip)
			for _, pol := range []UnsortedPolicy{UnsortedError, UnsortedGroup} {
				r, err := Open(bg, []string{qp, rp}, Options{KeepDocs: true, Unsorted: pol})
				if err != nil {
					t.Fatal(err)
				}
				got, err := readAll(r)
				if err != nil {
					t.Fatal(err)
				}
				want := qs
				if pol == UnsortedGroup { // run order first, then qrels-only queries
					want = nil
					for _, q := range qs {
						if q.Match != MatchQrelsOnly {
							want = append(want, q)
						}
					}
					for _, q := range qs {
						if q.Match == MatchQrelsOnly {
							want = append(want, q)
						}
					}
				}
				checkQueries(t, got, want)
			}
		})
	}
}

func TestReadRKM1(t *testing.T) {
	// Two lists of three items, written byte by byte here.
	var b bytes.Buffer
	b.WriteString("RKM1")
	binary.Write(&b, binary.LittleEndian, uint32(2))
	binary.Write(&b, binary.LittleEndian, uint32(3))
	b.Write([]byte{1, 0, 4, 0, 0xff, 2})
	for _, s := range []float32{0.5, -1, 0.25, 3, float32(math.Inf(1)), 0.1} {
		binary.Write(&b, binary.LittleEndian, s)
	}
	want := []Query{
		{QID: "1", Line: 1, Labels: []float64{1, 0, 4}, Scores: []float64{0.5, -1, 0.25}},
		{QID: "2", Line: 2, Labels: []float64{0, -1, 2}, Scores: []float64{3, math.Inf(1), float64(float32(0.1))}},
	}
	dir := t.TempDir()
	for _, zip := range []bool{false, true} {
		p := writeFile(t, dir, "d.bin", b.Bytes(), zip)
		r, err := Open(bg, []string{p}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := readAll(r)
		if err != nil {
			t.Fatal(err)
		}
		checkQueries(t, got, want)
	}
	_, err := NewRKM1Reader(bg, bytes.NewReader(b.Bytes()[:20]), 20, "short.bin")
	if err == nil || err.Error() != `short.bin: field size: value "20": an RKM1 file with Q=2 L=3 has 42 bytes` {
		t.Errorf("short file: %v", err)
	}
}

func TestDetectFormat(t *testing.T) {
	tests := []struct {
		path string
		want Format
		err  bool
	}{
		{"a.tsv", FormatTSV, false},
		{"A.TSV.GZ", FormatTSV, false},
		{"dir.x/b.csv.gz", FormatCSV, false},
		{"p.jsonl", FormatJSONL, false},
		{"p.ndjson", FormatJSONL, false},
		{"x.parquet", FormatParquet, false},
		{"x.bin", FormatRKM1, false},
		{"x.qrels", FormatTREC, false},
		{"run.txt", FormatAuto, true},
		{"noext", FormatAuto, true},
	}
	for _, tc := range tests {
		got, err := DetectFormat(tc.path)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("DetectFormat(%q) = %v, %v; want %v, error %v", tc.path, got, err, tc.want, tc.err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	tsv := writeFile(t, dir, "a.tsv", []byte("qid\tlabel\tscore\n"), false)
	tests := []struct {
		paths []string
		opts  Options
		want  string
	}{
		{[]string{tsv, tsv, tsv}, Options{}, "want one input file, or a TREC qrels and run pair; got 3 paths"},
		{[]string{tsv, tsv}, Options{Format: FormatCSV}, fmt.Sprintf("two inputs (%s, %s) are a TREC qrels and run pair, but --input-format is csv", tsv, tsv)},
		{[]string{tsv}, Options{Format: FormatTREC}, fmt.Sprintf("TREC input needs two paths, QRELS RUN; got only %s", tsv)},
		{[]string{"-"}, Options{}, "standard input needs --input-format (tsv, csv, jsonl, parquet or rkm1)"},
		{[]string{"x.txt"}, Options{}, `cannot tell the format of "x.txt" from its extension; name it with --input-format (trec, tsv, csv, jsonl, parquet, rkm1)`},
		{[]string{filepath.Join(dir, "missing.tsv")}, Options{}, "open " + filepath.Join(dir, "missing.tsv") + ": no such file or directory"},
	}
	for _, tc := range tests {
		_, err := Open(bg, tc.paths, tc.opts)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Open(%v) error %v, want %s", tc.paths, err, tc.want)
		}
	}
}

func TestOpenStdin(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("qid,label,score\nq,1,0.5\n"))
	zw.Close()
	r, err := Open(bg, []string{"-"}, Options{Format: FormatCSV, Stdin: &b})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	checkQueries(t, got, []Query{{QID: "q", Labels: []float64{1}, Scores: []float64{0.5}}})
}

func TestBytesRead(t *testing.T) {
	dir := t.TempDir()
	data := []byte("qid\tlabel\tscore\n1\t1\t0.5\n2\t0\t1\n")
	for _, zip := range []bool{false, true} {
		p := writeFile(t, dir, "c.tsv", data, zip)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		var n atomic.Int64
		r, err := Open(bg, []string{p}, Options{BytesRead: &n})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := readAll(r); err != nil {
			t.Fatal(err)
		}
		if n.Load() != st.Size() {
			t.Errorf("gzip=%v: BytesRead %d, file has %d bytes", zip, n.Load(), st.Size())
		}
	}
}
