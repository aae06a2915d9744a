package ltrsynth

import (
	"errors"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/tensors"
)

var params = Params{Queries: 40, MinLen: 3, MaxLen: 9, Features: 4, FeatureNoise: 0.5, LabelNoise: 0.3, Curvature: 1, Seed: 5}

func TestGenerateIsDeterministicAndWellFormed(t *testing.T) {
	a, err := Generate(params)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(params)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.X, b.X) || !slices.Equal(a.Labels, b.Labels) || !slices.Equal(a.Lengths, b.Lengths) {
		t.Fatal("two sets from the same Params differ")
	}
	other := params
	other.Seed++
	c, err := Generate(other)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.X, c.X) {
		t.Error("sets from different seeds are equal")
	}
	norm := 0.0
	for _, w := range a.Hidden {
		norm += w * w
	}
	if math.Abs(norm-1) > 1e-12 {
		t.Errorf("hidden vector has squared norm %v, want 1", norm)
	}
	if len(a.X) != 40*9*4 || len(a.Labels) != 40*9 || len(a.Lengths) != 40 {
		t.Fatalf("sizes %d, %d, %d", len(a.X), len(a.Labels), len(a.Lengths))
	}
	lengths := map[int]bool{}
	for q, n := range a.Lengths {
		if n < 3 || n > 9 {
			t.Errorf("list %d has %d items, want 3..9", q, n)
		}
		lengths[n] = true
		for i := range 9 {
			y := a.Labels[q*9+i]
			if i >= n {
				if y != 0 || a.Latent[q*9+i] != 0 || slices.ContainsFunc(a.X[(q*9+i)*4:(q*9+i+1)*4], func(v float32) bool { return v != 0 }) {
					t.Errorf("padding slot [%d][%d] is not zero", q, i)
				}
				continue
			}
			if y < 0 || y > 4 || y != float32(int(y)) {
				t.Errorf("label [%d][%d] = %v, want an integer 0..4", q, i, y)
			}
		}
	}
	if len(lengths) < 3 {
		t.Errorf("list lengths take only %d values", len(lengths))
	}
}

// Labels follow the thresholds on the latent relevance: without label
// noise a label is the number of thresholds the latent value exceeds.
func TestLabelsFollowLatent(t *testing.T) {
	p := params
	p.LabelNoise = 0
	s, err := Generate(p)
	if err != nil {
		t.Fatal(err)
	}
	for q, n := range s.Lengths {
		for i := range n {
			r := float64(s.Latent[q*s.Width+i])
			want := 0
			for _, th := range Thresholds {
				if r > th+1e-6 {
					want++
				} else if r > th-1e-6 {
					want = -1 // float32 rounding of r may cross the threshold
					break
				}
			}
			if want >= 0 && s.Labels[q*s.Width+i] != float32(want) {
				t.Errorf("[%d][%d]: latent %v gives label %v, want %d", q, i, r, s.Labels[q*s.Width+i], want)
			}
		}
	}
}

func TestSplitSharesHiddenVector(t *testing.T) {
	tr, va, err := Split(params, 8)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.Hidden, va.Hidden) {
		t.Error("train and validation have different hidden vectors")
	}
	if va.Queries != 8 || slices.Equal(tr.X[:len(va.X)], va.X) {
		t.Error("validation set is not its own draw of 8 lists")
	}
}

func TestParamsErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Params)
	}{
		{"no queries", func(p *Params) { p.Queries = 0 }},
		{"min len 0", func(p *Params) { p.MinLen = 0 }},
		{"max < min", func(p *Params) { p.MaxLen = 2 }},
		{"no features", func(p *Params) { p.Features = 0 }},
		{"NaN feature noise", func(p *Params) { p.FeatureNoise = math.NaN() }},
		{"negative label noise", func(p *Params) { p.LabelNoise = -1 }},
		{"infinite curvature", func(p *Params) { p.Curvature = math.Inf(1) }},
	}
	for _, tc := range tests {
		p := params
		tc.edit(&p)
		if _, err := Generate(p); !errors.Is(err, ErrParams) {
			t.Errorf("%s: Generate error = %v, want ErrParams", tc.name, err)
		}
	}
	if _, _, err := Split(params, 0); !errors.Is(err, ErrParams) {
		t.Errorf("Split with 0 validation lists: error = %v", err)
	}
}

func TestDataset(t *testing.T) {
	s, err := Generate(params)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewDataset("x", s, 7, false, false, 0); !errors.Is(err, ErrParams) {
		t.Errorf("batch 7 of 40 lists: error = %v, want ErrParams", err)
	}
	d, err := NewDataset("val", s, 8, false, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	mask := s.Mask()
	for pass := range 2 {
		for b := range 5 {
			_, in, lab, err := d.Yield()
			if err != nil {
				t.Fatalf("pass %d batch %d: %v", pass, b, err)
			}
			x := tensors.MustCopyFlatData[float32](in[0])
			y := tensors.MustCopyFlatData[float32](lab[0])
			m := tensors.MustCopyFlatData[bool](lab[1])
			lo, hi := b*8*9, (b+1)*8*9
			if !slices.Equal(x, s.X[lo*4:hi*4]) || !slices.Equal(y, s.Labels[lo:hi]) || !slices.Equal(m, mask[lo:hi]) {
				t.Fatalf("pass %d batch %d does not hold lists %d..%d in order", pass, b, b*8, b*8+7)
			}
		}
		if _, _, _, err := d.Yield(); err != io.EOF {
			t.Fatalf("after the last batch: %v, want io.EOF", err)
		}
		d.Reset()
	}

	// An infinite shuffled dataset serves every list once per pass.
	sh, err := NewDataset("train", s, 8, true, true, 3)
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 2 {
		seen := map[float32]int{}
		for range 5 {
			_, in, _, err := sh.Yield()
			if err != nil {
				t.Fatal(err)
			}
			x := tensors.MustCopyFlatData[float32](in[0])
			for l := range 8 {
				seen[x[l*9*4]]++ // the first feature identifies a list
			}
		}
		if len(seen) != 40 {
			t.Errorf("pass %d served %d distinct lists, want 40", pass, len(seen))
		}
	}
}
