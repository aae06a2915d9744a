package runio

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkInvariants reads everything from r and checks what must hold for any
// input: errors are ParseErrors (or plain I/O errors), and queries are
// consistent and NaN-free.
func checkInvariants(t *testing.T, r Reader) ([]Query, error) {
	t.Helper()
	got, err := readAll(r)
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not a ParseError", err, err)
		}
		if pe.File == "" {
			t.Fatalf("error %v has no file name", err)
		}
		return got, err
	}
	items := 0
	for _, q := range got {
		if q.QID == "" {
			t.Fatal("empty qid")
		}
		if len(q.Labels) != len(q.Scores) || q.Weights != nil && len(q.Weights) != len(q.Scores) {
			t.Fatalf("query %q: %d labels, %d scores, %d weights", q.QID, len(q.Labels), len(q.Scores), len(q.Weights))
		}
		for _, s := range q.Scores {
			if math.IsNaN(s) {
				t.Fatalf("query %q: NaN score", q.QID)
			}
		}
		items += len(q.Scores)
	}
	st := r.Stats()
	if st.Queries != int64(len(got)) || st.Items != int64(items) {
		t.Fatalf("stats %+v for %d queries, %d items", st, len(got), items)
	}
	return got, nil
}

func FuzzTSV(f *testing.F) {
	f.Add("qid\tlabel\tscore\n1\t1\t0.5\n1\t0\t0.25\n2\t2\t-3\n", false)
	f.Add("qid\tdoc\tlabel\tscore\tweight\n1\ta\t1\t0.5\t1\n1\ta\t0\t0.25\t2\n", true)
	f.Add("qid,label,score\n\"a,b\",1,2\n\"a\"\"b\",1,2\n", false)
	f.Add("score\tqid\tlabel\r\n1e400\tq\t-1\r\n\r\n", false)
	f.Add("qid\tlabel\tscore\n10\t1\t1\n9\t1\t1\n", true)
	f.Add("qid\tlabel\tscore\n1\t1\tNaN\n", false)
	f.Fuzz(func(t *testing.T, in string, csv bool) {
		delim := byte('\t')
		if csv {
			delim = ','
		}
		open := func(p UnsortedPolicy) (Reader, error) {
			return NewDelimitedReader(bg, strings.NewReader(in), "f.tsv", delim, Options{Unsorted: p, KeepDocs: true, Dedupe: DedupeMax})
		}
		// UnsortedAuto (inputs here are within its read-ahead) reads what
		// UnsortedGroup reads, and fails where it fails.
		if ra, err := open(UnsortedAuto); err == nil {
			auto, aerr := checkInvariants(t, ra)
			rg, _ := open(UnsortedGroup)
			grouped, gerr := checkInvariants(t, rg)
			if (aerr == nil) != (gerr == nil) {
				t.Fatalf("auto error %v, grouped error %v", aerr, gerr)
			}
			if aerr == nil {
				checkQueries(t, auto, grouped)
			}
		}
		r, err := open(UnsortedError)
		if err != nil {
			return
		}
		streamed, err := checkInvariants(t, r)
		// The one-pass fast path must read exactly what the general path
		// reads, and fail the same way.
		src, serr := newDelimSource(strings.NewReader(in), "f.tsv", delim, csv, Options{KeepDocs: true, Dedupe: DedupeMax})
		if serr != nil {
			t.Fatalf("header read once but not twice: %v", serr)
		}
		src.noFast = true
		slow, slowErr := readAll(newStreamReader(bg, src, "f.tsv", Options{KeepDocs: true, Dedupe: DedupeMax}))
		if (err == nil) != (slowErr == nil) || err != nil && err.Error() != slowErr.Error() {
			t.Fatalf("fast path error %v, general path error %v", err, slowErr)
		}
		if err != nil {
			return
		}
		checkQueries(t, streamed, slow)
		// Sorted input must read the same when grouped.
		r, err = open(UnsortedGroup)
		if err != nil {
			t.Fatal(err)
		}
		grouped, err := checkInvariants(t, r)
		if err != nil {
			t.Fatalf("grouped read failed where the stream did not: %v", err)
		}
		checkQueries(t, grouped, streamed)
	})
}

func FuzzTREC(f *testing.F) {
	f.Add("1 0 a 1\n1 0 b 0\n2 0 c 2\n", "1 Q0 a 1 0.5 t\n1 Q0 z 2 0.4 t\n3 Q0 q 1 1 t\n")
	f.Add("1 0 a 1\n1 0 a 2\n", "1 Q0 a 1 1 t\n1 Q0 a 1 2 t\n")
	f.Add("9 0 a 1\n10 0 a 1\n", "9\tQ0\ta\t1\t-inf\tt\r\n10 Q0 a 1 1e3 t\n")
	f.Add("b 0 a 1\na 0 a 1\n", "a Q0 a 1 1 t\n")
	f.Add("1 0 a x\n", "1 Q0 a 1 nan t\n")
	f.Fuzz(func(t *testing.T, qrels, run string) {
		open := func(p UnsortedPolicy) (Reader, error) {
			return NewTRECReader(bg, strings.NewReader(qrels), strings.NewReader(run), "q", "r", Options{Unsorted: p, KeepDocs: true, Dedupe: DedupeFirst})
		}
		r, err := open(UnsortedError)
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := checkInvariants(t, r)
		for _, q := range streamed {
			if len(q.Docs) != len(q.Scores) || len(q.UnrankedDocs) != len(q.UnrankedLabels) {
				t.Fatalf("query %q: docs and values differ in length", q.QID)
			}
		}
		r2, err2 := open(UnsortedGroup)
		if err2 != nil {
			t.Fatal(err2)
		}
		grouped, err2 := checkInvariants(t, r2)
		if err != nil {
			return
		}
		if err2 != nil {
			t.Fatalf("grouped read failed where the stream did not: %v", err2)
		}
		// Same queries; the grouped order puts qrels-only queries last.
		var reordered []Query
		for _, m := range []bool{false, true} {
			for _, q := range streamed {
				if (q.Match == MatchQrelsOnly) == m {
					reordered = append(reordered, q)
				}
			}
		}
		checkQueries(t, grouped, reordered)
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add(`{"qid":"1","label":1,"score":0.5}` + "\n" + `{"qid":"1","label":0,"score":1,"x":[1,{"y":"z"}]}` + "\n")
	f.Add(`{"qid":2,"docs":["a","b"],"labels":[1,0],"scores":[Infinity,-1e3],"weights":[1,0]}` + "\n")
	f.Add(`{"qid":"\u00e9\ud83d\ude00","label":1,"score":NaN}` + "\n")
	f.Add(`{"qid":"q\udc80","label":1,"score":1}` + "\n" + `{"qid":"q\ud800\u0041","label":1,"score":1}` + "\n")
	// Deep nesting (TestJSONLDeepNesting has 20M levels; seeds stay small
	// so that the fuzzer mutates them quickly).
	f.Add(`{"qid":"1","label":1,"score":1,"x":` + strings.Repeat(`[{"a":`, 200) + "0" + strings.Repeat("}]", 200) + "}\n")
	f.Add(`{"qid":"1","label":1,"score":1,"x":` + strings.Repeat("[", 500) + "}\n")
	f.Add(`{"qid":"1","labels":[Infinity],"scores":[1]}` + "\n")
	f.Fuzz(func(t *testing.T, in string) {
		r, err := NewJSONLReader(bg, strings.NewReader(in), "f.jsonl", Options{Dedupe: DedupeFirst, MaxLineBytes: 1 << 20})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a ParseError", err, err)
			}
			return
		}
		checkInvariants(t, r)
	})
}

// FuzzParquet reads mutations of valid Parquet files: every outcome must be
// queries or an error naming the file, never a panic.
func FuzzParquet(f *testing.F) {
	f.Add(smallParquet(f))
	one := 1.0
	f.Add(writeParquet(f, []optionalRow{{"a", 1, &one}, {"b", 0, nil}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewParquetReader(bg, bytes.NewReader(data), int64(len(data)), "f.parquet", Options{Columns: Columns{Weight: "weight"}})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.parquet") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkInvariants(t, r)
	})
}

// FuzzRKM1 reads RKM1 files with any header and body.
func FuzzRKM1(f *testing.F) {
	f.Add(append(rkm1Header(1, 2), 1, 0, 0, 0, 0, 0x3f, 0, 0, 0x80, 0x7f))
	f.Add(rkm1Header(1<<32-1, 0))
	f.Add(rkm1Header(1, 1<<32-1))
	f.Add(append(rkm1Header(2, 1), 0xff, 2, 0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0xff))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewRKM1Reader(bg, bytes.NewReader(data), int64(len(data)), "f.bin")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "f.bin" {
				t.Fatalf("error %v is not a ParseError naming the file", err)
			}
			return
		}
		checkInvariants(t, r)
	})
}

// FuzzTRECAuto: UnsortedAuto on files (scanned, then streamed, read by
// range or gathered) reads what UnsortedGroup reads, in qid order, and
// fails where it fails.
func FuzzTRECAuto(f *testing.F) {
	f.Add("1 0 a 1\n1 0 b 0\n2 0 c 2\n", "2 Q0 c 1 0.5 t x y\n1 Q0 a 1 0.5 t\n1 Q0 z 2 0.4 t\n3 Q0 q 1 1 t\n")
	f.Add("q10 0 a 1\nq9 0 a 1\n# c\n", "q9\tQ0\ta\t1\t-inf\tt\r\nq10 Q0 a 1 1e3 t\n  # c\n")
	f.Add("2 0 a 1\n1 0 a 1\n2 0 b 1\n", "19 Q0 a 1 1 t\n2 Q0 a 1 1 t\n\v\n")
	f.Add("1 0 a 1\n", "1 Q0 a 1 1 t\n2 Q0 b 1 1 t\n1 Q0 a 2 2 t\n")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, qrels, run string) {
		qp, rp := filepath.Join(dir, "q"), filepath.Join(dir, "r")
		if os.WriteFile(qp, []byte(qrels), 0o644) != nil || os.WriteFile(rp, []byte(run), 0o644) != nil {
			t.Skip()
		}
		opts := Options{KeepDocs: true, Dedupe: DedupeFirst, MaxLineBytes: 40}
		opts.Unsorted = UnsortedAuto
		if strings.HasPrefix(qrels, "\x1f\x8b") || strings.HasPrefix(run, "\x1f\x8b") {
			t.Skip() // gzip magic: Open decompresses, the in-memory reader not
		}
		r, err := Open(bg, []string{qp, rp}, opts)
		if err != nil {
			t.Fatal(err)
		}
		auto, err := checkInvariants(t, r)
		// Restartable: streamed at once, read again if it must be; the
		// same queries and the same error.
		ro := opts
		ro.Restartable = true
		var opt []Query
		errOpt := Restarting(bg, []string{qp, rp}, ro, func(r Reader) error {
			var err error
			opt, err = checkInvariants(t, r)
			return err
		})
		if (errOpt == nil) != (err == nil) || (err != nil && errOpt.Error() != err.Error()) {
			t.Fatalf("restartable error %v, auto error %v", errOpt, err)
		}
		if err == nil {
			checkQueries(t, opt, auto)
		}
		opts.Unsorted = UnsortedGroup
		r2, err2 := NewTRECReader(bg, strings.NewReader(qrels), strings.NewReader(run), qp, rp, opts)
		if err2 != nil {
			t.Fatal(err2)
		}
		grouped, err2 := checkInvariants(t, r2)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("auto error %v, grouped error %v", err, err2)
		}
		if err != nil {
			return
		}
		if !slices.IsSortedFunc(auto, func(a, b Query) int { return CompareQID(a.QID, b.QID) }) {
			t.Fatalf("queries not in qid order")
		}
		slices.SortStableFunc(grouped, func(a, b Query) int { return CompareQID(a.QID, b.QID) })
		checkQueries(t, auto, grouped)
		// From pipes (read ahead): the same.
		opts.Unsorted = UnsortedAuto
		r3, _ := NewTRECReader(bg, oneReader{strings.NewReader(qrels)}, oneReader{strings.NewReader(run)}, qp, rp, opts)
		piped, err := checkInvariants(t, r3)
		if err != nil {
			t.Fatalf("piped: %v", err)
		}
		checkQueries(t, piped, grouped)
	})
}
