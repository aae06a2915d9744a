package beam_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	rmbeam "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/internal/beamtest"
	"github.com/rankmetrics/rankmetrics/metric"
)

func TestMain(m *testing.M) {
	os.Exit(beamtest.Main(m))
}

// TestGroupListsPipeline runs rows made in memory (the Row API, no reader)
// through GroupLists, Evaluate and Write on prism.
func TestGroupListsPipeline(t *testing.T) {
	pos := func(off int64) rmbeam.Pos { return rmbeam.Pos{File: "mem", Offset: off} }
	rows := []rmbeam.Row{
		// q1, in Pos order: labels 1, 0, 1 scored 3, 2, 1: AP (1 + 2/3)/2.
		{QID: "q1", Doc: "c", Label: 1, Score: 1, Pos: pos(5)},
		{QID: "q1", Doc: "a", Label: 1, Score: 3, Pos: pos(1)},
		{QID: "q1", Doc: "b", Label: 0, Score: 2, Pos: pos(3)},
		// q2: two documents tie at 5; stable ties keep Pos order, so the
		// non-relevant one (offset 2) ranks first: AP 1/2.
		{QID: "q2", Doc: "y", Label: 1, Score: 5, Pos: pos(4)},
		{QID: "q2", Doc: "x", Label: 0, Score: 5, Pos: pos(2)},
		// q3 repeats a document: with DedupeError both rows are dead
		// letters.
		{QID: "q3", Doc: "z", Label: 1, Score: 1, Pos: pos(6)},
		{QID: "q3", Doc: "z", Label: 1, Score: 2, Pos: pos(7)},
		// q4 has an infinite weight, which the metric refuses: the
		// query is a dead letter of the evaluate step.
		{QID: "q4", Doc: "w", Label: 1, Score: 1, Weight: math.Inf(1), HasWeight: true, Pos: pos(8)},
	}
	r, dead := evaluateOnPrism(t, func(s beam.Scope) (rmbeam.Step, error) {
		return rmbeam.GroupLists(s, beam.CreateList(s, rows), rmbeam.DedupeError)
	})
	want := ((1+2.0/3)/2 + 0.5) / 2
	if v := r.Measures[0].Value; math.Abs(v-want) > 1e-15 {
		t.Errorf("MAP %v, want %v", v, want)
	}
	c := r.Counts
	if len(dead) != 3 || c.DeadGroupRows != 2 || c.DeadQueries != 1 || c.DeadQueryItems != 1 || c.Queries != 2 || c.Items != 5 || c.DeadLetters != 3 {
		t.Errorf("dead letters %v, counts %+v", dead, c)
	}
	stages := map[rmbeam.Stage]int{}
	for _, d := range dead {
		stages[d.Stage]++
		if d.Stage == rmbeam.StageEvaluate && (d.QID != "q4" || d.Rows != 1 || !strings.Contains(d.Reason, "weight")) {
			t.Errorf("evaluate dead letter %+v", d)
		}
	}
	if stages[rmbeam.StageGroup] != 2 || stages[rmbeam.StageEvaluate] != 1 {
		t.Errorf("dead letters by stage %v", stages)
	}
	// Rows = Items + DeadQueryItems + DeadGroupRows once Rows counts the
	// rows given (no reader counted them here).
	c.Rows, c.Records = 8, 8
	if err := c.Check(false); err != nil {
		t.Error(err)
	}
}

// TestGroupChunksRejections: a query of which a reader rejected a row, and
// a query with rows in a file that could not be read to the end, go wholly
// to the dead letters; the other query is evaluated.
func TestGroupChunksRejections(t *testing.T) {
	chunks := []rmbeam.Chunk{
		// q1: two rows, and one rejected by the reader at a@2.
		{QID: "q1", File: "a", Items: []rmbeam.Item{{Doc: "d1", Label: 1, Score: 2, Offset: 0}, {Doc: "d2", Score: 1, Offset: 1}}},
		{QID: "q1", File: "a", Rejected: 1, RejectedAt: 2, Reason: "bad"},
		// q2: a row in a, and one in b, which failed.
		{QID: "q2", File: "a", Items: []rmbeam.Item{{Doc: "d1", Label: 1, Score: 2, Offset: 3}}},
		{QID: "q2", File: "b", Items: []rmbeam.Item{{Doc: "d2", Score: 1, Offset: 0}}},
		{File: "b", FileFailed: true, Reason: "corrupt"},
		// q3: labels 0, 1 in score order: AP 1/2.
		{QID: "q3", File: "a", Items: []rmbeam.Item{{Doc: "d1", Score: 2, Offset: 4}, {Doc: "d2", Label: 1, Score: 1, Offset: 5}}},
	}
	r, dead := evaluateOnPrism(t, func(s beam.Scope) (rmbeam.Step, error) {
		return rmbeam.GroupChunks(s, beam.CreateList(s, chunks), rmbeam.DedupeError)
	})
	if c := r.Counts; r.Measures[0].Value != 0.5 || c.Queries != 1 || c.DeadGroupRows != 4 || c.DeadLetters != 4 {
		t.Errorf("MAP %v, counts %+v; want 1/2 (q3 alone), 4 dead rows", r.Measures[0].Value, c)
	}
	want := map[string]string{
		"q1 a@0": "the query has 1 row(s) rejected by the reader (the first at a@2: bad), so it is not evaluated on the rest",
		"q1 a@1": "the query has 1 row(s) rejected by the reader (the first at a@2: bad), so it is not evaluated on the rest",
		"q2 a@3": "the query has rows in b, which could not be read to the end (corrupt), so it is not evaluated on part of its rows",
		"q2 b@0": "the query has rows in b, which could not be read to the end (corrupt), so it is not evaluated on part of its rows",
	}
	got := map[string]string{}
	for _, d := range dead {
		if d.Stage != rmbeam.StageGroup {
			t.Errorf("dead letter %v", d)
		}
		got[d.QID+" "+d.Pos.String()] = d.Reason
	}
	if len(got) != len(want) {
		t.Errorf("dead letters %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("dead letter %s: %q, want %q", k, got[k], w)
		}
	}
}

// evaluateOnPrism evaluates MAP (float64, stable ties) on the lists that
// group makes, on prism, and returns the report and the dead letters.
func evaluateOnPrism(t *testing.T, group func(beam.Scope) (rmbeam.Step, error)) (rmbeam.Report, []rmbeam.DeadLetter) {
	t.Helper()
	ms := []metric.Config{{Name: "map", TopN: metric.NoTopN, DType: metric.Float64, Ties: metric.Stable, Ragged: true}}
	p, s := beam.NewPipelineWithRoot()
	lists, err := group(s)
	if err != nil {
		t.Fatal(err)
	}
	out, err := rmbeam.Evaluate(s, lists, ms, rmbeam.EvalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths := rmbeam.Paths{Report: filepath.Join(dir, "r.json"), DeadLetters: filepath.Join(dir, "d.jsonl")}
	if err := rmbeam.Write(s, out, ms, paths); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	r, err := rmbeam.ReadReport(context.Background(), paths.Report)
	if err != nil {
		t.Fatal(err)
	}
	dead, err := rmbeam.ReadDeadLetters(context.Background(), paths.DeadLetters)
	if err != nil {
		t.Fatal(err)
	}
	return r, dead
}
