package beamio

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/runio"
)

// delimParser returns runio's parser of a delimited file with header h.
func delimParser(t *testing.T, h string, delim byte, cols Columns) *runio.DelimParser {
	t.Helper()
	p, err := runio.NewDelimParser([]byte(h), "f", 0, delim, cols)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSplitQuoted: CSV lines are cut by runio's splitter, quotes and all,
// with its messages.
func TestSplitQuoted(t *testing.T) {
	p := delimParser(t, "qid,label,score", ',', Columns{})
	tests := []struct {
		line   string
		want   rm.Row
		reason string
	}{
		{`q,1,2`, rm.Row{QID: "q", Label: 1, Score: 2}, ""},
		{`"q,1",1,2`, rm.Row{QID: "q,1", Label: 1, Score: 2}, ""},
		{`"say ""hi""",1,2`, rm.Row{QID: `say "hi"`, Label: 1, Score: 2}, ""},
		{`q,"1","2"`, rm.Row{QID: "q", Label: 1, Score: 2}, ""},
		{`q,1,"2`, rm.Row{}, `line "q,1,\"2": unterminated quoted field (quoted fields cannot span lines)`},
		{`"q"b,1,2`, rm.Row{}, `line "\"q\"b,1,2": unexpected 'b' after a closing quote`},
		{`q"b,1,2`, rm.Row{}, `line "q\"b,1,2": a quote inside an unquoted field`},
		{`q,1,2,`, rm.Row{}, `line "q,1,2,": expected 3 fields as in the header, found 4`},
		{`"q",1,""`, rm.Row{}, `field score: value "": not a number`},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			var r rm.Row
			if reason := delimLine(p, []byte(tc.line), &r); reason != tc.reason || reason == "" && r != tc.want {
				t.Fatalf("%+v %q, want %+v %q", r, reason, tc.want, tc.reason)
			}
		})
	}
}

func TestParseHeader(t *testing.T) {
	const hint = " (the first line must be a header naming the columns; for a file without one, give them in order with --columns, as in --columns qid,doc,label,score)"
	tests := []struct {
		name   string
		line   string
		cols   Columns
		reason string
		w, d   bool
	}{
		{"defaults", "qid\tlabel\tscore", Columns{}, "", false, false},
		{"bom and optional columns", "\xef\xbb\xbfdoc\tqid\tscore\tlabel\tweight", Columns{}, "", true, true},
		{"renamed", "q\trel\ts", Columns{QID: "q", Label: "rel", Score: "s"}, "", false, false},
		{"missing score", "qid\tlabel", Columns{}, `field header: value "qid\tlabel": no column named "score"` + hint, false, false},
		{"explicit weight required", "qid\tlabel\tscore", Columns{Weight: "w"}, `field header: value "qid\tlabel\tscore": no column named "w"` + hint, false, false},
		{"twice", "qid\tlabel\tscore\tqid", Columns{}, `field header: value "qid": column appears twice`, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := runio.NewDelimParser([]byte(tc.line), "f", 1, '\t', tc.cols)
			if err != nil {
				if reason(err) != tc.reason {
					t.Fatalf("reason %q, want %q", reason(err), tc.reason)
				}
				return
			}
			if tc.reason != "" {
				t.Fatalf("no error, want %q", tc.reason)
			}
			if p.HasWeights() != tc.w || p.HasDocs() != tc.d {
				t.Errorf("weight %v, doc %v; want %v, %v", p.HasWeights(), p.HasDocs(), tc.w, tc.d)
			}
		})
	}
}

func TestParseDelimited(t *testing.T) {
	p := delimParser(t, "qid\tdoc\tlabel\tscore\tweight", '\t', Columns{})
	tests := []struct {
		line   string
		want   rm.Row
		reason string
	}{
		{"q1\td1\t2\t0.5\t1.5", rm.Row{QID: "q1", Doc: "d1", Label: 2, Score: 0.5, Weight: 1.5, HasWeight: true}, ""},
		{"q1\td1\t0\t-inf\t1", rm.Row{QID: "q1", Doc: "d1", Score: math.Inf(-1), Weight: 1, HasWeight: true}, ""},
		{"q1\td1\tnan\t1\t1", rm.Row{QID: "q1", Doc: "d1", Label: math.NaN(), Score: 1, Weight: 1, HasWeight: true}, ""},
		{"q1\td1\t1e400\t1\t1", rm.Row{}, `field label: value "1e400": infinite label (labels must be finite; NaN masks an item)`},
		{"q1\td1\tinf\t1\t1", rm.Row{}, `field label: value "inf": infinite label (labels must be finite; NaN masks an item)`},
		{"q1\td1\t-inf\t1\t1", rm.Row{}, `field label: value "-inf": infinite label (labels must be finite; NaN masks an item)`},
		{"q1\td1\t2\t0.5", rm.Row{}, `line "q1\td1\t2\t0.5": expected 5 fields as in the header, found 4`},
		{"\td1\t2\t0.5\t1", rm.Row{}, `field qid: value "": empty qid`},
		{"q1\t\t2\t0.5\t1", rm.Row{}, `field doc: value "": empty document id`},
		{"q1\td1\tx\t0.5\t1", rm.Row{}, `field label: value "x": not a number`},
		{"q1\td1\t1\tNaN\t1", rm.Row{}, `field score: value "NaN": NaN score`},
		{"q1\td1\t1\t0.5.1\t1", rm.Row{}, `field score: value "0.5.1": not a number`},
		{"q1\td1\t1\t1\tnan", rm.Row{}, `field weight: value "nan": NaN weight`},
		// An infinite weight is read, as eval reads it; the metric
		// refuses it (the evaluation stage's dead letter).
		{"q1\td1\t1\t1\t+Inf", rm.Row{QID: "q1", Doc: "d1", Label: 1, Score: 1, Weight: math.Inf(1), HasWeight: true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			var r rm.Row
			reason := delimLine(p, []byte(tc.line), &r)
			if reason != tc.reason {
				t.Fatalf("reason %q, want %q", reason, tc.reason)
			}
			if reason == "" && fmt.Sprintf("%+v", r) != fmt.Sprintf("%+v", tc.want) { // NaN != NaN
				t.Errorf("row %+v, want %+v", r, tc.want)
			}
		})
	}
}

func TestParseTREC(t *testing.T) {
	opts := &runio.Options{}
	run := runio.NewTRECBytesScanner(nil, "run", false, runio.TRECStrict, opts)
	qrels := runio.NewTRECBytesScanner(nil, "qrels", true, runio.TRECStrict, opts)
	runTests := []struct {
		line   string
		want   rm.Row
		reason string
	}{
		{"301 Q0 FBIS3-1 1 12.5 tag", rm.Row{QID: "301", Doc: "FBIS3-1", Score: 12.5}, ""},
		{"301\tQ0  FBIS3-1 1\t-3 tag", rm.Row{QID: "301", Doc: "FBIS3-1", Score: -3}, ""},
		// runio's separators: every byte up to ' ', as eval reads them
		// (Beam's own parser cut only at spaces and tabs).
		{"301\vQ0\fFBIS3-1\x011 12.5\x1ftag", rm.Row{QID: "301", Doc: "FBIS3-1", Score: 12.5}, ""},
		{"301 Q0 FBIS3-1 1 12.5", rm.Row{}, `line "301 Q0 FBIS3-1 1 12.5": a run line has 6 fields (qid Q0 docno rank score tag), found 5`},
		{"301 0 FBIS3-1 1", rm.Row{}, `line "301 0 FBIS3-1 1": a run line has 6 fields (qid Q0 docno rank score tag), found 4: it looks like a qrels line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN`},
		{"301 Q0 FBIS3-1 1 high tag", rm.Row{}, `field score: value "high": not a number`},
		{"301 Q0 FBIS3-1 1 nan tag", rm.Row{}, `field score: value "nan": NaN score`},
	}
	for _, tc := range runTests {
		var r rm.Row
		if reason := parseRun(run, []byte(tc.line), &r); reason != tc.reason || (reason == "" && r != tc.want) {
			t.Errorf("run %q: %+v %q, want %+v %q", tc.line, r, reason, tc.want, tc.reason)
		}
	}
	qrelsTests := []struct {
		line   string
		want   rm.Judgment
		reason string
	}{
		{"301 0 FBIS3-1 2", rm.Judgment{QID: "301", Doc: "FBIS3-1", Label: 2}, ""},
		{"301 0 FBIS3-1 -1", rm.Judgment{QID: "301", Doc: "FBIS3-1", Label: -1}, ""},
		{"301\x000\x00FBIS3-1\x002", rm.Judgment{QID: "301", Doc: "FBIS3-1", Label: 2}, ""},
		{"301 0 FBIS3-1", rm.Judgment{}, `line "301 0 FBIS3-1": a qrels line has 4 fields (qid iter docno rel), found 3`},
		{"301 0 FBIS3-1 yes", rm.Judgment{}, `field rel: value "yes": not a number`},
		{"301 0 FBIS3-1 NaN", rm.Judgment{}, `field rel: value "NaN": not a number`},
		{"301 0 FBIS3-1 inf", rm.Judgment{}, `field rel: value "inf": infinite relevance (judgments must be finite)`},
		{"301 0 FBIS3-1 -1e400", rm.Judgment{}, `field rel: value "-1e400": infinite relevance (judgments must be finite)`},
	}
	for _, tc := range qrelsTests {
		var j rm.Judgment
		if reason := parseQrels(qrels, []byte(tc.line), &j); reason != tc.reason || (reason == "" && j != tc.want) {
			t.Errorf("qrels %q: %+v %q, want %+v %q", tc.line, j, reason, tc.want, tc.reason)
		}
	}
}

// TestTRECQID: the qid of a rejected line is its first field by runio's
// separators; of a line cut at the limit, only when a separator follows.
func TestTRECQID(t *testing.T) {
	for _, tc := range []struct {
		line string
		cut  bool
		want string
	}{
		{"301 Q0", false, "301"},
		{"301\vQ0", true, "301"},
		{"301", true, ""},
		{"301", false, "301"},
		{" \x01 ", false, ""},
	} {
		if got := trecQID([]byte(tc.line), tc.cut); got != tc.want {
			t.Errorf("trecQID(%q, %v) = %q, want %q", tc.line, tc.cut, got, tc.want)
		}
	}
}

// FuzzParseLine checks the Beam readers' per-line parsing against runio's
// streaming readers, the ones eval reads with, on the same line: the same
// row, or the same reason. It also checks that the qid helpers do not
// panic on any line.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		"q1\td1\t1\t0.5\t2", "q1,d1,1,0.5,2", `"q,1",d1,1,0.5,2`, `q,"d""1",1,0.5,`,
		"q1\t\t1\t0.5\t2", "q1\td1\tinf\t0.5\t2", "q1\td1\t1\tnan\t+Inf", "301 Q0 d 1 2.5 t",
		"301\v0\fd\x012", "301 0 d 1", "301 Q0 d 1 1e400 t", `a"b,1`,
	} {
		f.Add(s)
	}
	const header = "qid,doc,label,score,weight"
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n\r") || strings.Trim(line, " \t") == "" {
			return // not one line, or a blank one (neither reader parses it)
		}
		for _, delim := range []byte{'\t', ','} {
			h := strings.ReplaceAll(header, ",", string(delim))
			p, err := runio.NewDelimParser([]byte(h), "f", 1, delim, Columns{})
			if err != nil {
				t.Fatal(err)
			}
			var got rm.Row
			why := delimLine(p, []byte(line), &got)
			delimitedQID(p, []byte(line), false)
			delimitedQID(p, []byte(line), true)
			r, err := runio.NewDelimitedReader(context.Background(), strings.NewReader(h+"\n"+line+"\n"), "f", delim, runio.Options{KeepDocs: true})
			if err != nil {
				t.Fatal(err)
			}
			var q runio.Query
			err = r.Next(&q)
			if err != nil {
				if why != reason(err) {
					t.Fatalf("%q: Beam %q, eval %q", line, why, reason(err))
				}
				continue
			}
			want := rm.Row{QID: q.QID, Doc: q.Docs[0], Label: q.Labels[0], Score: q.Scores[0], Weight: q.Weights[0], HasWeight: true}
			if why != "" || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
				t.Fatalf("%q: Beam %+v %q, eval %+v", line, got, why, want)
			}
		}
		trecQID([]byte(line), false)
		trecQID([]byte(line), true)
		for _, qrels := range []bool{false, true} {
			opts := &runio.Options{}
			sc := runio.NewTRECBytesScanner(nil, "f", qrels, runio.TRECStrict, opts)
			var why string
			var got rm.Judgment
			if qrels {
				why = parseQrels(sc, []byte(line), &got)
			} else {
				var r rm.Row
				why = parseRun(sc, []byte(line), &r)
				got = rm.Judgment{QID: r.QID, Doc: r.Doc, Label: r.Score}
			}
			f, err := runio.NewTRECScanner(strings.NewReader(line+"\n"), "f", qrels, runio.TRECStrict, opts).Next()
			if err != nil {
				if why != reason(err) {
					t.Fatalf("%q: Beam %q, eval %q", line, why, reason(err))
				}
				continue
			}
			if why != "" && !strings.HasPrefix(why, "field ") || why == "" && (got.QID != string(f[0]) || got.Doc != string(f[2])) {
				t.Fatalf("%q: Beam %+v %q, eval fields %q", line, got, why, f)
			}
		}
	})
}
