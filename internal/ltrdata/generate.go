package ltrdata

import (
	"fmt"
	"math"
	"strconv"
)

// Thresholds are the utility cut points of the latent model: a document's
// label is the number of thresholds its utility exceeds.
var thresholds = [4]float64{0.6, 1.3, 1.9, 2.5}

// Config parameterises the latent model of [Generate]. The package
// documentation describes the model.
type Config struct {
	// Seed selects the random stream.
	Seed uint64
	// Queries is the total number of queries over all splits.
	Queries int
	// MinDocs and MaxDocs bound the list length (inclusive).
	MinDocs, MaxDocs int
	// Features is the number of observed features, NoiseFeatures of which are
	// pure noise.
	Features, NoiseFeatures int
	// Latent is the number of latent factors k (at least 2).
	Latent int
	// FeatureNoise is the standard deviation of the noise added to the
	// informative features.
	FeatureNoise float64
	// LabelNoise is the standard deviation of the noise added to the utility
	// before it is graded.
	LabelNoise float64
	// Interaction weights the ε₁·ε₂ term of the utility.
	Interaction float64
	// QueryShift is the standard deviation of the per-query utility shift δ_q.
	QueryShift float64
	// TopicSpread is the standard deviation of the per-query feature offset μ_q.
	TopicSpread float64
	// TrainFrac and ValidFrac are the fractions of queries in the training and
	// validation splits; the rest is the test split.
	TrainFrac, ValidFrac float64
}

// DefaultConfig returns the configuration of the dataset that the examples
// embed: 1000 queries of 8 to 40 documents (about 24 000 documents), 24
// features of which 4 are noise, split 60/20/20. It is small enough to train
// on in seconds and large enough that MAP differences between models are
// meaningful.
func DefaultConfig() Config {
	return Config{
		Seed:          20240601,
		Queries:       1000,
		MinDocs:       8,
		MaxDocs:       40,
		Features:      24,
		NoiseFeatures: 4,
		Latent:        8,
		FeatureNoise:  0.5,
		LabelNoise:    0.5,
		Interaction:   0.5,
		QueryShift:    0.5,
		TopicSpread:   1.0,
		TrainFrac:     0.6,
		ValidFrac:     0.2,
	}
}

// Splits holds the training, validation and test parts of a dataset. Queries
// are assigned to splits in generation order, so no query id appears twice.
type Splits struct {
	Train, Validation, Test *Dataset
}

func (c Config) validate() error {
	switch {
	case c.Queries < 1:
		return fmt.Errorf("ltrdata: Config.Queries is %d, want >= 1", c.Queries)
	case c.MinDocs < 1 || c.MaxDocs < c.MinDocs:
		return fmt.Errorf("ltrdata: Config.MinDocs, MaxDocs are %d, %d, want 1 <= MinDocs <= MaxDocs", c.MinDocs, c.MaxDocs)
	case c.Latent < 2:
		return fmt.Errorf("ltrdata: Config.Latent is %d, want >= 2", c.Latent)
	case c.NoiseFeatures < 0 || c.Features <= c.NoiseFeatures:
		return fmt.Errorf("ltrdata: Config.Features, NoiseFeatures are %d, %d, want 0 <= NoiseFeatures < Features", c.Features, c.NoiseFeatures)
	case !(c.TrainFrac >= 0 && c.ValidFrac >= 0 && c.TrainFrac+c.ValidFrac <= 1):
		return fmt.Errorf("ltrdata: Config.TrainFrac, ValidFrac are %v, %v, want non-negative with a sum <= 1", c.TrainFrac, c.ValidFrac)
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"FeatureNoise", c.FeatureNoise}, {"LabelNoise", c.LabelNoise}, {"Interaction", c.Interaction},
		{"QueryShift", c.QueryShift}, {"TopicSpread", c.TopicSpread}} {
		if !(v.v >= 0) || math.IsInf(v.v, 0) {
			return fmt.Errorf("ltrdata: Config.%s is %v, want a finite value >= 0", v.name, v.v)
		}
	}
	return nil
}

// Generate draws a dataset from the latent model described in the package
// documentation and splits it by query. Query ids are "1", "2", ... in
// generation order. The same Config always gives the same data.
func Generate(c Config) (*Splits, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	r := &rng{state: c.Seed}
	k := c.Latent
	informative := c.Features - c.NoiseFeatures

	// Shared parameters: the relevance direction β (unit length) and the
	// mixing matrix A (informative × k, entries N(0, 1/k)).
	beta := make([]float64, k)
	norm := 0.0
	for j := range beta {
		beta[j] = r.normal()
		norm += beta[j] * beta[j]
	}
	norm = math.Sqrt(norm)
	for j := range beta {
		beta[j] /= norm
	}
	a := make([]float64, informative*k)
	for i := range a {
		a[i] = r.normal() / math.Sqrt(float64(k))
	}

	all := make([]Query, c.Queries)
	mu := make([]float64, k)
	z := make([]float64, k)
	for qi := range all {
		n := c.MinDocs + r.intn(c.MaxDocs-c.MinDocs+1)
		for j := range mu {
			mu[j] = c.TopicSpread * r.normal()
		}
		shift := c.QueryShift * r.normal()
		q := Query{ID: strconv.Itoa(qi + 1), Labels: make([]float64, n), Features: make([]float64, n*c.Features)}
		for d := range n {
			eps1, eps2 := 0.0, 0.0
			u := 0.0
			for j := range z {
				e := r.normal()
				if j == 0 {
					eps1 = e
				} else if j == 1 {
					eps2 = e
				}
				u += beta[j] * e
				z[j] = mu[j] + e
			}
			u += c.Interaction*eps1*eps2 + shift + c.LabelNoise*r.normal()
			label := 0
			for _, t := range thresholds {
				if u > t {
					label++
				}
			}
			q.Labels[d] = float64(label)
			row := q.Features[d*c.Features : (d+1)*c.Features]
			for f := range informative {
				v := 0.0
				for j := range z {
					v += a[f*k+j] * z[j]
				}
				row[f] = v + c.FeatureNoise*r.normal()
			}
			for f := informative; f < c.Features; f++ {
				row[f] = r.normal()
			}
		}
		all[qi] = q
	}

	nTrain := int(math.Round(c.TrainFrac * float64(c.Queries)))
	nValid := int(math.Round(c.ValidFrac * float64(c.Queries)))
	nValid = min(nValid, c.Queries-nTrain)
	mk := func(qs []Query) *Dataset { return &Dataset{NumFeatures: c.Features, Queries: qs} }
	return &Splits{
		Train:      mk(all[:nTrain:nTrain]),
		Validation: mk(all[nTrain : nTrain+nValid : nTrain+nValid]),
		Test:       mk(all[nTrain+nValid:]),
	}, nil
}

// Default returns the dataset of [DefaultConfig], the one the examples use.
func Default() *Splits {
	s, err := Generate(DefaultConfig())
	if err != nil {
		panic("ltrdata: DefaultConfig is invalid: " + err.Error()) // unreachable: a constant, tested configuration
	}
	return s
}
