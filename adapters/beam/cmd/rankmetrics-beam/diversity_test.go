package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// diversityData writes into dir a diversity qrels file (several subtopics
// a topic, a document judged in several subtopics, subtopic ids first
// seen out of sorted order) and a run, whole (qrels.txt, run.txt) and cut
// into shards whose paths sort in the order of the whole file
// (qrels-1.txt, qrels-2.txt.gz, run-1.txt, run-2.txt), a topic's lines in
// both shards.
func diversityData(t *testing.T, dir string) {
	t.Helper()
	var qrels, run []string
	for q := 1; q <= 24; q++ {
		for s := range 1 + q%4 {
			sub := fmt.Sprintf("s%d", (q*5+s*3)%7)
			for d := range 12 {
				if (q+d+s)%3 == 0 {
					qrels = append(qrels, fmt.Sprintf("%d %s d%d %d", q, sub, d, (q*d+s)%3))
				}
			}
		}
		for d := range 15 {
			score := float64((q*7+d*11)%13) / 4 // ties between documents
			run = append(run, fmt.Sprintf("%d Q0 d%d %d %g r", q, d, d+1, score))
		}
	}
	write := func(name string, lines []string, gz bool) {
		b := []byte(strings.Join(lines, "\n") + "\n")
		if gz {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(b)
			w.Close()
			b = z.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	qc, rc := len(qrels)*2/5, len(run)/2+3
	write("qrels.txt", qrels, false)
	write("qrels-1.txt", qrels[:qc], false)
	write("qrels-2.txt.gz", qrels[qc:], true)
	write("run.txt", run, false)
	write("run-1.txt", run[:rc], false)
	write("run-2.txt", run[rc:], false)
}

// evalValues runs the engine of `rankmetrics eval` in process on the TREC
// pair, with the subtopic qrels read from the qrels file as eval reads
// them, one query per update and exact sums (eval --batch 1 --accumulation
// exact --dedupe max), and returns the value of every measure.
func evalValues(t *testing.T, qrels, run string, names []string) []float64 {
	t.Helper()
	ctx := context.Background()
	q, err := os.Open(qrels)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	r, err := os.Open(run)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rd, err := runio.NewTRECReader(ctx, q, r, qrels, run, runio.Options{KeepDocs: true, Dedupe: runio.DedupeMax})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := runio.ReadSubtopicQrelsFile(ctx, qrels)
	if err != nil {
		t.Fatal(err)
	}
	ms := make([]evaluate.Measure, len(names))
	for i, n := range names {
		if ms[i], err = measure.Parse(n); err != nil {
			t.Fatal(err)
		}
	}
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType, cfg.Ties, cfg.Accumulation = metric.Float64, metric.Stable, metric.Exact
	res, err := evaluate.Run(ctx, rd, evaluate.Options{Measures: ms, Config: cfg, Batch: 1, Workers: 1, SubtopicQrels: sub})
	if err != nil {
		t.Fatal(err)
	}
	return res.Values
}

// TestExecuteDiversity: ir_measures' diversity measures read the qrels a
// second time as subtopic qrels, and give the values of rankmetrics
// eval's engine (whose golden tests hold it to ir_measures) to the bit,
// with the files whole and cut into shards (one gzipped), beside measures
// that read the qrels only as judgments.
func TestExecuteDiversity(t *testing.T) {
	dir := t.TempDir()
	diversityData(t, dir)
	names := []string{"alpha_nDCG@10", "ERR_IA@5", "nERR_IA@10", "NRBP", "alpha_nDCG(alpha=0.3)@5", "map", "P_10"}
	want := evalValues(t, filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "run.txt"), names)
	for _, files := range [][2]string{{"qrels.txt", "run.txt"}, {"qrels-*", "run-*"}} {
		args := []string{"--qrels", filepath.Join(dir, files[0]), "--run", filepath.Join(dir, files[1]), "--dtype", "float64", "--ties", "stable", "--dedupe", "max"}
		for _, n := range names {
			args = append(args, "-m", n)
		}
		p, err := parse(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		rep, err := execute(context.Background(), p, "prism", &bytes.Buffer{}, &stderr)
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", files[0], files[1], err, stderr.String())
		}
		if rep.Counts.Queries != 24 {
			t.Errorf("%s: %d queries evaluated, want 24", files[0], rep.Counts.Queries)
		}
		for i, m := range rep.Measures {
			if m.Name != names[i] || math.Float64bits(m.Value) != math.Float64bits(want[i]) {
				t.Errorf("%s %s: %s = %v, eval's %s = %v", files[0], files[1], m.Name, m.Value, names[i], want[i])
			}
			if m.Value == 0 || math.IsNaN(m.Value) {
				t.Errorf("%s: %s = %v: the data should give a value in (0, 1]", files[0], m.Name, m.Value)
			}
		}
	}
}
