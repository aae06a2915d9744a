package beamio

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
)

func TestSplitQuoted(t *testing.T) {
	tests := []struct {
		line   string
		fields []string
		reason string
	}{
		{`a,b,c`, []string{"a", "b", "c"}, ""},
		{`"a,1",b`, []string{"a,1", "b"}, ""},
		{`"say ""hi""",2`, []string{`say "hi"`, "2"}, ""},
		{`a,"",`, []string{"a", "", ""}, ""},
		{`"a",`, []string{"a", ""}, ""},
		{`a,"b`, nil, "unterminated quoted field"},
		{`"a"b,c`, nil, `unexpected 'b' after a closing quote`},
		{`a"b,c`, nil, "a quote inside an unquoted field"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			sp := &splitter{delim: ',', quoted: true}
			f, reason := sp.split([]byte(tc.line))
			if !strings.Contains(reason, tc.reason) || (tc.reason == "") != (reason == "") {
				t.Fatalf("reason %q, want %q", reason, tc.reason)
			}
			if tc.reason != "" {
				return
			}
			got := make([]string, len(f))
			for i, x := range f {
				got[i] = string(x)
			}
			if !reflect.DeepEqual(got, tc.fields) {
				t.Errorf("fields %q, want %q", got, tc.fields)
			}
		})
	}
}

func TestParseHeader(t *testing.T) {
	tests := []struct {
		name   string
		line   string
		cols   Columns
		reason string
		w, d   int
	}{
		{"defaults", "qid\tlabel\tscore", Columns{}, "", -1, -1},
		{"bom and optional columns", "\xef\xbb\xbfdoc\tqid\tscore\tlabel\tweight", Columns{}, "", 4, 0},
		{"renamed", "q\trel\ts", Columns{QID: "q", Label: "rel", Score: "s"}, "", -1, -1},
		{"missing score", "qid\tlabel", Columns{}, `header: no column named "score"`, 0, 0},
		{"explicit weight required", "qid\tlabel\tscore", Columns{Weight: "w"}, `header: no column named "w"`, 0, 0},
		{"twice", "qid\tlabel\tscore\tqid", Columns{}, `header: column "qid" appears twice`, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, reason := parseHeader([]byte(tc.line), &splitter{delim: '\t'}, tc.cols)
			if reason != tc.reason {
				t.Fatalf("reason %q, want %q", reason, tc.reason)
			}
			if reason == "" && (h.iW != tc.w || h.iDo != tc.d) {
				t.Errorf("weight at %d, doc at %d; want %d, %d", h.iW, h.iDo, tc.w, tc.d)
			}
		})
	}
}

func TestParseDelimited(t *testing.T) {
	sp := &splitter{delim: '\t'}
	h, reason := parseHeader([]byte("qid\tdoc\tlabel\tscore\tweight"), sp, Columns{})
	if reason != "" {
		t.Fatal(reason)
	}
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
		{"q1\td1\t2\t0.5", rm.Row{}, "expected 5 fields as in the header, found 4"},
		{"\td1\t2\t0.5\t1", rm.Row{}, `field qid: value "": empty qid`},
		{"q1\t\t2\t0.5\t1", rm.Row{}, `field doc: value "": empty document id`},
		{"q1\td1\tx\t0.5\t1", rm.Row{}, `field label: value "x": not a number`},
		{"q1\td1\t1\tNaN\t1", rm.Row{}, `field score: value "NaN": NaN score`},
		{"q1\td1\t1\t0.5.1\t1", rm.Row{}, `field score: value "0.5.1": not a number`},
		{"q1\td1\t1\t1\tnan", rm.Row{}, `field weight: value "nan": a weight must be finite`},
		{"q1\td1\t1\t1\t+Inf", rm.Row{}, `field weight: value "+Inf": a weight must be finite`},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			var r rm.Row
			reason := parseDelimited([]byte(tc.line), sp, &h, &r)
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
	var fields [][]byte
	runTests := []struct {
		line   string
		want   rm.Row
		reason string
	}{
		{"301 Q0 FBIS3-1 1 12.5 tag", rm.Row{QID: "301", Doc: "FBIS3-1", Score: 12.5}, ""},
		{"301\tQ0  FBIS3-1 1\t-3 tag", rm.Row{QID: "301", Doc: "FBIS3-1", Score: -3}, ""},
		{"301 Q0 FBIS3-1 1 12.5", rm.Row{}, "a run line has 6 fields (qid Q0 docno rank score tag), found 5"},
		{"301 Q0 FBIS3-1 1 high tag", rm.Row{}, `field score: value "high": not a number`},
		{"301 Q0 FBIS3-1 1 nan tag", rm.Row{}, `field score: value "nan": NaN score`},
	}
	for _, tc := range runTests {
		var r rm.Row
		if reason := parseRun([]byte(tc.line), &fields, &r); reason != tc.reason || (reason == "" && r != tc.want) {
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
		{"301 0 FBIS3-1", rm.Judgment{}, "a qrels line has 4 fields (qid iter docno rel), found 3"},
		{"301 0 FBIS3-1 yes", rm.Judgment{}, `field rel: value "yes": not a number`},
		{"301 0 FBIS3-1 NaN", rm.Judgment{}, `field rel: value "NaN": not a number`},
		{"301 0 FBIS3-1 inf", rm.Judgment{}, `field rel: value "inf": infinite relevance (judgments must be finite)`},
		{"301 0 FBIS3-1 -1e400", rm.Judgment{}, `field rel: value "-1e400": infinite relevance (judgments must be finite)`},
	}
	for _, tc := range qrelsTests {
		var j rm.Judgment
		if reason := parseQrels([]byte(tc.line), &fields, &j); reason != tc.reason || (reason == "" && j != tc.want) {
			t.Errorf("qrels %q: %+v %q, want %+v %q", tc.line, j, reason, tc.want, tc.reason)
		}
	}
}
