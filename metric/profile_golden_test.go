package metric

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// profileCase is one line of a golden file of parity/profiles/generate.py:
// what keras-rs 0.4.0 or torchmetrics 1.9.0 computed on one batch, with the
// items of each list in the order the library ranked ties.
type profileCase struct {
	Profile     string          `json:"profile"`
	Metric      string          `json:"metric"`
	TopN        *int            `json:"topn"`
	Options     map[string]any  `json:"options"`
	Labels      [][]float32     `json:"labels"`
	Scores      [][]float32     `json:"scores"`
	Weights     json.RawMessage `json:"weights"`
	PerList     []float64       `json:"per_list"`
	ListWeights []float64       `json:"list_weights"`
	Result      float64         `json:"result"`
	Total       float64         `json:"total"`
	Count       float64         `json:"count"`
	Error       string          `json:"error"`
	// Seed, RawLabels, RawScores and RawWeights are a keras-rs case as
	// given to the library, whose tie shuffle the Random policy must draw.
	Seed       *uint64         `json:"seed"`
	RawLabels  [][]float32     `json:"raw_labels"`
	RawScores  [][]float32     `json:"raw_scores"`
	RawWeights json.RawMessage `json:"raw_weights"`
}

// ulps32 returns the distance in units in the last place between a and b.
func ulps32(a, b float32) int64 {
	if a == b {
		return 0
	}
	ia, ib := int64(math.Float32bits(a)), int64(math.Float32bits(b))
	if ia < 0x80000000 != (ib < 0x80000000) {
		return math.MaxInt32
	}
	if ia > ib {
		return ia - ib
	}
	return ib - ia
}

// ulps64 returns the distance in units in the last place between a and b.
func ulps64(a, b float64) int64 {
	if a == b {
		return 0
	}
	if math.Signbit(a) != math.Signbit(b) {
		return math.MaxInt32
	}
	d := int64(math.Float64bits(math.Abs(a))) - int64(math.Float64bits(math.Abs(b)))
	if d < 0 {
		d = -d
	}
	return d
}

// runProfileCase runs one golden case and returns the largest distance in
// ulps of its values (per list, list weights, totals, overall value) from
// the library's, or an error naming the first difference beyond the
// test's bounds.
func runProfileCase(c *profileCase) (int64, error) {
	d, err := runProfileOrder(c, Stable)
	if err != nil || c.Seed == nil {
		return d, err
	}
	// The same call, on the lists as given, under keras-rs' own shuffle.
	r := *c
	r.Labels, r.Scores, r.Weights = c.RawLabels, c.RawScores, c.RawWeights
	d2, err := runProfileOrder(&r, Random)
	if err != nil {
		return d2, fmt.Errorf("random ties, seed %d: %w", *c.Seed, err)
	}
	return max(d, d2), nil
}

// runProfileOrder runs c under tie policy ties (its seed for Random).
func runProfileOrder(c *profileCase, ties TiePolicy) (int64, error) {
	p, err := ParseProfile(c.Profile)
	if err != nil {
		return 0, err
	}
	k, err := ParseKind(c.Metric)
	if err != nil {
		return 0, err
	}
	opts := []Option{WithProfile(p), WithTies(ties)}
	if ties == Random {
		opts = append(opts, WithSeed(*c.Seed))
	}
	if c.TopN != nil {
		opts = append(opts, WithTopN(*c.TopN))
	}
	f64 := c.Options["dtype"] == "float64"
	if f64 {
		opts = append(opts, WithDType(Float64))
	}
	// dist is the distance in ulps of the case's dtype.
	dist := func(got, want float64) int64 {
		if f64 {
			return ulps64(got, want)
		}
		return ulps32(float32(got), float32(want))
	}
	switch c.Options["empty"] {
	case "pos":
		opts = append(opts, WithEmpty(EmptyOne))
	case "skip":
		opts = append(opts, WithEmpty(EmptySkip))
	}
	if c.Options["adaptive_k"] == true {
		opts = append(opts, WithAdaptiveK(true))
	}
	cfg, err := newConfig(k, opts)
	if err != nil {
		return 0, err
	}
	m, err := New(cfg)
	if err != nil {
		return 0, err
	}
	lab, err := tensor.DenseRows(c.Labels)
	if err != nil {
		return 0, err
	}
	sc, err := tensor.DenseRows(c.Scores)
	if err != nil {
		return 0, err
	}
	var w tensor.Weights
	var rows [][]float32
	if len(c.Weights) > 0 && string(c.Weights) != "null" {
		if err := json.Unmarshal(c.Weights, &rows); err != nil {
			return 0, err
		}
		wl, err := tensor.DenseRows(rows)
		if err != nil {
			return 0, err
		}
		if len(rows[0]) == 1 && len(c.Labels[0]) != 1 || c.Options["weights"] == "list" {
			if w, err = tensor.PerListColumn(wl); err != nil {
				return 0, err
			}
		} else {
			w = tensor.PerItem(wl)
		}
	}
	var per PerList
	err = m.UpdatePerList(&per, lab, sc, w)
	if c.Error != "" {
		if err == nil {
			return 0, fmt.Errorf("the library failed (%s) but rankmetrics gives %v", c.Error, m.Result())
		}
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	// Every value must be equal to the library's to the bit; the first
	// one that is not is the error, and the largest distance is returned
	// for the report.
	worst, first := int64(0), error(nil)
	check := func(d int64, format string, args ...any) {
		worst = max(worst, d)
		if d != 0 && first == nil {
			first = fmt.Errorf(format+" (%d ulps)", append(args, d)...)
		}
	}
	if p == ProfileTorchmetrics {
		var got []float64
		for b := range per.Values {
			if per.Weights[b] != 0 {
				got = append(got, per.Values[b])
			}
		}
		if len(got) != len(c.PerList) {
			return 0, fmt.Errorf("%d queries count, want %d (%v, want %v)", len(got), len(c.PerList), got, c.PerList)
		}
		for b := range got {
			check(dist(got[b], c.PerList[b]), "query %d: %v, want %v", b, got[b], c.PerList[b])
		}
	} else {
		for b := range c.PerList {
			check(dist(per.Values[b], c.PerList[b]), "list %d: %v, want %v", b, per.Values[b], c.PerList[b])
			check(dist(per.Weights[b], c.ListWeights[b]), "list %d weighs %v, want %v", b, per.Weights[b], c.ListWeights[b])
		}
		st := m.State()
		check(dist(st.Total, c.Total), "total %v, want %v", st.Total, c.Total)
		check(dist(st.Count, c.Count), "count %v, want %v", st.Count, c.Count)
	}
	check(dist(m.Result(), c.Result), "result %v, want %v", m.Result(), c.Result)
	return worst, first
}

// xlaLong reports whether a keras-rs case has rows, or a batch, longer
// than 32 values, which XLA sums in windows of 32 (xlaSum).
func xlaLong(c *profileCase) bool {
	return len(c.Labels) > 32 || len(c.Labels) > 0 && len(c.Labels[0]) > 32
}

// profileGoldenFiles returns the committed golden files, or the file
// RANKMETRICS_PROFILES_GOLDEN names (parity/profiles/check.sh).
func profileGoldenFiles(t *testing.T) []string {
	return golden.Files(t, "RANKMETRICS_PROFILES_GOLDEN", "../testdata/profiles/golden_seed*.jsonl.gz")
}

// eachProfileCase calls fn with every case of files, its file and line.
func eachProfileCase(t *testing.T, files []string, fn func(name string, line int, c *profileCase)) {
	golden.Each(t, files, fn)
}

// caseDType is the dtype of a golden case: float32 unless its options say
// float64.
func caseDType(c *profileCase) DType {
	if c.Options["dtype"] == "float64" {
		return Float64
	}
	return Float32
}

// TestProfileGolden checks the keras-rs and torchmetrics profiles against
// what the libraries computed (testdata/profiles, or the file
// RANKMETRICS_PROFILES_GOLDEN names: parity/profiles/check.sh), and
// reports the figures of the live check.
func TestProfileGolden(t *testing.T) {
	pass, fail, zero, worst := 0, 0, 0, int64(0)
	byProfile := map[string][2]int{}
	eachProfileCase(t, profileGoldenFiles(t), func(name string, line int, c *profileCase) {
		d, err := runProfileCase(c)
		worst = max(worst, d)
		key := c.Profile
		if caseDType(c) == Float64 {
			key += " float64"
		}
		if c.Profile == "keras-rs" && xlaLong(c) {
			key += " (rows or batch > 32)"
		}
		n := byProfile[key]
		if err != nil {
			fail++
			n[1]++
			if fail <= 20 {
				t.Errorf("%s:%d: %s %s topn %v %v: %v", filepath.Base(name), line, c.Profile, c.Metric, deref(c.TopN), c.Options, err)
			}
		} else {
			pass++
			n[0]++
			if d == 0 {
				zero++
			}
		}
		byProfile[key] = n
	})
	keys := make([]string, 0, len(byProfile))
	for k := range byProfile {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %d passed, %d failed", k, byProfile[k][0], byProfile[k][1])
	}
	t.Logf("every value at 0 ulp: %d of %d cases (%.1f%%), largest distance %d ulps", zero, pass+fail, 100*float64(zero)/float64(max(pass+fail, 1)), worst)
	t.Logf("%d passed, %d failed", pass, fail)
}

// checkProfileGolden runs the golden cases of dtype d (the generated
// TestProfileFloat32Golden and TestProfileFloat64Golden): every value must
// be the library's to the bit, and at least 100 cases of each profile the
// dtype has must run.
func checkProfileGolden(t *testing.T, d DType) {
	ran := map[string]int{}
	eachProfileCase(t, profileGoldenFiles(t), func(name string, line int, c *profileCase) {
		if caseDType(c) != d {
			return
		}
		ran[c.Profile]++
		if _, err := runProfileCase(c); err != nil {
			t.Errorf("%s:%d: %s %s topn %v %v: %v", filepath.Base(name), line, c.Profile, c.Metric, deref(c.TopN), c.Options, err)
		}
	})
	want := []string{"keras-rs", "torchmetrics"}
	if d == Float64 {
		want = want[:1] // torchmetrics computes in float32 whatever its inputs
	}
	for _, p := range want {
		if ran[p] < 100 {
			t.Fatalf("only %d %s cases of %s ran", ran[p], p, d)
		}
	}
}

// checkProfileAllocs checks that a steady-state update of every metric of
// every profile in dtype d allocates nothing, on a batch of rows longer
// than 32 items (XLA's windows) under every tie policy the profiles take.
func checkProfileAllocs(t *testing.T, d DType) {
	rng := rand.New(rand.NewPCG(5, 6))
	const bsz, n = 3, 45
	lab, sc, w := make([][]float32, bsz), make([][]float32, bsz), make([][]float32, bsz)
	for b := range bsz {
		lab[b], sc[b], w[b] = make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range n {
			lab[b][i] = float32(rng.IntN(2))
			sc[b][i] = float32(rng.IntN(5))
			w[b][i] = float32(rng.IntN(3))
		}
	}
	labels, err := tensor.DenseRows(lab)
	if err != nil {
		t.Fatal(err)
	}
	preds, err := tensor.DenseRows(sc)
	if err != nil {
		t.Fatal(err)
	}
	wl, err := tensor.DenseRows(w)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Profile{ProfileKerasRS, ProfileTorchmetrics} {
		var weights tensor.Weights
		if p == ProfileKerasRS {
			weights = tensor.PerItem(wl)
		}
		for _, k := range p.Kinds() {
			for _, ties := range []TiePolicy{Random, Stable, Pessimistic} {
				opts := []Option{WithProfile(p), WithDType(d), WithTies(ties)}
				if k != KindRPrecision {
					opts = append(opts, WithTopN(40))
				}
				cfg, err := newConfig(k, opts)
				if err != nil {
					t.Fatal(err)
				}
				m, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Update(labels, preds, weights); err != nil {
					t.Fatal(err)
				}
				allocs := testing.AllocsPerRun(10, func() {
					if err := m.Update(labels, preds, weights); err != nil {
						t.Fatal(err)
					}
				})
				if allocs != 0 {
					t.Fatalf("%s %s %s ties %s: %v allocations per update, want 0", p, k, d, ties, allocs)
				}
			}
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
