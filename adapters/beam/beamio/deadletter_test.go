package beamio_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// TestDeadLetters feeds malformed rows of every kind and checks that each
// goes to the dead letters with its place and reason, that the counts add
// up, and that the value is the one of the clean rows alone.
func TestDeadLetters(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		// q1 is clean; q3 repeats a document; q2 also has rows in b.tsv,
		// which has no weight column.
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
			"q3\td1\t0\t0.1\t1\n",
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
	wants := []want{
		{rm.StageParse, a, at(a, "q1\td3\t1\t0.7"), "expected 5 fields as in the header, found 4"},
		{rm.StageParse, a, at(a, "q1\td4\t1\tNaN\t1"), `field score: value "NaN": NaN score`},
		{rm.StageParse, a, at(a, "\td5\t1\t0.5\t1"), `field qid: value "": empty qid`},
		{rm.StageParse, a, at(a, "q1\td6\tyes\t0.4\t1"), `field label: value "yes": not a number`},
		{rm.StageParse, a, at(a, "q1\td7\t1\t0.3\t+Inf"), `field weight: value "+Inf": a weight must be finite`},
		{rm.StageGroup, a, at(a, "q2\td1\t1\t0.9\t1"), "the query mixes 1 rows with a weight and 1 without"},
		{rm.StageGroup, b, at(b, "q2\td2\t0\t0.5"), "the query mixes 1 rows with a weight and 1 without"},
		{rm.StageGroup, a, at(a, "q3\td1\t1\t0.9\t1"), `document "d1" appears twice`},
		{rm.StageGroup, a, at(a, "q3\td1\t0\t0.1\t1"), `document "d1" appears twice`},
		{rm.StageParse, c, 0, `header: no column named "score"`},
		{rm.StageParse, c, at(c, "q4\td1\t1"), `the file's header: no column named "score"`},
		{rm.StageParse, c, at(c, "q4\td2\t0"), `the file's header: no column named "score"`},
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
	// 14 records: 11 lines in a.tsv, 1 in b.tsv, 2 in c.tsv; 7 parse as
	// rows, of which q2's two and q3's two are dead letters of the group
	// step; 7 parse errors, plus c.tsv's header as a file error.
	wantCounts := rm.Counts{
		Records: 14, BlankLines: 1, HeaderLines: 3, Rows: 7, ParseErrors: 7, FileErrors: 1,
		DeadGroupRows: 4, Queries: 1, Items: 3, DeadLetters: 12,
	}
	if cnt != wantCounts {
		t.Errorf("counts\n %+v\nwant\n %+v", cnt, wantCounts)
	}
	// Only q1 is left: d1 (1, w 1), d2 (0, w 2), d8 (1, w 0.5) in that
	// order, so AP = (1·1 + 2/3·0.5) / 1.5 = 8/9.
	if v := got.report.Measures[0].Value; v < 8.0/9-1e-15 || v > 8.0/9+1e-15 {
		t.Errorf("MAP %v, want 8/9", v)
	}
}
