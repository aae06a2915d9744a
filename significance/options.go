package significance

import (
	"fmt"
	"runtime"
)

// DefaultSamples is the number of Monte Carlo samples (and the largest
// exact enumeration) used when [WithSamples] is not given.
const DefaultSamples = 10000

// DefaultAlpha is the significance level used when [WithAlpha] is not
// given: intervals are at 1 - alpha = 95%.
const DefaultAlpha = 0.05

// Option sets a parameter of a test.
type Option func(*settings)

type settings struct {
	samples int
	seed    uint64
	stream  uint64
	workers int
	alpha   float64
}

// WithSamples sets the number of Monte Carlo samples (resamplings or
// permutations). The randomization test enumerates all 2^n sign flips
// instead when 2^n <= samples.
func WithSamples(n int) Option { return func(s *settings) { s.samples = n } }

// WithSeed sets the seed of the Monte Carlo samples.
func WithSeed(seed uint64) Option { return func(s *settings) { s.seed = seed } }

// WithStream sets the stream of the Monte Carlo samples under the seed:
// tests run with one seed and different streams draw independent samples.
// Give each comparison of a report its own stream.
func WithStream(stream uint64) Option { return func(s *settings) { s.stream = stream } }

// WithWorkers sets the number of goroutines that draw Monte Carlo samples
// (default GOMAXPROCS). Results do not depend on it.
func WithWorkers(n int) Option { return func(s *settings) { s.workers = n } }

// WithAlpha sets the significance level: the bootstrap interval covers
// 1 - alpha. Default [DefaultAlpha].
func WithAlpha(alpha float64) Option { return func(s *settings) { s.alpha = alpha } }

func applyOptions(opts []Option) (settings, error) {
	s := settings{samples: DefaultSamples, workers: runtime.GOMAXPROCS(0), alpha: DefaultAlpha}
	for _, o := range opts {
		o(&s)
	}
	if s.samples < 1 {
		return s, fmt.Errorf("significance: samples %d: want at least 1", s.samples)
	}
	if s.workers < 1 {
		return s, fmt.Errorf("significance: workers %d: want at least 1", s.workers)
	}
	if !(s.alpha > 0 && s.alpha < 1) {
		return s, fmt.Errorf("significance: alpha %v: want 0 < alpha < 1", s.alpha)
	}
	return s, nil
}
