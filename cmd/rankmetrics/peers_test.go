package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The peers' own test suites, replayed: every assertion with a literal
// expected value in the tests of trec_eval (its quicktest), ir_measures,
// pytrec_eval, ranx, TF-Ranking, keras-rs and torchmetrics that maps onto a
// command of rankmetrics, recorded by parity/peers/replay.py under
// testdata/peers/SUITE/cases.jsonl with the value the suite asserts (never
// our output). testdata/peers/README.md documents the format.

// peersDir holds the suites, from this package's directory.
const peersDir = "../../testdata/peers"

// peersExpectedFailures lists the cases main cannot pass yet, each with the
// bullet of issue 33 that makes it pass. A listed case that passes fails the
// test, so that the list is emptied as the features land.
var peersExpectedFailures = map[string]string{
	"tf_ranking/estimator/MetricsTest.test_make_bpref_fn/1": "issue 33: BPREF joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_pwa_fn/1":   "issue 33: PWA joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_bpref_fn/2": "issue 33: BPREF joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_pwa_fn/2":   "issue 33: PWA joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_bpref_fn/3": "issue 33: BPREF joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_pwa_fn/3":   "issue 33: PWA joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_bpref_fn/4": "issue 33: BPREF joins the TF-Ranking family",
	"tf_ranking/estimator/MetricsTest.test_make_bpref_fn/5": "issue 33: BPREF joins the TF-Ranking family",

	"keras_rs/dcg/test_alternative_gain_rank_discount_fns":  "issue 33: the keras-rs profile takes keras-rs' gain and rank-discount functions",
	"keras_rs/ndcg/test_alternative_gain_rank_discount_fns": "issue 33: the keras-rs profile takes keras-rs' gain and rank-discount functions",
	"trec_eval/10.0/quicktest-09":                           "issue 33: trec_eval reads preference qrels and results (-R prefs)",
	"trec_eval/10.0/quicktest-10":                           "issue 33: trec_eval reads preference qrels and results (-R prefs)",
	"trec_eval/9.0.8/quicktest-07":                          "issue 33: trec_eval reads preference qrels and results (-R prefs)",
	"trec_eval/10.0/quicktest-11":                           "issue 33: trec_eval reads qrels as preferences (-R qrels_prefs)",
	"trec_eval/9.0.8/quicktest-08":                          "issue 33: trec_eval reads qrels as preferences (-R qrels_prefs)",
	"trec_eval/10.0/quicktest-12":                           "issue 33: trec_eval reads judgement groups (-R qrels_jg)",
	"trec_eval/10.0/quicktest-13":                           "issue 33: trec_eval reads judgement groups (-R qrels_jg)",
	"trec_eval/9.0.8/quicktest-09":                          "issue 33: trec_eval reads judgement groups (-R qrels_jg)",
	"trec_eval/10.0/quicktest-15":                           "issue 33: trec_eval reads z-score files (-Z)",
	"trec_eval/9.0.8/quicktest-11":                          "issue 33: trec_eval reads z-score files (-Z)",
	"ir_measures/test_cwl_eval/test_measures/1":             "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_cwl_eval/test_measures/13":            "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_cwl_eval/test_measures/14":            "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_cwl_eval/test_measures/15":            "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_cwl_eval/test_measures/16":            "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_cwl_eval/test_measures/18":            "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/6":               "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/7":               "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/14":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/15":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/23":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/24":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/32":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/33":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/41":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/42":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/50":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/51":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/59":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/60":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/68":              "issue 33: ir_measures' trectools provider computes the measures it lists under --provider",
	"ir_measures/test_providers/test_empty/69":              "issue 33: ir_measures' cwl_eval provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/1":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/2":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/3":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/4":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/5":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/6":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/7":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/8":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/9":                        "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/10":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/11":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/12":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/13":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/14":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/15":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/16":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/17":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/18":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/19":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/20":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/21":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/22":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/23":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/24":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/25":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/26":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/27":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/28":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/29":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/30":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/31":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/32":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/33":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/34":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
	"ir_measures/test_ranx/test_P/35":                       "issue 33: ir_measures' ranx provider computes the measures it lists under --provider",
}

// peerCase is one line of a suite's cases.jsonl.
type peerCase struct {
	ID       string `json:"id"`
	Upstream struct {
		Repo       string `json:"repo"`
		Version    string `json:"version"`
		File       string `json:"file"`
		Test       string `json:"test"`
		Line       int    `json:"line"`
		Assertions int    `json:"assertions"`
	} `json:"upstream"`
	// Args is the command line after "rankmetrics"; an argument equal to a
	// key of Files or Inline is replaced by the path of that file.
	Args []string `json:"args"`
	// Files maps a name to a file under testdata/peers (gzipped when its
	// name ends in .gz); Inline maps a name to the file's text.
	Files  map[string]string `json:"files"`
	Inline map[string]string `json:"inline"`
	Stdin  *string           `json:"stdin"`
	Expect peerExpect        `json:"expect"`
}

// peerExpect is what the suite asserts of a case.
type peerExpect struct {
	Exit int `json:"exit"`
	// StdoutFile is the file standard output must equal byte for byte.
	StdoutFile string `json:"stdout_file"`
	// Output names how standard output is read into values: "irm-jsonl"
	// (ir_measures -o jsonl), "eval-json" (eval --format json) or "compute"
	// (one compute answer per line, in order).
	Output string      `json:"output"`
	Values []peerValue `json:"values"`
	// Abs and Rel are the suite's tolerance: |got - want| <= Abs + Rel·|want|.
	Abs float64 `json:"abs"`
	Rel float64 `json:"rel"`
	// ExactRows says that the per-query values (qid other than "all") are
	// every per-query value the output holds: an empty list means none.
	ExactRows bool `json:"exact_rows"`
}

// peerValue is one expected value: of a query ("all" for the summary) and
// measure for irm-jsonl and eval-json; of the answer Qid (its "id") and
// key path Measure ("result", "per_list.0.1") for compute. An empty
// Measure is the one measure the output has for that query.
type peerValue struct {
	Qid     string    `json:"qid"`
	Measure string    `json:"measure"`
	Value   peerFloat `json:"value"`
}

// peerFloat is a number, or one of the strings "NaN", "Infinity",
// "-Infinity".
type peerFloat float64

func (f *peerFloat) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("peer value %s: %w", b, err)
		}
		*f = peerFloat(v)
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("peer value %s: %w", b, err)
	}
	*f = peerFloat(v)
	return nil
}

// readPeerCases reads every suite's cases, in suite then file order.
func readPeerCases(t *testing.T) []peerCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(peersDir, "*", "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no %s/*/cases.jsonl", peersDir)
	}
	sort.Strings(paths)
	var out []peerCase
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for n := 1; sc.Scan(); n++ {
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			var c peerCase
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s:%d: %v", p, n, err)
			}
			out = append(out, c)
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f.Close()
	}
	return out
}

// peerFile returns the bytes of a stored file, decompressed if gzipped.
func peerFile(name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(peersDir, filepath.FromSlash(name)))
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return io.ReadAll(zr)
}

// runPeerCase runs c in process and returns nil if it gives what the suite
// asserts, else what differs.
func runPeerCase(c peerCase, dir string) error {
	paths := map[string]string{}
	put := func(name string, b []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		paths[name] = p
		return os.WriteFile(p, b, 0o644)
	}
	for name, stored := range c.Files {
		b, err := peerFile(stored)
		if err != nil {
			return err
		}
		if err := put(name, b); err != nil {
			return err
		}
	}
	for name, text := range c.Inline {
		if err := put(name, []byte(text)); err != nil {
			return err
		}
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		if p, ok := paths[a]; ok {
			a = p
		}
		args[i] = a
	}
	var stdin io.Reader = strings.NewReader("")
	if c.Stdin != nil {
		stdin = strings.NewReader(*c.Stdin)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, stdin, &stdout, &stderr)
	code := exitStatus(&stderr, err)
	if code != c.Expect.Exit {
		return fmt.Errorf("exit status %d, want %d; stderr:\n%s", code, c.Expect.Exit, firstLines(stderr.String(), 5))
	}
	if c.Expect.StdoutFile != "" {
		want, err := peerFile(c.Expect.StdoutFile)
		if err != nil {
			return err
		}
		if !bytes.Equal(stdout.Bytes(), want) {
			return fmt.Errorf("standard output differs from %s: %s", c.Expect.StdoutFile, firstDiff(stdout.Bytes(), want))
		}
	}
	if c.Expect.Output == "" {
		if len(c.Expect.Values) > 0 {
			return fmt.Errorf("values without an output format")
		}
		return nil
	}
	got, err := peerValues(c.Expect.Output, stdout.Bytes())
	if err != nil {
		return err
	}
	byQid := map[string][]float64{}
	perQuery := 0
	for k, v := range got {
		q, _, _ := strings.Cut(k, "\t")
		byQid[q] = append(byQid[q], v)
		if q != "all" {
			perQuery++
		}
	}
	var bad []string
	wantPerQuery := 0
	for _, v := range c.Expect.Values {
		if v.Qid != "all" {
			wantPerQuery++
		}
		key := v.Qid + "\t" + v.Measure
		g, ok := got[key]
		if v.Measure == "" {
			ok = len(byQid[v.Qid]) == 1
			if ok {
				g = byQid[v.Qid][0]
			}
		}
		want := float64(v.Value)
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s %s: no value, want %v", v.Qid, v.Measure, want))
		case !peerClose(g, want, c.Expect.Abs, c.Expect.Rel):
			bad = append(bad, fmt.Sprintf("%s %s: %v, want %v (abs %g, rel %g)", v.Qid, v.Measure, g, want, c.Expect.Abs, c.Expect.Rel))
		}
	}
	if c.Expect.ExactRows && perQuery != wantPerQuery {
		bad = append(bad, fmt.Sprintf("%d per-query values, want %d", perQuery, wantPerQuery))
	}
	if len(bad) > 0 {
		return fmt.Errorf("%d of %d values differ:\n  %s", len(bad), len(c.Expect.Values), strings.Join(bad, "\n  "))
	}
	return nil
}

// peerClose reports whether got is within the tolerance of want; NaN equals
// NaN, an infinity only itself.
func peerClose(got, want, abs, rel float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return got == want
	}
	return math.Abs(got-want) <= abs+rel*math.Abs(want)
}

// peerValues reads standard output into values keyed by "QID\tMEASURE".
func peerValues(format string, out []byte) (map[string]float64, error) {
	vals := map[string]float64{}
	num := func(raw json.RawMessage) (float64, error) {
		var f peerFloat
		if string(raw) == "null" {
			return math.NaN(), nil
		}
		err := f.UnmarshalJSON(raw)
		return float64(f), err
	}
	switch format {
	case "irm-jsonl":
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if line == "" {
				continue
			}
			var r struct {
				Qid     *string         `json:"query_id"`
				Measure string          `json:"measure"`
				Value   json.RawMessage `json:"value"`
			}
			// Python's json writes NaN and the infinities bare.
			fixed := line
			for _, tok := range []string{"-Infinity", "Infinity", "NaN"} {
				fixed = strings.Replace(fixed, ": "+tok+"}", `: "`+tok+`"}`, 1)
			}
			if err := json.Unmarshal([]byte(fixed), &r); err != nil {
				return nil, fmt.Errorf("ir_measures line %q: %w", line, err)
			}
			q := "all"
			if r.Qid != nil {
				q = *r.Qid
			}
			v, err := num(r.Value)
			if err != nil {
				return nil, err
			}
			vals[q+"\t"+r.Measure] = v
		}
	case "eval-json":
		var r struct {
			PerQuery []map[string]json.RawMessage `json:"per_query"`
			Measures map[string]json.RawMessage   `json:"measures"`
		}
		if err := json.Unmarshal(out, &r); err != nil {
			return nil, fmt.Errorf("eval JSON: %w", err)
		}
		for _, q := range r.PerQuery {
			var qid string
			if err := json.Unmarshal(q["qid"], &qid); err != nil {
				return nil, fmt.Errorf("eval JSON qid: %w", err)
			}
			for m, raw := range q {
				if m == "qid" {
					continue
				}
				v, err := num(raw)
				if err != nil {
					return nil, err
				}
				vals[qid+"\t"+m] = v
			}
		}
		for m, raw := range r.Measures {
			v, err := num(raw)
			if err != nil {
				return nil, err
			}
			vals["all\t"+m] = v
		}
	case "compute":
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			var r map[string]any
			d := json.NewDecoder(strings.NewReader(line))
			d.UseNumber()
			if err := d.Decode(&r); err != nil {
				return nil, fmt.Errorf("compute answer %q: %w", line, err)
			}
			id, _ := r["id"].(string)
			if e, ok := r["error"]; ok {
				return nil, fmt.Errorf("compute case %q: %v", id, e)
			}
			flattenPeer(vals, id+"\t", "", r)
		}
	default:
		return nil, fmt.Errorf("unknown output format %q", format)
	}
	return vals, nil
}

// flattenPeer adds the numbers of a compute answer under their key paths.
func flattenPeer(vals map[string]float64, prefix, path string, v any) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flattenPeer(vals, prefix, join(k), e)
		}
	case []any:
		for i, e := range x {
			flattenPeer(vals, prefix, join(strconv.Itoa(i)), e)
		}
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			vals[prefix+path] = f
		}
	case string:
		if f, err := strconv.ParseFloat(x, 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			vals[prefix+path] = f
		}
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestPeerSuites replays every case of testdata/peers: an unlisted case
// that fails and a listed one that passes both fail the test.
func TestPeerSuites(t *testing.T) {
	cases := readPeerCases(t)
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.ID] {
			t.Fatalf("case %s twice", c.ID)
		}
		seen[c.ID] = true
	}
	for id := range peersExpectedFailures {
		if !seen[id] {
			t.Errorf("expected failure %s is no case of testdata/peers", id)
		}
	}
	passed, failedAsExpected := 0, 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			err := runPeerCase(c, t.TempDir())
			why, listed := peersExpectedFailures[c.ID]
			switch {
			case err == nil && listed:
				t.Errorf("%s (%s %s) passes: remove it from peersExpectedFailures (%s)", c.ID, c.Upstream.File, c.Upstream.Test, why)
			case err == nil:
				passed++
			case listed:
				failedAsExpected++
			default:
				t.Errorf("%s (%s %s %s):\n%v", c.ID, c.Upstream.Repo, c.Upstream.File, c.Upstream.Test, err)
			}
		})
	}
	t.Logf("%d cases: %d passed, %d failed as listed in peersExpectedFailures", len(cases), passed, failedAsExpected)
}
