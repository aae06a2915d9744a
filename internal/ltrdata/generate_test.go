package ltrdata

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestGenerateDeterministic(t *testing.T) {
	c := DefaultConfig()
	c.Queries = 50
	a, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("two Generate calls with one Config differ")
	}
	c.Seed++
	d, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Train.Queries[0].Features, d.Train.Queries[0].Features) {
		t.Fatal("a different seed gave the same features")
	}
}

func TestDefaultDatasetShape(t *testing.T) {
	c := DefaultConfig()
	s := Default()
	parts := []struct {
		name string
		d    *Dataset
		n    int
	}{{"train", s.Train, 600}, {"validation", s.Validation, 200}, {"test", s.Test, 200}}
	nextID := 1
	lengths := map[int]bool{}
	counts := map[float64]int{}
	for _, p := range parts {
		if err := p.d.Validate(); err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		if len(p.d.Queries) != p.n || p.d.NumFeatures != c.Features {
			t.Fatalf("%s: %d queries of %d features, want %d of %d", p.name, len(p.d.Queries), p.d.NumFeatures, p.n, c.Features)
		}
		for _, q := range p.d.Queries {
			if q.ID != strconv.Itoa(nextID) {
				t.Fatalf("%s: query id %s, want %d (ids in generation order, no overlap between splits)", p.name, q.ID, nextID)
			}
			nextID++
			if q.Len() < c.MinDocs || q.Len() > c.MaxDocs {
				t.Fatalf("%s: query %s has %d documents, want %d..%d", p.name, q.ID, q.Len(), c.MinDocs, c.MaxDocs)
			}
			lengths[q.Len()] = true
		}
		for l, n := range p.d.LabelCounts() {
			counts[l] += n
		}
	}
	if len(lengths) != c.MaxDocs-c.MinDocs+1 {
		t.Errorf("%d distinct list lengths, want all %d in %d..%d", len(lengths), c.MaxDocs-c.MinDocs+1, c.MinDocs, c.MaxDocs)
	}
	// Graded labels 0..4, each present and rarer than the grade below it.
	for l := range counts {
		if l != math.Trunc(l) || l < 0 || l > 4 {
			t.Fatalf("label %v outside {0,1,2,3,4}", l)
		}
	}
	for g := 1; g <= 4; g++ {
		if counts[float64(g)] == 0 || counts[float64(g)] >= counts[float64(g-1)] {
			t.Errorf("label counts %v: want every grade present and each rarer than the one below", counts)
		}
	}
}

// TestGenerateSignal checks the documented latent model from the outside:
// informative features correlate with the labels within a query, the last
// NoiseFeatures columns do not.
func TestGenerateSignal(t *testing.T) {
	c := DefaultConfig()
	d := Default().Train
	informative := c.Features - c.NoiseFeatures
	best := 0.0
	for f := range c.Features {
		r := withinQueryCorrelation(d, f)
		if f >= informative && math.Abs(r) > 0.05 {
			t.Errorf("noise feature %d has within-query correlation %.3f with the label, want |r| <= 0.05", f+1, r)
		}
		if f < informative {
			best = max(best, math.Abs(r))
		}
	}
	if best < 0.2 {
		t.Errorf("best informative within-query correlation %.3f, want >= 0.2", best)
	}
}

// withinQueryCorrelation is the Pearson correlation of feature f and the
// label after subtracting each query's means.
func withinQueryCorrelation(d *Dataset, f int) float64 {
	var sxy, sxx, syy float64
	for _, q := range d.Queries {
		n := float64(q.Len())
		var mx, my float64
		for i := range q.Len() {
			mx += q.Doc(i, d.NumFeatures)[f] / n
			my += q.Labels[i] / n
		}
		for i := range q.Len() {
			x := q.Doc(i, d.NumFeatures)[f] - mx
			y := q.Labels[i] - my
			sxy += x * y
			sxx += x * x
			syy += y * y
		}
	}
	return sxy / math.Sqrt(sxx*syy)
}

func TestGenerateConfigErrors(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Config)
		want   string
	}{
		{"no queries", func(c *Config) { c.Queries = 0 }, "Config.Queries is 0"},
		{"min > max", func(c *Config) { c.MinDocs, c.MaxDocs = 5, 4 }, "MinDocs, MaxDocs are 5, 4"},
		{"zero docs", func(c *Config) { c.MinDocs = 0 }, "MinDocs, MaxDocs are 0, 40"},
		{"latent", func(c *Config) { c.Latent = 1 }, "Config.Latent is 1"},
		{"all noise", func(c *Config) { c.NoiseFeatures = c.Features }, "Features, NoiseFeatures are 24, 24"},
		{"fractions", func(c *Config) { c.TrainFrac = 0.9 }, "TrainFrac, ValidFrac are 0.9, 0.2"},
		{"NaN noise", func(c *Config) { c.FeatureNoise = math.NaN() }, "Config.FeatureNoise is NaN"},
		{"negative shift", func(c *Config) { c.QueryShift = -1 }, "Config.QueryShift is -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.modify(&c)
			_, err := Generate(c)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestGenerateSplitFractions(t *testing.T) {
	c := DefaultConfig()
	c.Queries, c.TrainFrac, c.ValidFrac = 7, 0.5, 0.5
	s, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	// round(3.5) = 4 training queries, round(3.5) = 4 capped to the 3 left.
	if len(s.Train.Queries) != 4 || len(s.Validation.Queries) != 3 || len(s.Test.Queries) != 0 {
		t.Fatalf("splits %d/%d/%d, want 4/3/0", len(s.Train.Queries), len(s.Validation.Queries), len(s.Test.Queries))
	}
}
