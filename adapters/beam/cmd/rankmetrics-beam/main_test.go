package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/internal/beamtest"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// asBinary, set in the environment, makes the test binary run main: the
// tests run the command as users do without building it.
const asBinary = "RANKMETRICS_BEAM_TEST_AS_BINARY"

func TestMain(m *testing.M) {
	if os.Getenv(asBinary) == "1" {
		main()
		os.Exit(0)
	}
	quietLogs()
	os.Exit(beamtest.Main(m))
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
		{[]string{"--input", "a.tsv", "--input-format", "xml"}, `--input-format xml: unknown input format "xml"`},
		{[]string{"--input", "a.qrels"}, "--input-format auto: TREC input is --qrels GLOB and --run GLOB"},
		{[]string{"--input", "a.tsv", "--dtype", "float16"}, "--dtype"},
		{[]string{"--input", "a.tsv", "--ties", "first"}, "--ties"},
		{[]string{"--input", "a.tsv", "-m", "ndgc"}, `unknown measure "ndgc"`},
		{[]string{"--input", "a.tsv", "-m", "ndcg@5,alpha_nDCG@10"}, "-m alpha_nDCG@10: a diversity measure reads the qrels as subtopic qrels (qid subtopic docno rel), and --input has no qrels file: give --qrels GLOB and --run GLOB"},
		{[]string{"--input", "a.tsv", "-m", "P_10", "--run-only", "keep"}, `--run-only keep: measure "P_10"`},
		{[]string{"--input", "a.tsv", "--topn", "-3"}, "--topn -3"},
		{[]string{"--input", "a.tsv", "--dedupe", "last"}, "--dedupe"},
		{[]string{"--input", "a.tsv", "--run-only", "drop"}, `--run-only "drop"`},
		{[]string{"--input", "a.tsv", "--format", "xml"}, `--format "xml"`},
		{[]string{"--input", "a.tsv", "--max-dead-letters", "-1"}, "--max-dead-letters -1"},
		{[]string{"--input", "a.tsv", "--max-line-bytes", "0"}, "--max-line-bytes 0: want 1 <= BYTES <= 2147483647"},
		{[]string{"--input", "a.tsv", "--max-line-bytes", "4294967296"}, "--max-line-bytes 4294967296"},
		{[]string{"--input", "a.tsv", "--max-input-bytes", "-5"}, "--max-input-bytes -5: want BYTES >= 1"},
		{[]string{"--input", "a.tsv", "--columns", "qid,score"}, `--columns: no label column in "qid,score"`},
		{[]string{"--input", "a.parquet", "--columns", "qid,label,score"}, "--columns qid,label,score: only TSV and CSV files are read without a header, not parquet"},
		{[]string{"--qrels", "q", "--run", "r", "--columns", "qid,label,score"}, "--columns qid,label,score: only TSV and CSV files are read without a header, not trec"},
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
	// The table prints a float32 value as eval does, in float32's shortest form.
	line := "map      " + strconv.FormatFloat(want, 'g', -1, 32)
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

// TestParseArgs: the command line's help goes to stdout; an unknown flag
// is answered with the nearest flag name, and --seed, which was the tie
// seed, with --ties-seed.
func TestParseArgs(t *testing.T) {
	pointer := "run \"rankmetrics-beam -h\" for the flags\n"
	tests := []struct {
		args   []string
		help   bool
		stderr string
	}{
		{[]string{"-h"}, true, ""},
		{[]string{"--help"}, true, ""},
		{[]string{"--input", "a.tsv", "--ties-seed", "3"}, false, ""},
		{[]string{"--input", "a.tsv", "--colums", "qid,label,score"}, false, "rankmetrics-beam: unknown flag --colums: did you mean --columns?\n" + pointer},
		{[]string{"--qrels", "q", "--rn", "r"}, false, "rankmetrics-beam: unknown flag --rn: did you mean --run?\n" + pointer},
		{[]string{"--input", "a.tsv", "--max-dead-leters", "3"}, false, "rankmetrics-beam: unknown flag --max-dead-leters: did you mean --max-dead-letters?\n" + pointer},
		{[]string{"--input", "a.tsv", "--seed", "3"}, false, "rankmetrics-beam: unknown flag --seed: the seed of the random tie order is --ties-seed (--seed is the seed of resampling, as in rankmetrics compare; rankmetrics-beam has none)\n" + pointer},
		{[]string{"--input", "a.tsv", "--frobnicate"}, false, "rankmetrics-beam: unknown flag --frobnicate\n" + pointer},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			fs := flag.NewFlagSet("rankmetrics-beam", flag.ContinueOnError)
			var stdout, stderr bytes.Buffer
			fs.SetOutput(&stderr)
			o := &options{}
			o.register(fs)
			fs.Usage = func() { fmt.Fprint(fs.Output(), usage) }
			help, err := parseArgs(fs, tc.args, &stdout)
			if help != tc.help || (err != nil) != (tc.stderr != "") || stderr.String() != tc.stderr || (stdout.Len() > 0) != tc.help {
				t.Errorf("help %v, err %v, stdout %d bytes, stderr %q; want help %v, stderr %q", help, err, stdout.Len(), stderr.String(), tc.help, tc.stderr)
			}
			if err == nil && !help && o.TiesSeed != 3 {
				t.Errorf("--ties-seed 3: seed %d", o.TiesSeed)
			}
		})
	}
}

// TestExecuteHeaderless: --columns reads TSV without a header line, as
// rankmetrics eval does.
func TestExecuteHeaderless(t *testing.T) {
	dir := t.TempDir()
	path, want := writeData(t, dir, "")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, rows, _ := strings.Cut(string(data), "\n")
	headerless := filepath.Join(dir, "headerless.tsv")
	if err := os.WriteFile(headerless, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := parse(t, "--input", headerless, "--columns", "qid,label,score", "--ties", "stable")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	rep, err := execute(context.Background(), p, "prism", io.Discard, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if rep.Measures[0].Value != want || rep.Counts.Queries != 30 || rep.Counts.DeadLetters != 0 || rep.Counts.HeaderLines != 0 {
		t.Errorf("MAP %v, counts %+v; want MAP %v over 30 queries, no dead letters, no header", rep.Measures[0].Value, rep.Counts, want)
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

// TestBinary runs the command as a process (the test binary running main): the report is not written when the run
// fails on dead letters, no temporary file outlives a run, and the help
// says which measures Beam evaluates.
func TestBinary(t *testing.T) {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, want := writeData(t, dir, "77\t1\tNaN\n")
	run := func(t *testing.T, args ...string) (stdout, stderr string, code int, tmp string) {
		t.Helper()
		tmp = t.TempDir()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp, asBinary+"=1")
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			code = ee.ExitCode()
		default:
			t.Fatal(err)
		}
		return o.String(), e.String(), code, tmp
	}
	noLeftovers := func(t *testing.T, tmp string) {
		t.Helper()
		entries, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("the run left %s in its TMPDIR", e.Name())
		}
	}

	t.Run("failed run writes no report", func(t *testing.T) {
		report := filepath.Join(dir, "report.json")
		_, stderr, code, tmp := run(t, "--input", path, "--ties", "stable", "--output", report)
		if code != 1 {
			t.Errorf("exit status %d, want 1\n%s", code, stderr)
		}
		msg := "rankmetrics-beam: too many dead letters: 1, more than --max-dead-letters 0 (report not written to " + report + ")"
		if !strings.Contains(stderr, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, stderr)
		}
		if _, err := os.Stat(report); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s after a failed run: %v, want no file", report, err)
		}
		noLeftovers(t, tmp)

		// Allowed dead letters: the run succeeds and writes the report.
		stdout, stderr, code, tmp := run(t, "--input", path, "--ties", "stable", "--output", report, "--max-dead-letters", "1")
		if code != 0 {
			t.Fatalf("exit status %d\n%s", code, stderr)
		}
		r, err := rm.ReadReport(context.Background(), report)
		if err != nil || r.Measures[0].Value != want {
			t.Errorf("report %+v, %v; want MAP %v", r, err, want)
		}
		if !strings.Contains(stdout, "report: "+report) || !strings.Contains(stderr, "1 dead letters in this run (give --dead-letters PATH to keep them)") {
			t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
		noLeftovers(t, tmp)
	})

	t.Run("a line over --max-line-bytes", func(t *testing.T) {
		// A gzip file whose q7 has a 4 MiB line (4 KiB compressed): with
		// a 1 KiB limit it goes to the dead letters, and q7 with it.
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		fmt.Fprintf(zw, "qid\tlabel\tscore\nq7\t1\t0.5\nq7\t0\t%s\nq8\t1\t1\n", strings.Repeat("9", 4<<20))
		zw.Close()
		bomb := filepath.Join(dir, "bomb.tsv.gz")
		if err := os.WriteFile(bomb, z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		dead := filepath.Join(dir, "bomb-dead.jsonl")
		stdout, stderr, code, _ := run(t, "--input", bomb, "--max-line-bytes", "1024", "--dead-letters", dead, "--format", "json")
		if code != 1 {
			t.Errorf("exit status %d, want 1\n%s", code, stderr)
		}
		for _, want := range []string{
			"parse " + bomb + "@25 qid \"q7\": line longer than 1024 bytes (--max-line-bytes raises the limit)",
			"group " + bomb + "@16 qid \"q7\": the query has 1 row(s) rejected by the reader (the first at " + bomb + "@25: line longer than 1024 bytes",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("stderr lacks %q:\n%s", want, stderr)
			}
		}
		var r rm.Report
		if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Counts.Queries != 1 || r.Measures[0].Value != 1 {
			t.Errorf("report %s: %v; want q8 alone, MAP 1", stdout, err)
		}
	})

	t.Run("help names the measures", func(t *testing.T) {
		stdout, stderr, code, _ := run(t, "-h")
		if code != 0 || stderr != "" {
			t.Errorf("exit status %d, stderr %q; want 0 and the help on stdout", code, stderr)
		}
		for _, want := range []string{`It runs the evaluation of "rankmetrics eval"`, "ndcg@K", "P_10", `"rankmetrics eval --batch 1 --accumulation exact"`,
			"a repeated --run is one run\ncut into files, evaluated as one", "  -columns ORDER", "  -ties-seed SEED"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("help lacks %q:\n%s", want, stdout)
			}
		}
	})

	t.Run("unknown flag", func(t *testing.T) {
		stdout, stderr, code, _ := run(t, "--input", path, "--colums", "qid,label,score")
		want := "rankmetrics-beam: unknown flag --colums: did you mean --columns?\nrun \"rankmetrics-beam -h\" for the flags\n"
		if code != 2 || stdout != "" || stderr != want {
			t.Errorf("exit status %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
		}
	})
}

// TestReadmeMeasures checks that the README says Beam runs eval's
// evaluation, and that its build instructions do not write into the source
// tree.
func TestReadmeMeasures(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if !strings.Contains(readme, "**Beam runs the evaluation of `rankmetrics eval`**") {
		t.Error("README does not say Beam runs the evaluation of rankmetrics eval")
	}
	for _, line := range strings.Split(readme, "\n") {
		if strings.Contains(line, "go build") && !strings.Contains(line, "-o bin/") && !strings.Contains(line, `-o "$(go env GOPATH)/bin/"`) &&
			!strings.Contains(line, "without `-o`") {
			t.Errorf("README builds into the source tree: %s", line)
		}
	}
}

// TestFormatMeasure: the report table prints a value as rankmetrics eval
// does, in the shortest form of the dtype it was computed in (hand-worked
// strings; a trec_eval measure is float64 whatever --dtype says).
func TestFormatMeasure(t *testing.T) {
	f32 := float64(float32(0.13999493))
	for _, c := range []struct {
		m    rm.MeasureResult
		d    metric.DType
		want string
	}{
		{rm.MeasureResult{Name: "map", Value: f32}, metric.Float32, "0.13999493"},
		{rm.MeasureResult{Name: "map@10:treceval", Value: f32}, metric.Float32, "0.13999493"},
		{rm.MeasureResult{Name: "map", Value: f32}, metric.Float64, "0.13999493420124054"},
		{rm.MeasureResult{Name: "P_5", Value: 0.3}, metric.Float32, "0.3"},
		{rm.MeasureResult{Name: "P_5", Value: f32}, metric.Float32, "0.13999493420124054"},
	} {
		if got := formatMeasure(c.m, c.d); got != c.want {
			t.Errorf("%s %v in %v: got %q, want %q", c.m.Name, c.m.Value, c.d, got, c.want)
		}
	}
}

// TestReadmeFlags: every flag the README names is one of the command's, or
// Beam's own, or one it names as another program's (eval's, Flink's job
// server's, docker's).
func TestReadmeFlags(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("rankmetrics-beam", flag.ContinueOnError)
	(&options{}).register(fs)
	others := map[string]bool{
		"accumulation": true, "batch": true, "compat": true, "unsorted": true, "ci": true, // rankmetrics eval's
		"flink-master": true, // Flink's job server's
		"net":          true, // docker run's
	}
	for _, m := range regexp.MustCompile(`--([a-z][a-z_-]*)`).FindAllStringSubmatch(string(readme), -1) {
		name := m[1]
		if fs.Lookup(name) == nil && flag.Lookup(name) == nil && !others[name] {
			t.Errorf("README names --%s, which is no flag of rankmetrics-beam", name)
		}
	}
}

// TestExecuteQueryPolicy: TREC queries count as in rankmetrics eval and
// compare: a judged query missing from the run scores 0 by default
// (trec_eval -c), a run covering a minority of the judged queries gets a
// warning, and a run without any judged query is an error.
func TestExecuteQueryPolicy(t *testing.T) {
	dir := t.TempDir()
	qrels := filepath.Join(dir, "qrels.txt")
	os.WriteFile(qrels, []byte("1 0 a 1\n2 0 b 1\n3 0 c 1\n"), 0o644)
	for _, c := range []struct {
		name, run string
		args      []string
		want      float64 // MAP, worked by hand
		evaluated int64
		stderr    string
		err       string
	}{
		// Topic 1: AP 1; topics 2 and 3 are not in the run: AP 0.
		{"default keeps judged queries", "1 Q0 a 1 1 r\n", nil, 1.0 / 3, 3,
			"warning: the run (RUN) covers 1 of the 3 judged queries; the 2 others count with value 0 (--qrels-only keep)", ""},
		{"skip", "1 Q0 a 1 1 r\n", []string{"--qrels-only", "skip"}, 1, 1, "the 2 others are skipped (--qrels-only skip)", ""},
		{"no query in common", "q1 Q0 a 1 1 r\n", nil, 0, 0, "", "no query is in both the qrels (QRELS: 3 queries) and the run (RUN: 1 queries)"},
	} {
		run := filepath.Join(dir, "run.txt")
		os.WriteFile(run, []byte(c.run), 0o644)
		p, err := parse(t, append([]string{"--qrels", qrels, "--run", run, "--dtype", "float64"}, c.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		rep, err := execute(context.Background(), p, "prism", io.Discard, &stderr)
		r := strings.NewReplacer("QRELS", qrels, "RUN", run)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), r.Replace(c.err)) {
				t.Errorf("%s: error %v, want %s", c.name, err, r.Replace(c.err))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if rep.Measures[0].Value != c.want || rep.Counts.Queries != c.evaluated {
			t.Errorf("%s: MAP %v over %d queries, want %v over %d", c.name, rep.Measures[0].Value, rep.Counts.Queries, c.want, c.evaluated)
		}
		if !strings.Contains(stderr.String(), r.Replace(c.stderr)) {
			t.Errorf("%s: stderr %s, want %s", c.name, stderr.String(), r.Replace(c.stderr))
		}
	}
}
