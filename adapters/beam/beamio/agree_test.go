package beamio_test

import (
	"bytes"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// TestTRECSeparatorsAsEval: TREC lines are cut as eval cuts them, at every
// byte up to ' ' (vertical tab, form feed, other control bytes), not only
// at spaces and tabs as Beam's own parser did, which sent such lines to
// the dead letters. Beam and eval give the same values, to the bit.
func TestTRECSeparatorsAsEval(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "all.qrels")
	run := filepath.Join(dir, "all.run")
	write := func(path, body string) {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(qrels, "1 0 a 1\r\n1\v0\vb\x01\x010\n1 0 c 2\n2\f0\fa\f1\n2 0 b 0\n")
	write(run, "1 Q0 a 1 0.5 t\n1\vQ0\vb\x1f2\x1f0.7\x1ft\r\n1 Q0 c 3 0.1 t\n2\x00Q0\x00a 1 0.2 t\n2 Q0 b\v2 0.9\ft\n")
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN, 10)
	ev := runEval(t, append(evalArgs(ms), "--qrels-only", "skip", qrels, run)...)

	p, s := beam.NewPipelineWithRoot()
	qs, rs := beamio.ReadTREC(s, []string{qrels}, []string{run}, beamio.Options{BlockSize: 16})
	lists, err := rm.JoinTREC(s, qs.Output, rs.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got := runAndRead(t, p, s, lists, ms, qs, rs)
	if len(got.dead) != 0 {
		t.Errorf("dead letters %v", got.dead)
	}
	if c := got.report.Counts; c.Queries != 2 || c.Rows != 5 || c.QrelsRows != 5 || c.Queries != ev.counts["queries_evaluated"] {
		t.Errorf("counts %+v, eval %v", c, ev.counts)
	}
	for i, m := range ms {
		if v := strconv.FormatFloat(got.report.Measures[i].Value, 'g', -1, 64); v != ev.measures[m.Name] {
			t.Errorf("%s: pipeline %s, rankmetrics eval %s", m.Name, v, ev.measures[m.Name])
		}
		for qid, want := range ev.perQ {
			if v := strconv.FormatFloat(got.perQ[qid][i], 'g', -1, 64); v != want[m.Name] {
				t.Errorf("qid %s %s: pipeline %s, rankmetrics eval %s", qid, m.Name, v, want[m.Name])
			}
		}
	}
}

// TestInfiniteWeightAsEval: a weight of +Inf is a number to eval's reader
// (TSV and Parquet), and the metric refuses it (eval fails naming the
// query). Beam reads it too, as eval does (its own parsers rejected it as
// a parse error), and the query goes to the dead letters of the evaluate
// step.
func TestInfiniteWeightAsEval(t *testing.T) {
	dir := t.TempDir()
	tsv := filepath.Join(dir, "w.tsv")
	body := "qid\tdoc\tlabel\tscore\tweight\nq1\td1\t1\t0.9\t+Inf\nq2\td1\t0\t0.9\t1\nq2\td2\t1\t0.8\t1\n"
	if err := os.WriteFile(tsv, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	type wrow struct {
		QID    string  `parquet:"qid"`
		Doc    string  `parquet:"doc"`
		Label  float64 `parquet:"label"`
		Score  float64 `parquet:"score"`
		Weight float64 `parquet:"weight"`
	}
	var pq bytes.Buffer
	if err := parquet.Write(&pq, []wrow{{"q1", "d1", 1, 0.9, math.Inf(1)}, {"q2", "d1", 0, 0.9, 1}, {"q2", "d2", 1, 0.8, 1}}); err != nil {
		t.Fatal(err)
	}
	pqPath := filepath.Join(dir, "w.parquet")
	if err := os.WriteFile(pqPath, pq.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN)
	for _, path := range []string{tsv, pqPath} {
		t.Run(filepath.Ext(path), func(t *testing.T) {
			out, err := exec.Command(evalBinary(t), append(append([]string{"eval", "-q"}, evalArgs(ms)...), path)...).CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || !strings.Contains(string(out), `query "q1"`) || !strings.Contains(string(out), "weight +Inf is not finite") {
				t.Errorf("rankmetrics eval: %v, want an error about q1's weight\n%s", err, out)
			}
			var got pipelineOut
			if path == tsv {
				got = runTSV(t, path, ms, beamio.Options{}, rm.DedupeError)
			} else {
				p, s := beam.NewPipelineWithRoot()
				rows := beamio.ReadParquet(s, []string{path}, beamio.Options{})
				lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
				if err != nil {
					t.Fatal(err)
				}
				got = runAndRead(t, p, s, lists, ms, rows)
			}
			if len(got.dead) != 1 || got.dead[0].Stage != rm.StageEvaluate || got.dead[0].QID != "q1" || !strings.Contains(got.dead[0].Reason, "weight") {
				t.Fatalf("dead letters %v, want q1's of the evaluate step", got.dead)
			}
			if c := got.report.Counts; c.Rows != 3 || c.ParseErrors != 0 || c.Queries != 1 {
				t.Errorf("counts %+v", c)
			}
			if v := got.report.Measures[0].Value; v != 0.5 {
				t.Errorf("MAP %v, want 1/2 (q2 alone)", v)
			}
		})
	}
}
