package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

func TestMain(m *testing.M) {
	quietLogs()
	ptest.MainWithDefault(m, "prism")
}

func parse(t *testing.T, args ...string) (*plan, error) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := &options{}
	o.register(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return o.plan()
}

func TestPlanErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "nothing to read"},
		{[]string{"--qrels", "q"}, "nothing to read"},
		{[]string{"--input", "a.tsv", "--run", "r"}, "not both"},
		{[]string{"--input", "a.txt"}, `cannot tell the format of "a.txt"`},
		{[]string{"--input", "a.tsv", "--input-format", "jsonl"}, `--input-format "jsonl"`},
		{[]string{"--input", "a.tsv", "--dtype", "float16"}, "--dtype"},
		{[]string{"--input", "a.tsv", "--ties", "first"}, "--ties"},
		{[]string{"--input", "a.tsv", "-m", "ndcg"}, `unknown measure "ndcg"`},
		{[]string{"--input", "a.tsv", "--topn", "-3"}, "--topn -3"},
		{[]string{"--input", "a.tsv", "--dedupe", "last"}, "--dedupe"},
		{[]string{"--input", "a.tsv", "--run-only", "drop"}, `--run-only "drop"`},
		{[]string{"--input", "a.tsv", "--format", "xml"}, `--format "xml"`},
		{[]string{"--input", "a.tsv", "--max-dead-letters", "-1"}, "--max-dead-letters -1"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, err := parse(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q", err, tc.want)
			}
		})
	}
	p, err := parse(t, "--input", "x.csv.gz", "-m", "map,map@5", "--topn", "5", "--topn", "10", "--dtype", "float64", "--ragged=false")
	if err != nil {
		t.Fatal(err)
	}
	if p.format != "csv" || len(p.measures) != 3 || p.measures[2].TopN != 10 || p.measures[1].Name != "map@5" ||
		p.measures[0].Accumulation != metric.Exact || p.measures[0].Ragged || p.measures[0].DType != metric.Float64 {
		t.Errorf("plan %+v", p)
	}
}

// writeData writes a small TSV and returns its path and the MAP of its
// queries computed by the metric directly (one Update per query, exact
// sums, float32, stable ties, ragged).
func writeData(t *testing.T, dir string, extra string) (string, float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("qid\tlabel\tscore\n")
	m, err := metric.NewMeanAveragePrecision(metric.WithTies(metric.Stable), metric.WithRagged(true), metric.WithAccumulation(metric.Exact))
	if err != nil {
		t.Fatal(err)
	}
	for q := range 30 {
		var labels, scores []float64
		for i := range 5 + q%7 {
			l, s := float64((q+i)%4/3), float64((q*7+i*3)%10)/10
			labels, scores = append(labels, l), append(scores, s)
			fmt.Fprintf(&b, "%d\t%v\t%v\n", q, l, s)
		}
		lab, _ := tensor.Ragged(labels, []int{0, len(labels)})
		sc, _ := tensor.Ragged(scores, []int{0, len(scores)})
		if err := m.Update(lab, sc, tensor.Weights{}); err != nil {
			t.Fatal(err)
		}
	}
	b.WriteString(extra)
	path := filepath.Join(dir, "data.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, m.Result()
}

func TestExecute(t *testing.T) {
	dir := t.TempDir()
	path, want := writeData(t, dir, "")
	p, err := parse(t, "--input", path, "--ties", "stable", "--output", filepath.Join(dir, "r.json"), "--per-query", filepath.Join(dir, "pq.tsv"),
		"--dead-letters", filepath.Join(dir, "dead.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	rep, err := execute(context.Background(), p, "prism", &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if rep.Measures[0].Value != want {
		t.Errorf("MAP %v, want %v", rep.Measures[0].Value, want)
	}
	line := "map      " + strconv.FormatFloat(want, 'g', -1, 64)
	if !strings.Contains(stdout.String(), line) || !strings.Contains(stdout.String(), "queries evaluated   30") {
		t.Errorf("stdout lacks %q:\n%s", line, stdout.String())
	}
	if !strings.Contains(stderr.String(), "30 queries") {
		t.Errorf("stderr: %s", stderr.String())
	}
	pq, err := os.ReadFile(filepath.Join(dir, "pq.tsv"))
	if err != nil || strings.Count(string(pq), "\n") != 30 {
		t.Errorf("per-query file: %v, %d lines", err, strings.Count(string(pq), "\n"))
	}

	// JSON on stdout is the report.
	p.o.format = "json"
	stdout.Reset()
	if _, err := execute(context.Background(), p, "prism", &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	var r rm.Report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Measures[0].Value != want {
		t.Errorf("json report %s: %v", stdout.String(), err)
	}
}

func TestExecuteDeadLetters(t *testing.T) {
	dir := t.TempDir()
	path, want := writeData(t, dir, "77\t1\tNaN\n78\t1\n")
	dead := filepath.Join(dir, "dead.jsonl")
	p, err := parse(t, "--input", path, "--ties", "stable", "--dead-letters", dead, "--output", filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	rep, err := execute(context.Background(), p, "prism", io.Discard, &stderr)
	if !errors.Is(err, errDeadLetters) {
		t.Fatalf("err %v, want too many dead letters", err)
	}
	if rep.Measures[0].Value != want || rep.Counts.DeadLetters != 2 {
		t.Errorf("MAP %v, %d dead letters; want %v, 2", rep.Measures[0].Value, rep.Counts.DeadLetters, want)
	}
	for _, s := range []string{"2 dead letters in " + dead, `NaN score: "77\t1\tNaN"`, "expected 3 fields as in the header, found 2"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
		}
	}
	p.o.maxDead = 2
	if _, err := execute(context.Background(), p, "prism", io.Discard, io.Discard); err != nil {
		t.Errorf("with --max-dead-letters 2: %v", err)
	}
	p.o.output = ""
	if _, err := execute(context.Background(), p, "dataflow", io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "--output and --dead-letters") {
		t.Errorf("remote runner without --output: %v", err)
	}
}
