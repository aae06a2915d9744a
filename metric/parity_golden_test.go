package metric_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/cases"
	"github.com/rankmetrics/rankmetrics/metric"
)

// goldenPath is the parity golden file written by parity/generate.py from
// the real TF-Ranking 0.5.5 (TensorFlow 2.15.1, CPU). parity/README.md
// describes its format.
const goldenPath = "../testdata/parity/map_tfr-0.5.5.jsonl.gz"

// goldenCase is one line of the golden file: a compute case plus what TF
// did with it.
type goldenCase struct {
	cases.Case
	Expect goldenExpect `json:"expect"`
}

type goldenExpect struct {
	Tags []string `json:"tags"`
	// Error is set when TF raised.
	Error string `json:"error"`
	// Result, PerList, ListWeights and MergedResult are TF's float32
	// outputs on a tie-free case.
	Result       *cases.Num    `json:"result"`
	PerList      [][]cases.Num `json:"per_list"`
	ListWeights  [][]cases.Num `json:"list_weights"`
	MergedResult *cases.Num    `json:"merged_result"`
	// Tie cases: TF's result over NSeeds global seeds.
	Tie    bool        `json:"tie"`
	NSeeds int         `json:"n_seeds"`
	Mean   cases.Num   `json:"mean"`
	Stderr float64     `json:"stderr"`
	Values []cases.Num `json:"values"`
}

func (c *goldenCase) has(tag string) bool { return slices.Contains(c.Expect.Tags, tag) }

// kind sorts a golden case into the group of tests that checks it.
func (c *goldenCase) kind() string {
	switch {
	case c.has("nan_score"):
		return "nan_score" // TF's value is undefined; we return an error
	case c.Expect.Error != "":
		return "error"
	case c.Expect.Tie:
		return "tie"
	case c.has("nan_weight") || c.has("inf_weight"):
		return "nonfinite_weight" // an error by default, by design
	default:
		return "exact"
	}
}

var golden struct {
	once  sync.Once
	cases []goldenCase
	err   error
}

// readGolden reads the golden file once per test binary.
func readGolden(t *testing.T) []goldenCase {
	t.Helper()
	golden.once.Do(func() { golden.cases, golden.err = loadGolden(goldenPath) })
	if golden.err != nil {
		t.Fatalf("parity golden file: %v", golden.err)
	}
	return golden.cases
}

func loadGolden(path string) ([]goldenCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	var out []goldenCase
	for line := 1; sc.Scan(); line++ {
		var c goldenCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// run evaluates a golden case with another dtype, tie policy and seed.
func run(c *goldenCase, dtype, ties string, seed uint64) cases.Answer {
	cc := c.Case
	cc.DType, cc.Ties, cc.Seed = dtype, ties, &seed
	return cases.Run(&cc)
}

// ulps is the distance between two float32s in units in the last place;
// NaN is at distance 0 from NaN and at distance MaxInt64 from a number.
func ulps(a, b float32) int64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxInt64
	}
	ord := func(x float32) int64 {
		i := int64(int32(math.Float32bits(x)))
		if i < 0 {
			i = -(i & 0x7fffffff)
		}
		return i
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return d
}

// ulpHistogram counts ULP distances in the buckets 0, 1, 2, 3-4, 5-16,
// 17-256, >256 and NaN-vs-number.
type ulpHistogram [8]int

func (h *ulpHistogram) add(d int64) {
	switch {
	case d == math.MaxInt64:
		h[7]++
	case d == 0:
		h[0]++
	case d == 1:
		h[1]++
	case d == 2:
		h[2]++
	case d <= 4:
		h[3]++
	case d <= 16:
		h[4]++
	case d <= 256:
		h[5]++
	default:
		h[6]++
	}
}

func (h *ulpHistogram) String() string {
	names := [...]string{"0", "1", "2", "3-4", "5-16", "17-256", ">256", "nan-vs-number"}
	var parts []string
	for i, n := range h {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s ulp: %d", names[i], n))
		}
	}
	return strings.Join(parts, ", ")
}

// sameFloat32 reports whether x (a float32 held in a float64) has the bits
// of TF's value want; every NaN equals every NaN.
func sameFloat32(x float64, want cases.Num) bool {
	w := float32(want)
	g := float32(x)
	if g != g && w != w {
		return true
	}
	return math.Float32bits(g) == math.Float32bits(w) && float64(g) == x
}

// TestParityGoldenFile checks the golden file is the one the parity issue
// asks for: at least 10,000 tie-free cases with long lists and large batches,
// at least 300 tie cases under at least 200 seeds, and the error cases.
func TestParityGoldenFile(t *testing.T) {
	counts := map[string]int{}
	maxB, maxL, multi := 0, 0, 0
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		counts[c.kind()]++
		if c.kind() == "tie" && c.Expect.NSeeds < 200 {
			t.Errorf("%s: %d seeds, want >= 200", c.ID, c.Expect.NSeeds)
		}
		if c.kind() != "exact" {
			continue
		}
		if len(c.Updates) > 1 {
			multi++
		}
		for _, u := range c.Updates {
			maxB = max(maxB, u.Labels.Len())
			for b := range u.Labels.Len() {
				maxL = max(maxL, len(u.Labels.Row(b)))
			}
		}
	}
	t.Logf("golden cases: %v; tie-free: max batch %d, max list %d, %d with several updates", counts, maxB, maxL, multi)
	if counts["exact"] < 10000 || counts["tie"] < 300 || counts["error"] == 0 || counts["nan_score"] == 0 {
		t.Errorf("golden file has %v; want >= 10000 exact, >= 300 tie, some error and nan_score cases", counts)
	}
	if maxB < 128 || maxL < 250 || multi < 1000 {
		t.Errorf("golden file lacks large cases: max batch %d (want 128), max list %d (want >= 250), %d multi-update cases (want >= 1000)", maxB, maxL, multi)
	}
}

// TestParityFloat32 runs every tie-free golden case in float32 mode and
// asserts TF's bits: the result, every per-list AP, every list weight and
// the result of merging one metric per update. The ties are Stable (the
// cases are tie-free, so every policy gives the same order).
func TestParityFloat32(t *testing.T) {
	var hRes, hList, hWeight ulpHistogram
	n, bad := 0, 0
	report := func(format string, args ...any) {
		bad++
		if bad <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		if c.kind() != "exact" {
			continue
		}
		n++
		a := run(c, "float32", "stable", 0)
		if a.Error != "" {
			report("%s: %s", c.ID, a.Error)
			continue
		}
		ex := &c.Expect
		hRes.add(ulps(float32(a.Result), float32(*ex.Result)))
		if !sameFloat32(a.Result, *ex.Result) {
			report("%s %v: result %v, TF %v", c.ID, ex.Tags, float32(a.Result), float32(*ex.Result))
		}
		if len(a.PerList) != len(ex.PerList) {
			report("%s: %d updates answered, TF %d", c.ID, len(a.PerList), len(ex.PerList))
			continue
		}
		for u := range ex.PerList {
			if len(a.PerList[u]) != len(ex.PerList[u]) {
				report("%s update %d: %d lists, TF %d", c.ID, u, len(a.PerList[u]), len(ex.PerList[u]))
				continue
			}
			for b := range ex.PerList[u] {
				hList.add(ulps(float32(a.PerList[u][b]), float32(ex.PerList[u][b])))
				hWeight.add(ulps(float32(a.ListWeights[u][b]), float32(ex.ListWeights[u][b])))
				if !sameFloat32(a.PerList[u][b], ex.PerList[u][b]) || !sameFloat32(a.ListWeights[u][b], ex.ListWeights[u][b]) {
					report("%s %v update %d list %d: AP %v weight %v, TF %v %v", c.ID, ex.Tags, u, b,
						float32(a.PerList[u][b]), float32(a.ListWeights[u][b]), float32(ex.PerList[u][b]), float32(ex.ListWeights[u][b]))
				}
			}
		}
		if ex.MergedResult != nil {
			got, err := mergedResult(c)
			if err != nil {
				report("%s: merge: %v", c.ID, err)
			} else if !sameFloat32(got, *ex.MergedResult) {
				report("%s: merged result %v, TF merge_state %v", c.ID, float32(got), float32(*ex.MergedResult))
			}
		}
	}
	t.Logf("float32 vs TF on %d tie-free cases: results {%v}; per-list AP {%v}; list weights {%v}", n, &hRes, &hList, &hWeight)
	if bad > 0 {
		t.Errorf("%d float32 mismatches with TF", bad)
	}
}

// mergedResult feeds each update of c to its own float32 metric and merges
// them in order, as the golden file's merged_result did with Keras
// merge_state.
func mergedResult(c *goldenCase) (float64, error) {
	cfg, err := c.Config()
	if err != nil {
		return 0, err
	}
	cfg.DType, cfg.Ties = metric.Float32, metric.Stable
	ms := make([]*metric.MeanAveragePrecision, len(c.Updates))
	for u := range c.Updates {
		m, err := metric.New(cfg)
		if err != nil {
			return 0, err
		}
		ms[u] = m.(*metric.MeanAveragePrecision)
		labels, preds, w, err := c.Updates[u].Inputs(c.Ragged)
		if err != nil {
			return 0, err
		}
		if err := ms[u].Update(labels, preds, w); err != nil {
			return 0, err
		}
	}
	if err := ms[0].Merge(ms[1:]...); err != nil {
		return 0, err
	}
	return ms[0].Result(), nil
}

// TestParityFloat64 runs the tie-free golden cases in float64 mode: the
// result and every per-list AP (all in [0, 1]) within 1e-6 of TF's float32
// value, every list weight within 1e-6 relative (weights reach 20, where one
// float32 ulp is 1.9e-6), and the same NaN and infinities.
//
// Cases tagged subnormal are left out: TF flushes their subnormal float32
// weights to zero, a float32 effect that float64 mode does not have (and
// float32 mode reproduces, see TestParityFloat32).
func TestParityFloat64(t *testing.T) {
	var maxRes, maxList, maxWeight float64
	n, skipped := 0, 0
	check := func(id, what string, got float64, want cases.Num, relative bool, worst *float64) {
		w := float64(want)
		switch {
		case math.IsNaN(w) || math.IsInf(w, 0):
			if !(math.IsNaN(w) && math.IsNaN(got)) && got != w {
				t.Errorf("%s: %s %v, TF %v", id, what, got, w)
			}
		default:
			d := math.Abs(got - w)
			if relative {
				d /= max(1, math.Abs(w))
			}
			if !(d <= 1e-6) {
				t.Errorf("%s: %s %v, TF %v (|Δ| %.3g)", id, what, got, w, d)
			}
			if d > *worst {
				*worst = d
			}
		}
	}
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		if c.kind() != "exact" {
			continue
		}
		if c.has("subnormal") {
			skipped++
			continue
		}
		n++
		a := run(c, "float64", "stable", 0)
		if a.Error != "" {
			t.Errorf("%s: %s", c.ID, a.Error)
			continue
		}
		check(c.ID, "result", a.Result, *c.Expect.Result, false, &maxRes)
		for u := range c.Expect.PerList {
			for b := range c.Expect.PerList[u] {
				check(c.ID, fmt.Sprintf("update %d list %d AP", u, b), a.PerList[u][b], c.Expect.PerList[u][b], false, &maxList)
				check(c.ID, fmt.Sprintf("update %d list %d weight", u, b), a.ListWeights[u][b], c.Expect.ListWeights[u][b], true, &maxWeight)
			}
		}
	}
	t.Logf("float64 vs TF float32 on %d tie-free cases (%d subnormal ones left out): max |Δ| result %.3g, per-list AP %.3g; max relative |Δ| list weight %.3g",
		n, skipped, maxRes, maxList, maxWeight)
}

// TestParityErrors: where TF raised (negative top-n, shapes that do not
// match), compute returns an error too. Where we deliberately differ, NaN
// scores and NaN or infinite weights, we return an error by default; the
// golden file records what TF did instead. A NaN score on an item that is
// masked anyway (invalid label, weight <= 0) changes nothing in TF, so there
// the answer must be one TF gave; likewise a case tagged for non-finite
// weights that ended up with none may be answered with TF's bits.
func TestParityErrors(t *testing.T) {
	counts := map[string]int{}
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		k := c.kind()
		if k != "error" && k != "nan_score" && k != "nonfinite_weight" {
			continue
		}
		counts[k]++
		for _, dtype := range []string{"float32", "float64"} {
			a := run(c, dtype, "random", 1)
			if a.Error != "" {
				continue
			}
			if k == "nan_score" && tfGave(c, a.Result, dtype == "float32") {
				counts["nan_score answered as TF"]++
				continue
			}
			if k == "nonfinite_weight" && c.Expect.Result != nil && !math.IsNaN(float64(*c.Expect.Result)) &&
				(dtype == "float32" && sameFloat32(a.Result, *c.Expect.Result) ||
					dtype == "float64" && math.Abs(a.Result-float64(*c.Expect.Result)) <= 1e-6) {
				counts["nonfinite_weight answered as TF"]++ // e.g. the only non-finite weight sat on no slot
				continue
			}
			t.Errorf("%s (%s, %s): answered %v; TF: %s", c.ID, k, dtype, a.Result, describeTF(c))
		}
	}
	t.Logf("error answers: %v", counts)
	if counts["error"] == 0 || counts["nan_score"] == 0 || counts["nonfinite_weight"] == 0 {
		t.Errorf("golden file lacks error, NaN-score or NaN-weight cases: %v", counts)
	}
}

// tfGave reports whether x is one of the results TF gave over its seeds:
// the same float32 bits, or within 1e-6 when exact is false.
func tfGave(c *goldenCase, x float64, exact bool) bool {
	for _, v := range c.Expect.Values {
		if exact && sameFloat32(x, v) || !exact && math.Abs(x-float64(v)) <= 1e-6 {
			return true
		}
	}
	return false
}

func describeTF(c *goldenCase) string {
	if c.Expect.Error != "" {
		return "raised " + c.Expect.Error
	}
	if c.Expect.Tie {
		return fmt.Sprintf("values %v over %d seeds", c.Expect.Values, c.Expect.NSeeds)
	}
	if c.Expect.Result != nil {
		return fmt.Sprintf("result %v", float64(*c.Expect.Result))
	}
	return "?"
}

// TestParityTiesExpected: on every tie case the closed-form Expected policy
// lies within 4 standard errors of TF's mean over its seeds. Some tie
// orders differ only in float32 rounding (the same real AP summed in
// another order), which gives a standard error of 1e-9; there the bound is
// 1e-6, the float64 tolerance of the parity issue.
func TestParityTiesExpected(t *testing.T) {
	n, rounding, worst := 0, 0, 0.0
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		if c.kind() != "tie" {
			continue
		}
		n++
		for _, dtype := range []string{"float32", "float64"} {
			a := run(c, dtype, "expected", 0)
			if a.Error != "" {
				t.Errorf("%s %s: %s", c.ID, dtype, a.Error)
				continue
			}
			se := c.Expect.Stderr
			if se <= 0 {
				t.Fatalf("%s: TF standard error %v; tie cases have at least two outcomes", c.ID, se)
			}
			d := math.Abs(a.Result - float64(c.Expect.Mean))
			z := d / se
			if z > 4 && d <= 1e-6 {
				rounding++ // within float32 rounding of TF's mean
				continue
			}
			worst = max(worst, z)
			if !(z <= 4) {
				t.Errorf("%s %s: Expected %v, TF mean %v ± %v (%.1f standard errors)", c.ID, dtype, a.Result, float64(c.Expect.Mean), se, z)
			}
		}
	}
	t.Logf("Expected vs TF's mean on %d tie cases: largest distance %.2f standard errors (%d float32-rounding-only answers within 1e-6 left out of that figure)", n, worst, rounding)
}

// goRandomSeeds is how many seeds TestParityTiesRandom draws per case.
const goRandomSeeds = 1000

// TestParityTiesRandom: on every tie case, Random under many seeds gives
// only float32 results TF also gave, and its mean is within 4 standard
// errors of TF's (the standard error of the difference of the two means).
func TestParityTiesRandom(t *testing.T) {
	n, worst := 0, 0.0
	for i := range readGolden(t) {
		c := &readGolden(t)[i]
		if c.kind() != "tie" {
			continue
		}
		n++
		seen := map[uint32]bool{}
		for _, v := range c.Expect.Values {
			seen[math.Float32bits(float32(v))] = true
		}
		var sum, sumSq float64
		var outside []float32
		for s := range uint64(goRandomSeeds) {
			a := run(c, "float32", "random", s)
			if a.Error != "" {
				t.Fatalf("%s seed %d: %s", c.ID, s, a.Error)
			}
			if !seen[math.Float32bits(float32(a.Result))] && len(outside) < 5 {
				outside = append(outside, float32(a.Result))
			}
			sum += a.Result
			sumSq += a.Result * a.Result
		}
		if len(outside) > 0 {
			vals := make([]float64, len(c.Expect.Values))
			for i, v := range c.Expect.Values {
				vals[i] = float64(v)
			}
			sort.Float64s(vals)
			t.Errorf("%s: Random gave %v, which TF never gave (TF: %v)", c.ID, outside, vals)
		}
		k := float64(goRandomSeeds)
		mean := sum / k
		varGo := max(0, (sumSq-k*mean*mean)/(k-1))
		se := math.Sqrt(c.Expect.Stderr*c.Expect.Stderr + varGo/k)
		z := math.Abs(mean-float64(c.Expect.Mean)) / se
		worst = max(worst, z)
		if !(z <= 4) {
			t.Errorf("%s: Random mean %v over %d seeds, TF mean %v over %d (%.1f standard errors)", c.ID, mean, goRandomSeeds, float64(c.Expect.Mean), c.Expect.NSeeds, z)
		}
	}
	t.Logf("Random vs TF on %d tie cases (%d Go seeds each): largest distance of the means %.2f standard errors", n, goRandomSeeds, worst)
}
