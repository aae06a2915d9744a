package beamio_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// TestDeadLetters feeds malformed rows of every kind and checks that each
// goes to the dead letters with its place and reason, and so does every row
// of a query with a malformed row, that the counts add up, and that the
// value is the one of the clean queries alone.
func TestDeadLetters(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// q1 has malformed rows, so it goes wholly to the dead letters; q3
		// repeats a document; q2 also has rows in b.tsv, which has no
		// weight column; q5 is clean.
		"a.tsv": "qid\tdoc\tlabel\tscore\tweight\n" +
			"q1\td1\t1\t0.9\t1\n" +
			"q1\td2\t0\t0.8\t2\n" +
			"q1\td3\t1\t0.7\n" + // 4 fields
			"q1\td4\t1\tNaN\t1\n" +
			"\td5\t1\t0.5\t1\n" + // empty qid
			"q1\td6\tyes\t0.4\t1\n" +
			"q1\td7\t1\t0.3\t+Inf\n" +
			"\n" + // blank
			"q1\td8\t1\t0.2\t0.5\n" +
			"q2\td1\t1\t0.9\t1\n" +
			"q3\td1\t1\t0.9\t1\n" +
			"q3\td1\t0\t0.1\t1\n" +
			"q5\td1\t0\t0.9\t1\n" +
			"q5\td2\t1\t0.8\t1\n",
		"b.tsv": "qid\tdoc\tlabel\tscore\n" +
			"q2\td2\t0\t0.5\n",
		"c.tsv": "qid\tdoc\tlabel\n" + // no score column
			"q4\td1\t1\n" +
			"q4\td2\t0\n",
		"d.tsv": "",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b, c := filepath.Join(dir, "a.tsv"), filepath.Join(dir, "b.tsv"), filepath.Join(dir, "c.tsv")
	type want struct {
		stage  rm.Stage
		file   string
		off    int64
		reason string
	}
	// at returns the offset of a line, found in the file's text.
	at := func(path, line string) int64 {
		body := files[filepath.Base(path)]
		if strings.HasPrefix(body, line+"\n") {
			return 0
		}
		i := strings.Index(body, "\n"+line+"\n")
		if i < 0 || strings.Count(body, "\n"+line+"\n") != 1 {
			t.Fatalf("line %q is not once in %s", line, path)
		}
		return int64(i + 1)
	}
	q1 := fmt.Sprintf("the query has 3 row(s) rejected by the reader (the first at %s@%d: line \"q1\\td3\\t1\\t0.7\": expected 5 fields as in the header, found 4), so it is not evaluated on the rest",
		a, at(a, "q1\td3\t1\t0.7"))
	wants := []want{
		{rm.StageGroup, a, at(a, "q1\td1\t1\t0.9\t1"), q1},
		{rm.StageGroup, a, at(a, "q1\td2\t0\t0.8\t2"), q1},
		{rm.StageGroup, a, at(a, "q1\td8\t1\t0.2\t0.5"), q1},
		{rm.StageParse, a, at(a, "q1\td3\t1\t0.7"), `line "q1\td3\t1\t0.7": expected 5 fields as in the header, found 4`},
		{rm.StageParse, a, at(a, "q1\td4\t1\tNaN\t1"), `field score: value "NaN": NaN score`},
		{rm.StageParse, a, at(a, "\td5\t1\t0.5\t1"), `field qid: value "": empty qid`},
		{rm.StageParse, a, at(a, "q1\td6\tyes\t0.4\t1"), `field label: value "yes": not a number`},
		// An infinite weight is read, as eval's reader reads it (the
		// metric refuses it): the row goes with its query.
		{rm.StageGroup, a, at(a, "q1\td7\t1\t0.3\t+Inf"), q1},
		{rm.StageGroup, a, at(a, "q2\td1\t1\t0.9\t1"), "the query mixes 1 rows with a weight and 1 without"},
		{rm.StageGroup, b, at(b, "q2\td2\t0\t0.5"), "the query mixes 1 rows with a weight and 1 without"},
		{rm.StageGroup, a, at(a, "q3\td1\t1\t0.9\t1"), `document "d1" appears twice`},
		{rm.StageGroup, a, at(a, "q3\td1\t0\t0.1\t1"), `document "d1" appears twice`},
		{rm.StageParse, c, 0, `field header: value "qid\tdoc\tlabel": no column named "score"`},
		{rm.StageParse, c, at(c, "q4\td1\t1"), `the file's field header: value "qid\tdoc\tlabel": no column named "score"`},
		{rm.StageParse, c, at(c, "q4\td2\t0"), `the file's field header: value "qid\tdoc\tlabel": no column named "score"`},
	}
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN)
	got := runTSV(t, filepath.Join(dir, "*.tsv"), ms, beamio.Options{BlockSize: 50}, rm.DedupeError)

	slices.SortFunc(got.dead, func(x, y rm.DeadLetter) int { return x.Pos.Compare(y.Pos) })
	slices.SortFunc(wants, func(x, y want) int {
		return rm.Pos{File: x.file, Offset: x.off}.Compare(rm.Pos{File: y.file, Offset: y.off})
	})
	if len(got.dead) != len(wants) {
		for _, d := range got.dead {
			t.Log(d)
		}
		t.Fatalf("%d dead letters, want %d", len(got.dead), len(wants))
	}
	for i, w := range wants {
		d := got.dead[i]
		if d.Stage != w.stage || d.Pos.File != w.file || d.Pos.Offset != w.off || !strings.Contains(d.Reason, w.reason) {
			t.Errorf("dead letter %d: %s\n want %s %s@%d: %s", i, d, w.stage, w.file, w.off, w.reason)
		}
		if d.Stage == rm.StageParse && d.Record == "" {
			t.Errorf("dead letter %d has no record", i)
		}
	}

	cnt := got.report.Counts
	if cnt.DeadLetters != int64(len(got.dead)) {
		t.Errorf("counted %d dead letters, wrote %d", cnt.DeadLetters, len(got.dead))
	}
	if err := cnt.Check(false); err != nil {
		t.Error(err)
	}
	// 16 records: 13 lines in a.tsv, 1 in b.tsv, 2 in c.tsv; 10 parse as
	// rows, of which q1's four, q2's two and q3's two are dead letters
	// of the group step; 6 parse errors, plus c.tsv's header as a file
	// error.
	wantCounts := rm.Counts{
		Records: 16, BlankLines: 1, HeaderLines: 3, Rows: 10, ParseErrors: 6, FileErrors: 1,
		DeadGroupRows: 8, Queries: 1, Items: 2, DeadLetters: 15,
	}
	if cnt != wantCounts {
		t.Errorf("counts\n %+v\nwant\n %+v", cnt, wantCounts)
	}
	// Only q5 is left: d1 (0), d2 (1), so AP = 1/2.
	if v := got.report.Measures[0].Value; v != 0.5 {
		t.Errorf("MAP %v, want 1/2", v)
	}
}

// TestBadRowRejectsQuery: a query with one malformed row goes wholly to
// the dead letters, in TSV and in TREC input (where a bad run line also
// takes the query's qrels lines with it); the clean query is evaluated.
// `rankmetrics eval` refuses the same input with an error.
func TestBadRowRejectsQuery(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// q1: a relevant document first (AP 1 if the bad row were dropped),
	// then a row with a NaN score; q2: labels 0, 1, so AP 1/2.
	tsv := write("run.tsv", "qid\tdoc\tlabel\tscore\nq1\td1\t1\t0.9\nq1\td2\t0\tNaN\nq2\td1\t0\t0.9\nq2\td2\t1\t0.8\n")
	qrels := write("qrels.txt", "q1 0 d1 1\nq2 0 d2 1\n")
	run := write("run.txt", "q1 Q0 d1 1 0.9 r\nq1 Q0 d2 2 zero r\nq2 Q0 d1 1 0.9 r\nq2 Q0 d2 2 0.8 r\n")
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN)

	check := func(t *testing.T, got pipelineOut, wantDead map[string]string) {
		t.Helper()
		if c := got.report.Counts; c.Queries != 1 || c.Check(false) != nil {
			t.Errorf("counts %+v", c)
		}
		if v := got.report.Measures[0].Value; v != 0.5 {
			t.Errorf("MAP %v, want 1/2 (q2 alone)", v)
		}
		if _, ok := got.perQ["q1"]; ok {
			t.Error("q1 was evaluated")
		}
		gotDead := map[string]string{}
		for _, d := range got.dead {
			gotDead[fmt.Sprintf("%s %s@%d", d.Stage, filepath.Base(d.Pos.File), d.Pos.Offset)] = d.Reason
		}
		if len(gotDead) != len(wantDead) {
			t.Errorf("dead letters %v, want %v", gotDead, wantDead)
		}
		for k, w := range wantDead {
			if !strings.Contains(gotDead[k], w) {
				t.Errorf("dead letter %s: %q, want %q", k, gotDead[k], w)
			}
		}
	}

	t.Run("tsv", func(t *testing.T) {
		got := runTSV(t, tsv, ms, beamio.Options{}, rm.DedupeError)
		check(t, got, map[string]string{
			"parse run.tsv@32": `field score: value "NaN": NaN score`,
			"group run.tsv@20": "the query has 1 row(s) rejected by the reader (the first at " + tsv + `@32: field score: value "NaN": NaN score), so it is not evaluated on the rest`,
		})
	})
	t.Run("trec", func(t *testing.T) {
		p, s := beam.NewPipelineWithRoot()
		q, r := beamio.ReadTREC(s, []string{qrels}, []string{run}, beamio.Options{})
		lists, err := rm.JoinTREC(s, q.Output, r.Output, rm.DedupeError)
		if err != nil {
			t.Fatal(err)
		}
		got := runAndRead(t, p, s, lists, ms, q, r)
		why := "the query has 1 row(s) rejected by the reader (the first at " + run + `@17: field score: value "zero": not a number)`
		check(t, got, map[string]string{
			"parse run.txt@17":  `field score: value "zero": not a number`,
			"group run.txt@0":   why,
			"group qrels.txt@0": why,
		})
	})
	t.Run("eval refuses it", func(t *testing.T) {
		for _, args := range [][]string{{tsv}, {qrels, run}} {
			cmd := exec.Command(evalBinary(t), append(append([]string{"eval", "-q"}, evalArgs(ms)...), args...)...)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Errorf("rankmetrics eval %v: %v, want an error\n%s", args, err, out)
			}
			if !strings.Contains(string(out), filepath.Base(args[len(args)-1])) {
				t.Errorf("rankmetrics eval %v: the error does not name the file:\n%s", args, out)
			}
		}
	})
}

// TestInfiniteLabelRejectsQuery: a label or relevance of ±Inf (inf, -inf,
// 1e400) is rejected at the parser with rankmetrics eval's message, and its
// query goes wholly to the dead letters, in TSV, TREC qrels and Parquet
// input; the clean query q2 (AP 1/2) is evaluated.
func TestInfiniteLabelRejectsQuery(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, body []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, body, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	type prow struct {
		QID   string  `parquet:"qid"`
		Doc   string  `parquet:"doc"`
		Label float64 `parquet:"label"`
		Score float64 `parquet:"score"`
	}
	var pq bytes.Buffer
	if err := parquet.Write(&pq, []prow{{"q1", "d1", 1, 0.9}, {"q1", "d2", math.Inf(-1), 0.8}, {"q2", "d1", 0, 0.9}, {"q2", "d2", 1, 0.8}}); err != nil {
		t.Fatal(err)
	}
	const inf = "infinite label (labels must be finite; NaN masks an item)"
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN)
	tests := []struct {
		name string
		read func(s beam.Scope) (rm.Step, []rm.Step, error)
		want string // the parse dead letter's reason
	}{
		{"tsv 1e400", func(s beam.Scope) (rm.Step, []rm.Step, error) {
			path := write("in.tsv", []byte("qid\tdoc\tlabel\tscore\nq1\td1\t1\t0.9\nq1\td2\t1e400\t0.8\nq2\td1\t0\t0.9\nq2\td2\t1\t0.8\n"))
			st := beamio.ReadDelimited(s, []string{path}, '\t', beamio.Options{})
			l, err := rm.GroupChunks(s, st.Output, rm.DedupeError)
			return l, []rm.Step{st}, err
		}, `field label: value "1e400": ` + inf},
		{"tsv -inf", func(s beam.Scope) (rm.Step, []rm.Step, error) {
			path := write("neg.tsv", []byte("qid\tdoc\tlabel\tscore\nq1\td1\t1\t0.9\nq1\td2\t-inf\t0.8\nq2\td1\t0\t0.9\nq2\td2\t1\t0.8\n"))
			st := beamio.ReadDelimited(s, []string{path}, '\t', beamio.Options{})
			l, err := rm.GroupChunks(s, st.Output, rm.DedupeError)
			return l, []rm.Step{st}, err
		}, `field label: value "-inf": ` + inf},
		{"qrels inf", func(s beam.Scope) (rm.Step, []rm.Step, error) {
			qrels := write("qrels", []byte("q1 0 d1 1\nq1 0 d2 inf\nq2 0 d2 1\n"))
			run := write("run", []byte("q1 Q0 d1 1 0.9 r\nq2 Q0 d1 1 0.9 r\nq2 Q0 d2 2 0.8 r\n"))
			q, r := beamio.ReadTREC(s, []string{qrels}, []string{run}, beamio.Options{})
			l, err := rm.JoinTREC(s, q.Output, r.Output, rm.DedupeError)
			return l, []rm.Step{q, r}, err
		}, `field rel: value "inf": infinite relevance (judgments must be finite)`},
		{"parquet -Inf", func(s beam.Scope) (rm.Step, []rm.Step, error) {
			path := write("in.parquet", pq.Bytes())
			st := beamio.ReadParquet(s, []string{path}, beamio.Options{})
			l, err := rm.GroupChunks(s, st.Output, rm.DedupeError)
			return l, []rm.Step{st}, err
		}, `field label: value "-Inf": ` + inf},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, s := beam.NewPipelineWithRoot()
			lists, up, err := tc.read(s)
			if err != nil {
				t.Fatal(err)
			}
			got := runAndRead(t, p, s, lists, ms, up...)
			if v := got.report.Measures[0].Value; v != 0.5 || got.report.Counts.Queries != 1 {
				t.Errorf("MAP %v over %d queries, want 1/2 over q2 alone", v, got.report.Counts.Queries)
			}
			var parse, group int
			for _, d := range got.dead {
				switch d.Stage {
				case rm.StageParse:
					parse++
					if d.Reason != tc.want || d.QID != "q1" {
						t.Errorf("parse dead letter %+v, want qid q1 and reason %q", d, tc.want)
					}
				case rm.StageGroup:
					group++
					if d.QID != "q1" || !strings.Contains(d.Reason, tc.want) {
						t.Errorf("group dead letter %+v, want q1 and %q", d, tc.want)
					}
				}
			}
			if parse != 1 || group == 0 {
				t.Errorf("%d parse and %d group dead letters, want 1 and the rest of q1: %+v", parse, group, got.dead)
			}
		})
	}
}
