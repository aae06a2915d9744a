// Package ltrsynth generates small learning-to-rank datasets from a
// documented latent model, deterministically from a seed, and serves them
// to GoMLX as padded batches. The tests and the gomlx-ranker example of
// this module share it.
//
// # Latent model
//
// A hidden unit vector w in R^F is drawn once per dataset (normal entries,
// then normalised). Each query q gets a list length n_q drawn uniformly
// from [MinLen, MaxLen]. Each document i of the list has true features
// z_i ~ N(0, I_F) and a latent relevance
//
//	r_i = w·z_i + 0.5·(z_i0² − 1)·Curvature + LabelNoise·e_i,   e_i ~ N(0, 1)
//
// Its graded label counts the thresholds 0.5, 1.1, 1.6 and 2.1 that r_i
// exceeds, so labels run from 0 to 4 (about 70% are 0 with unit
// Curvature and LabelNoise 0.3).
// The model sees x_i = z_i + FeatureNoise·u_i with u_i ~ N(0, I_F), never
// z_i. A ranker can at best learn the ranking of E[r | x].
//
// Lists are padded to MaxLen with zero features, label 0 and mask false.
//
// Numbers come from math/rand/v2's PCG seeded with Seed, so a dataset is
// the same on every run and platform for a given Go release.
package ltrsynth

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/gomlx/gomlx/pkg/core/tensors"
)

// ErrParams is wrapped by every error about Params or batch sizes.
var ErrParams = errors.New("bad synthetic dataset parameters")

// Thresholds are the latent relevance cut points of labels 1 to 4.
var Thresholds = [4]float64{0.5, 1.1, 1.6, 2.1}

// Params describes a dataset of the latent model.
type Params struct {
	Queries      int     // number of lists, > 0
	MinLen       int     // shortest list, >= 1
	MaxLen       int     // longest list and padded width, >= MinLen
	Features     int     // F, > 0
	FeatureNoise float64 // standard deviation of the feature noise, >= 0
	LabelNoise   float64 // standard deviation of the relevance noise, >= 0
	Curvature    float64 // weight of the non-linear term, any finite value
	Seed         uint64  // seeds everything, including the hidden vector w
}

// Set is a generated dataset, padded to Width items per list.
type Set struct {
	Queries, Width, Features int       // lists, padded list length, features per item
	X                        []float32 // observed features, [Queries, Width, Features]
	Labels                   []float32 // graded labels 0..4, [Queries, Width]
	Latent                   []float32 // noise-free part w·z + curvature term, [Queries, Width]
	Lengths                  []int     // list lengths, [Queries]
	Hidden                   []float64 // the hidden unit vector w, [Features]
}

// Generate draws a Set from the latent model. The hidden vector w comes
// from its own random stream of Seed; use Split for a train and a
// validation set that share w.
func Generate(p Params) (*Set, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	hidden := hiddenVector(p.Features, p.Seed)
	return generate(p, hidden, rand.New(rand.NewPCG(p.Seed, 0x5eed_0001))), nil
}

// Split draws train and validation sets that share one hidden vector:
// the validation set has valQueries lists and its own random stream.
func Split(p Params, valQueries int) (train, val *Set, err error) {
	if err := p.validate(); err != nil {
		return nil, nil, err
	}
	if valQueries <= 0 {
		return nil, nil, fmt.Errorf("ltrsynth: valQueries is %d, want > 0: %w", valQueries, ErrParams)
	}
	hidden := hiddenVector(p.Features, p.Seed)
	train = generate(p, hidden, rand.New(rand.NewPCG(p.Seed, 0x5eed_0001)))
	pv := p
	pv.Queries = valQueries
	val = generate(pv, hidden, rand.New(rand.NewPCG(p.Seed, 0x5eed_0002)))
	return train, val, nil
}

func (p Params) validate() error {
	switch {
	case p.Queries <= 0:
		return fmt.Errorf("ltrsynth: Queries is %d, want > 0: %w", p.Queries, ErrParams)
	case p.MinLen < 1:
		return fmt.Errorf("ltrsynth: MinLen is %d, want >= 1: %w", p.MinLen, ErrParams)
	case p.MaxLen < p.MinLen:
		return fmt.Errorf("ltrsynth: MaxLen is %d, less than MinLen %d: %w", p.MaxLen, p.MinLen, ErrParams)
	case p.Features <= 0:
		return fmt.Errorf("ltrsynth: Features is %d, want > 0: %w", p.Features, ErrParams)
	case !(p.FeatureNoise >= 0) || math.IsInf(p.FeatureNoise, 0):
		return fmt.Errorf("ltrsynth: FeatureNoise is %v, want finite >= 0: %w", p.FeatureNoise, ErrParams)
	case !(p.LabelNoise >= 0) || math.IsInf(p.LabelNoise, 0):
		return fmt.Errorf("ltrsynth: LabelNoise is %v, want finite >= 0: %w", p.LabelNoise, ErrParams)
	case math.IsNaN(p.Curvature) || math.IsInf(p.Curvature, 0):
		return fmt.Errorf("ltrsynth: Curvature is %v, want finite: %w", p.Curvature, ErrParams)
	}
	return nil
}

func hiddenVector(f int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x5eed_0000))
	w := make([]float64, f)
	norm := 0.0
	for norm == 0 {
		norm = 0
		for j := range w {
			w[j] = rng.NormFloat64()
			norm += w[j] * w[j]
		}
	}
	norm = math.Sqrt(norm)
	for j := range w {
		w[j] /= norm
	}
	return w
}

func generate(p Params, hidden []float64, rng *rand.Rand) *Set {
	q, l, f := p.Queries, p.MaxLen, p.Features
	s := &Set{
		Queries: q, Width: l, Features: f,
		X:       make([]float32, q*l*f),
		Labels:  make([]float32, q*l),
		Latent:  make([]float32, q*l),
		Lengths: make([]int, q),
		Hidden:  hidden,
	}
	z := make([]float64, f)
	for qi := range q {
		n := p.MinLen + rng.IntN(p.MaxLen-p.MinLen+1)
		s.Lengths[qi] = n
		for i := range n {
			r := 0.0
			for j := range f {
				z[j] = rng.NormFloat64()
				r += hidden[j] * z[j]
				s.X[(qi*l+i)*f+j] = float32(z[j] + p.FeatureNoise*rng.NormFloat64())
			}
			r += 0.5 * (z[0]*z[0] - 1) * p.Curvature
			s.Latent[qi*l+i] = float32(r)
			r += p.LabelNoise * rng.NormFloat64()
			label := 0
			for _, t := range Thresholds {
				if r > t {
					label++
				}
			}
			s.Labels[qi*l+i] = float32(label)
		}
	}
	return s
}

// Mask returns the [Queries, Width] validity mask: true inside each list.
func (s *Set) Mask() []bool {
	m := make([]bool, s.Queries*s.Width)
	for q, n := range s.Lengths {
		for i := range n {
			m[q*s.Width+i] = true
		}
	}
	return m
}

// Dataset serves a Set as a GoMLX train.Dataset: each Yield gives inputs
// [features [B, L, F] Float32] and labels [labels [B, L] Float32, mask
// [B, L] Bool], in fresh tensors the training loop may free.
type Dataset struct {
	name     string
	set      *Set
	mask     []bool
	batch    int
	infinite bool
	rng      *rand.Rand // nil: no shuffling
	order    []int
	pos      int
}

// NewDataset serves s in batches of batchSize lists; batchSize must divide
// s.Queries so that every batch has the same shape (one compiled graph).
// An infinite dataset starts over after the last batch; with shuffle it
// reorders the lists at the start of every pass, from seed.
func NewDataset(name string, s *Set, batchSize int, infinite, shuffle bool, seed uint64) (*Dataset, error) {
	if s == nil {
		return nil, fmt.Errorf("ltrsynth: NewDataset %q: set is nil: %w", name, ErrParams)
	}
	if batchSize <= 0 || s.Queries%batchSize != 0 {
		return nil, fmt.Errorf("ltrsynth: NewDataset %q: batch size %d does not divide the %d queries: %w",
			name, batchSize, s.Queries, ErrParams)
	}
	d := &Dataset{name: name, set: s, mask: s.Mask(), batch: batchSize, infinite: infinite}
	d.order = make([]int, s.Queries)
	for i := range d.order {
		d.order[i] = i
	}
	if shuffle {
		d.rng = rand.New(rand.NewPCG(seed, 0x5eed_0003))
		d.shuffle()
	}
	return d, nil
}

func (d *Dataset) shuffle() {
	d.rng.Shuffle(len(d.order), func(i, j int) { d.order[i], d.order[j] = d.order[j], d.order[i] })
}

// Name returns the dataset name.
func (d *Dataset) Name() string { return d.name }

// Reset starts over from the first batch (reshuffling if shuffled).
func (d *Dataset) Reset() {
	d.pos = 0
	if d.rng != nil {
		d.shuffle()
	}
}

// Yield returns the next batch, or io.EOF at the end of a finite dataset.
func (d *Dataset) Yield() (spec any, inputs, labels []*tensors.Tensor, err error) {
	if d.pos >= len(d.order) {
		if !d.infinite {
			return nil, nil, nil, io.EOF
		}
		d.Reset()
	}
	idx := d.order[d.pos : d.pos+d.batch]
	d.pos += d.batch
	x, y, m := d.set.Gather(idx, d.mask)
	s := d.set
	return nil,
		[]*tensors.Tensor{tensors.FromFlatDataAndDimensions(x, len(idx), s.Width, s.Features)},
		[]*tensors.Tensor{
			tensors.FromFlatDataAndDimensions(y, len(idx), s.Width),
			tensors.FromFlatDataAndDimensions(m, len(idx), s.Width),
		}, nil
}

// Gather copies the features, labels and mask of the given lists, in order.
// mask is s.Mask(), passed in to avoid rebuilding it.
func (s *Set) Gather(idx []int, mask []bool) (x, y []float32, m []bool) {
	l, f := s.Width, s.Features
	x = make([]float32, 0, len(idx)*l*f)
	y = make([]float32, 0, len(idx)*l)
	m = make([]bool, 0, len(idx)*l)
	for _, q := range idx {
		x = append(x, s.X[q*l*f:(q+1)*l*f]...)
		y = append(y, s.Labels[q*l:(q+1)*l]...)
		m = append(m, mask[q*l:(q+1)*l]...)
	}
	return x, y, m
}
