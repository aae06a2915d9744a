package metric

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrConfig is wrapped by every error about a metric's configuration.
var ErrConfig = errors.New("bad metric configuration")

// DType is the floating-point type a metric computes in.
type DType int

const (
	// Float32 computes as TF-Ranking does, bit for bit. It is the default.
	Float32 DType = iota
	// Float64 computes in float64 for higher precision. Scores are compared
	// as float64, so two scores that float32 would round together stay
	// distinct.
	Float64
)

// String returns "float32" or "float64".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("DType(%d)", int(d))
}

// ParseDType parses "float32" or "float64".
func ParseDType(s string) (DType, error) {
	switch s {
	case "float32":
		return Float32, nil
	case "float64":
		return Float64, nil
	}
	return 0, fmt.Errorf("metric: dtype %q is not float32 or float64: %w", s, ErrConfig)
}

// MarshalText encodes the dtype as its name.
func (d DType) MarshalText() ([]byte, error) {
	if d != Float32 && d != Float64 {
		return nil, fmt.Errorf("metric: unknown dtype %d: %w", int(d), ErrConfig)
	}
	return []byte(d.String()), nil
}

// UnmarshalText decodes a dtype name.
func (d *DType) UnmarshalText(b []byte) error {
	v, err := ParseDType(string(b))
	*d = v
	return err
}

// TiePolicy says how items with equal scores are ordered.
type TiePolicy int

const (
	// Random orders equal scores uniformly at random, as TF-Ranking does,
	// from a seeded generator, so a run can be reproduced. It is the default.
	Random TiePolicy = iota
	// Stable keeps equal scores in input order, as TF-Ranking's
	// sort_by_scores with shuffle_ties=False.
	Stable
	// Pessimistic puts relevant items after non-relevant ones within a tie,
	// and otherwise keeps input order.
	Pessimistic
	// Optimistic puts relevant items before non-relevant ones within a tie,
	// and otherwise keeps input order.
	Optimistic
	// Expected gives the exact expectation of AP over every uniformly random
	// order of each tie, in closed form.
	Expected
)

var tieNames = [...]string{Random: "random", Stable: "stable", Pessimistic: "pessimistic", Optimistic: "optimistic", Expected: "expected"}

// String returns the policy's name: "random", "stable", "pessimistic",
// "optimistic" or "expected".
func (p TiePolicy) String() string {
	if p >= 0 && int(p) < len(tieNames) {
		return tieNames[p]
	}
	return fmt.Sprintf("TiePolicy(%d)", int(p))
}

// ParseTiePolicy parses a tie policy name.
func ParseTiePolicy(s string) (TiePolicy, error) {
	for p, n := range tieNames {
		if n == s {
			return TiePolicy(p), nil
		}
	}
	return 0, fmt.Errorf("metric: tie policy %q is not one of random, stable, pessimistic, optimistic, expected: %w", s, ErrConfig)
}

// MarshalText encodes the policy as its name.
func (p TiePolicy) MarshalText() ([]byte, error) {
	if p < 0 || int(p) >= len(tieNames) {
		return nil, fmt.Errorf("metric: unknown tie policy %d: %w", int(p), ErrConfig)
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a policy name.
func (p *TiePolicy) UnmarshalText(b []byte) error {
	v, err := ParseTiePolicy(string(b))
	*p = v
	return err
}

// Accumulation says how a metric adds the per-list values of its updates.
type Accumulation int

const (
	// DefaultAccumulation is Sequential in float32 mode and Exact in float64
	// mode.
	DefaultAccumulation Accumulation = iota
	// Sequential keeps a running total and count in the metric's dtype, as
	// the Keras Mean does: the float32 result is TF-Ranking's, bit for bit,
	// and depends on the order of the updates.
	Sequential
	// Exact adds every value without rounding and rounds once, when the
	// result is read: the result is the same, to the bit, for any order of
	// the updates and any split of them over metrics that are merged.
	Exact
)

var accumulationNames = [...]string{DefaultAccumulation: "default", Sequential: "sequential", Exact: "exact"}

// String returns "default", "sequential" or "exact".
func (a Accumulation) String() string {
	if a >= 0 && int(a) < len(accumulationNames) {
		return accumulationNames[a]
	}
	return fmt.Sprintf("Accumulation(%d)", int(a))
}

// ParseAccumulation parses an accumulation name.
func ParseAccumulation(s string) (Accumulation, error) {
	for a, n := range accumulationNames {
		if n == s {
			return Accumulation(a), nil
		}
	}
	return 0, fmt.Errorf("metric: accumulation %q is not one of default, sequential, exact: %w", s, ErrConfig)
}

// MarshalText encodes the accumulation as its name.
func (a Accumulation) MarshalText() ([]byte, error) {
	if a < 0 || int(a) >= len(accumulationNames) {
		return nil, fmt.Errorf("metric: unknown accumulation %d: %w", int(a), ErrConfig)
	}
	return []byte(a.String()), nil
}

// UnmarshalText decodes an accumulation name.
func (a *Accumulation) UnmarshalText(b []byte) error {
	v, err := ParseAccumulation(string(b))
	*a = v
	return err
}

// NoTopN is the TopN of a metric that ranks whole lists.
const NoTopN = -1

// DefaultMAPName is the name of a MeanAveragePrecision made without
// WithName, as TF-Ranking's Keras metric names itself.
const DefaultMAPName = "mean_average_precision_metric"

// Config is the whole configuration of a metric. Its JSON form has the keys
// name, topn (null for NoTopN), dtype, ragged, ties and seed, and
// accumulation when it is not the default.
type Config struct {
	// Name names the metric in reports.
	Name string
	// TopN is the cutoff, or NoTopN for the whole list. 0 gives an AP of 0.
	TopN int
	// DType is the type the metric computes in.
	DType DType
	// Ragged says the metric takes ragged inputs; a dense metric takes dense
	// inputs only and a ragged one ragged inputs only, as in TF-Ranking.
	Ragged bool
	// Ties orders equal scores.
	Ties TiePolicy
	// Seed seeds the Random tie policy.
	Seed uint64
	// Accumulation says how updates are added up.
	Accumulation Accumulation
}

// accumulation resolves DefaultAccumulation for the dtype.
func (c Config) accumulation() Accumulation {
	if c.Accumulation != DefaultAccumulation {
		return c.Accumulation
	}
	if c.DType == Float64 {
		return Exact
	}
	return Sequential
}

// DefaultConfig returns the configuration of a metric made with no options.
func DefaultConfig(name string) Config {
	return Config{Name: name, TopN: NoTopN}
}

// Validate returns an error naming the first field that is out of range.
func (c Config) Validate() error {
	if c.TopN < NoTopN {
		return fmt.Errorf("metric: topn is %d; it must be >= 0, or NoTopN for the whole list: %w", c.TopN, ErrConfig)
	}
	if c.DType != Float32 && c.DType != Float64 {
		return fmt.Errorf("metric: unknown dtype %d: %w", int(c.DType), ErrConfig)
	}
	if c.Ties < 0 || int(c.Ties) >= len(tieNames) {
		return fmt.Errorf("metric: unknown tie policy %d: %w", int(c.Ties), ErrConfig)
	}
	if c.Accumulation < 0 || int(c.Accumulation) >= len(accumulationNames) {
		return fmt.Errorf("metric: unknown accumulation %d: %w", int(c.Accumulation), ErrConfig)
	}
	return nil
}

type configJSON struct {
	Name   string    `json:"name"`
	TopN   *int      `json:"topn"`
	DType  DType     `json:"dtype"`
	Ragged bool      `json:"ragged"`
	Ties   TiePolicy `json:"ties"`
	Seed   uint64    `json:"seed"`
	// Accumulation is left out when it is the default.
	Accumulation Accumulation `json:"accumulation,omitzero"`
}

// MarshalJSON encodes the configuration with TopN as null for NoTopN.
func (c Config) MarshalJSON() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	j := configJSON{Name: c.Name, DType: c.DType, Ragged: c.Ragged, Ties: c.Ties, Seed: c.Seed, Accumulation: c.Accumulation}
	if c.TopN != NoTopN {
		j.TopN = &c.TopN
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a configuration. Absent keys keep the defaults:
// no topn, float32, dense, random ties, seed 0. An unknown key is an
// error wrapping ErrConfig.
func (c *Config) UnmarshalJSON(b []byte) error {
	var j configJSON
	if err := decodeStrict(b, &j, "config", configKeys); err != nil {
		return err
	}
	out, err := j.config()
	if err != nil {
		return err
	}
	*c = out
	return nil
}

// config returns the validated configuration j describes.
func (j *configJSON) config() (Config, error) {
	out := Config{Name: j.Name, TopN: NoTopN, DType: j.DType, Ragged: j.Ragged, Ties: j.Ties, Seed: j.Seed, Accumulation: j.Accumulation}
	if j.TopN != nil {
		if *j.TopN < 0 {
			return out, fmt.Errorf("metric: config topn is %d; it must be >= 0 or null: %w", *j.TopN, ErrConfig)
		}
		out.TopN = *j.TopN
	}
	return out, out.Validate()
}

// Option sets one field of a metric's configuration.
type Option func(*Config) error

// WithTopN sets the cutoff n >= 0: only the first n positions of each list
// count. n = 0 gives an AP of 0, as in TF-Ranking.
func WithTopN(n int) Option {
	return func(c *Config) error {
		if n < 0 {
			return fmt.Errorf("metric: WithTopN(%d): n must be >= 0: %w", n, ErrConfig)
		}
		c.TopN = n
		return nil
	}
}

// WithName sets the name the metric reports under.
func WithName(name string) Option {
	return func(c *Config) error { c.Name = name; return nil }
}

// WithDType sets the type the metric computes in.
func WithDType(d DType) Option {
	return func(c *Config) error {
		if d != Float32 && d != Float64 {
			return fmt.Errorf("metric: WithDType(%d): unknown dtype: %w", int(d), ErrConfig)
		}
		c.DType = d
		return nil
	}
}

// WithTies sets the tie policy.
func WithTies(p TiePolicy) Option {
	return func(c *Config) error {
		if p < 0 || int(p) >= len(tieNames) {
			return fmt.Errorf("metric: WithTies(%d): unknown tie policy: %w", int(p), ErrConfig)
		}
		c.Ties = p
		return nil
	}
}

// WithSeed seeds the Random tie policy.
func WithSeed(seed uint64) Option {
	return func(c *Config) error { c.Seed = seed; return nil }
}

// WithAccumulation sets how updates are added up.
func WithAccumulation(a Accumulation) Option {
	return func(c *Config) error {
		if a < 0 || int(a) >= len(accumulationNames) {
			return fmt.Errorf("metric: WithAccumulation(%d): unknown accumulation: %w", int(a), ErrConfig)
		}
		c.Accumulation = a
		return nil
	}
}

// WithRagged says whether the metric takes ragged inputs (true) or dense
// inputs (false, the default).
func WithRagged(ragged bool) Option {
	return func(c *Config) error { c.Ragged = ragged; return nil }
}
