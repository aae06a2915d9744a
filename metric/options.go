package metric

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// mode, except under the keras-rs profile, where it is Sequential in
	// both: keras-rs' float64 Mean, to the bit.
	DefaultAccumulation Accumulation = iota
	// Sequential keeps a running total and count in the metric's dtype, as
	// the Keras Mean does: the float32 result is TF-Ranking's, bit for bit,
	// and depends on the order of the updates.
	Sequential
	// Exact adds every value without rounding and rounds once, to the
	// metric's dtype, when the result is read: the result is the same, to the bit, for any order of
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

// Config is the whole configuration of a metric: its kind, the fields
// every metric has (name, cutoff, dtype, raggedness, tie policy, seed,
// accumulation) and the parameters of some kinds. The zero values of Gain
// and Discount are TF-Ranking's defaults; the zero Kind is KindMAP. Its
// JSON form has the keys name, topn (null for NoTopN), dtype, ragged, ties
// and seed, accumulation when it is not the default, metric, and gain,
// discount, convention, empty, relevance, alpha, subtopics, profile and
// adaptive_k when they are not the defaults.
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
	// Kind is the metric.
	Kind Kind
	// Gain maps a label to its gain, for NDCG and DCG.
	Gain Gain
	// Discount maps a rank to its discount, for NDCG, DCG and AlphaDCG.
	Discount Discount
	// Convention is the definition of average precision, for MAP.
	Convention Convention
	// Empty says what a list without relevant items scores, for MAP.
	Empty EmptyPolicy
	// Relevance is the label from which an item is relevant; 0 means
	// TF-Ranking's 1. Only MAP under a convention other than TFRanking
	// takes another value.
	Relevance float64
	// Alpha is alpha-DCG's novelty parameter, in [0, 1]: the gain of a
	// subtopic falls by a factor 1-Alpha each time it is covered again.
	Alpha float64
	// Subtopics is the number T of subtopics of each item, for PrecisionIA
	// and AlphaDCG, whose labels have shape [B, L*T]: item i of a list has
	// labels i*T .. i*T+T-1.
	Subtopics int
	// Profile is the library whose definitions the metric follows;
	// ProfileTFRanking, the zero value, is TF-Ranking's.
	Profile Profile
	// AdaptiveK is torchmetrics' adaptive_k, for Precision under
	// ProfileTorchmetrics.
	AdaptiveK bool
}

// accumulation resolves DefaultAccumulation for the dtype.
func (c *Config) accumulation() Accumulation {
	if c.Accumulation != DefaultAccumulation {
		return c.Accumulation
	}
	if c.DType == Float64 && c.Profile != ProfileKerasRS {
		return Exact
	}
	return Sequential
}

// DefaultConfig returns the configuration of a metric of kind k made with
// no options, named as Keras names the TF-Ranking class.
func DefaultConfig(k Kind) Config {
	c := Config{Name: k.DefaultName(), Kind: k, TopN: NoTopN}
	if k == KindAlphaDCG {
		c.Alpha = 0.5
	}
	return c
}

// threshold returns the label from which an item is relevant.
func (c *Config) threshold() float64 {
	if c.Relevance == 0 {
		return 1
	}
	return c.Relevance
}

// Validate returns an error naming the first field that is out of range
// or that the kind does not take.
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
	if c.Kind < 0 || c.Kind >= allKindCount {
		return fmt.Errorf("metric: unknown metric kind %d: %w", int(c.Kind), ErrConfig)
	}
	if err := c.validateProfile(); err != nil {
		return err
	}
	k := c.Kind
	if !k.takesTopN() && c.TopN != NoTopN {
		return fmt.Errorf("metric: %s takes no topn (got %d), as in TF-Ranking: %w", k, c.TopN, ErrConfig)
	}
	if k != KindNDCG && k != KindDCG && !c.Gain.IsZero() {
		return fmt.Errorf("metric: %s takes no gain function; only ndcg and dcg do: %w", k, ErrConfig)
	}
	if k != KindNDCG && k != KindDCG && k != KindAlphaDCG && !c.Discount.IsZero() {
		return fmt.Errorf("metric: %s takes no discount function; only ndcg, dcg and alpha_dcg do: %w", k, ErrConfig)
	}
	if k != KindAlphaDCG && c.Alpha != 0 {
		return fmt.Errorf("metric: %s takes no alpha (got %v); only alpha_dcg does: %w", k, c.Alpha, ErrConfig)
	}
	if !(c.Alpha >= 0 && c.Alpha <= 1) {
		return fmt.Errorf("metric: alpha is %v; it must be in [0, 1]: %w", c.Alpha, ErrConfig)
	}
	if k.subtopics() != (c.Subtopics != 0) || c.Subtopics < 0 {
		if k.subtopics() {
			return fmt.Errorf("metric: %s takes labels with subtopics: the number of subtopics is %d; set it >= 1 with WithSubtopics: %w", k, c.Subtopics, ErrConfig)
		}
		return fmt.Errorf("metric: %s takes no subtopics (got %d); only precision_ia and alpha_dcg do: %w", k, c.Subtopics, ErrConfig)
	}
	if k.subtopics() && c.Ties == Expected && k == KindAlphaDCG {
		return fmt.Errorf("metric: alpha_dcg has no closed-form expectation over ties; use another tie policy: %w", ErrConfig)
	}
	if k != KindMAP && (c.Convention != TFRanking || c.Empty != EmptyDefault && c.Profile != ProfileTorchmetrics || c.Relevance != 0) {
		return fmt.Errorf("metric: %s takes no convention, empty-list policy or relevance threshold; only map does: %w", k, ErrConfig)
	}
	if c.Convention < 0 || c.Convention >= conventionCount {
		return fmt.Errorf("metric: unknown convention %d: %w", int(c.Convention), ErrConfig)
	}
	if c.Empty < 0 || c.Empty >= emptyCount {
		return fmt.Errorf("metric: unknown empty-list policy %d: %w", int(c.Empty), ErrConfig)
	}
	if c.Relevance != 0 {
		if c.Convention == TFRanking {
			return fmt.Errorf("metric: the tfranking convention fixes relevance at label >= 1 (got %v): %w", c.Relevance, ErrConfig)
		}
		if !(c.Relevance >= 0x1p-126) || math.IsInf(c.Relevance, 1) {
			return fmt.Errorf("metric: relevance threshold %v must be finite and at least 2^-126, the least normal float32: %w", c.Relevance, ErrConfig)
		}
	}
	return nil
}

// sameKind returns an error when o computes a different metric than c.
// Names and seeds may differ.
func (c *Config) sameKind(o *Config) error {
	if c.Kind != o.Kind || c.TopN != o.TopN || c.DType != o.DType || c.Ragged != o.Ragged || c.Ties != o.Ties ||
		c.accumulation() != o.accumulation() || c.Gain.String() != o.Gain.String() || c.Discount.String() != o.Discount.String() ||
		c.Convention != o.Convention || c.Empty.resolve(c.Convention) != o.Empty.resolve(o.Convention) || c.threshold() != o.threshold() ||
		c.Alpha != o.Alpha || c.Subtopics != o.Subtopics || c.Profile != o.Profile || c.AdaptiveK != o.AdaptiveK {
		return fmt.Errorf("metric: cannot merge %s (%s) with %s (%s): %w", o.Name, o.describe(), c.Name, c.describe(), ErrConfig)
	}
	return nil
}

// describe lists the fields that make a metric what it is.
func (c *Config) describe() string {
	return fmt.Sprintf("%s, topn %d, %s, ragged %v, ties %s, %s accumulation, gain %s, discount %s, convention %s, empty %s, relevance %v, alpha %v, subtopics %d, profile %s, adaptive_k %v",
		c.Kind, c.TopN, c.DType, c.Ragged, c.Ties, c.accumulation(), c.Gain, c.Discount, c.Convention, c.Empty.resolve(c.Convention), c.threshold(), c.Alpha, c.Subtopics, c.Profile, c.AdaptiveK)
}

// configJSON is the JSON form of a Config. Its keys come in the order the
// former forms of MeanAveragePrecision's config and the family's settings wrote them.
type configJSON struct {
	Name   string    `json:"name"`
	TopN   *int      `json:"topn"`
	DType  DType     `json:"dtype"`
	Ragged bool      `json:"ragged"`
	Ties   TiePolicy `json:"ties"`
	Seed   uint64    `json:"seed"`
	// Accumulation is left out when it is the default.
	Accumulation Accumulation `json:"accumulation,omitzero"`
	// Metric is absent in the form MeanAveragePrecision wrote before the
	// metrics shared one Config: it reads as map.
	Metric     Kind        `json:"metric"`
	Gain       string      `json:"gain,omitempty"`
	Discount   string      `json:"discount,omitempty"`
	Convention Convention  `json:"convention,omitzero"`
	Empty      EmptyPolicy `json:"empty,omitzero"`
	Relevance  float64     `json:"relevance,omitzero"`
	Alpha      float64     `json:"alpha,omitzero"`
	Subtopics  int         `json:"subtopics,omitzero"`
	Profile    Profile     `json:"profile,omitzero"`
	AdaptiveK  bool        `json:"adaptive_k,omitzero"`
}

// MarshalJSON encodes the configuration with TopN as null for NoTopN. A
// user gain or discount function is written by its name.
func (c Config) MarshalJSON() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	j := configJSON{Name: c.Name, DType: c.DType, Ragged: c.Ragged, Ties: c.Ties, Seed: c.Seed, Accumulation: c.Accumulation,
		Metric: c.Kind, Gain: c.Gain.name, Discount: c.Discount.name, Convention: c.Convention, Empty: c.Empty,
		Relevance: c.Relevance, Alpha: c.Alpha, Subtopics: c.Subtopics, Profile: c.Profile, AdaptiveK: c.AdaptiveK}
	if c.TopN != NoTopN {
		j.TopN = &c.TopN
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes a configuration. Absent keys keep the defaults:
// map, no topn, float32, dense, random ties, seed 0, TF-Ranking's gain and
// discount. A gain or discount must be one of the built-in names; user
// functions cannot be read back. An unknown key is an error wrapping
// ErrConfig.
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
	out := Config{Name: j.Name, TopN: NoTopN, DType: j.DType, Ragged: j.Ragged, Ties: j.Ties, Seed: j.Seed, Accumulation: j.Accumulation,
		Kind: j.Metric, Convention: j.Convention, Empty: j.Empty, Relevance: j.Relevance, Alpha: j.Alpha, Subtopics: j.Subtopics, Profile: j.Profile, AdaptiveK: j.AdaptiveK}
	if j.TopN != nil {
		if *j.TopN < 0 {
			return out, fmt.Errorf("metric: config topn is %d; it must be >= 0 or null: %w", *j.TopN, ErrConfig)
		}
		out.TopN = *j.TopN
	}
	if j.Gain != "" {
		g, err := ParseGain(j.Gain)
		if err != nil {
			return out, err
		}
		out.Gain = g
	}
	if j.Discount != "" {
		d, err := ParseDiscount(j.Discount)
		if err != nil {
			return out, err
		}
		out.Discount = d
	}
	return out, out.Validate()
}

// Option sets part of a metric's configuration. Every option applies to
// every metric; Validate refuses a field that the metric's kind does not
// take.
type Option func(*Config) error

// newConfig applies opts to the default configuration of kind k.
func newConfig(k Kind, opts []Option) (Config, error) {
	c := DefaultConfig(k)
	for _, o := range opts {
		if o == nil {
			return c, fmt.Errorf("metric: nil option: %w", ErrConfig)
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, c.Validate()
}

// ParseMetric parses a metric name of the form key[@k], such as "map",
// "map@10", "ndcg@5" or "precision@1", into the configuration of that
// metric, named by it. The key is one of the Kind names; k sets the cutoff.
func ParseMetric(name string) (Config, error) {
	key, cut, hasCut := strings.Cut(name, "@")
	k, err := ParseKind(key)
	if err != nil {
		return Config{}, err
	}
	c := DefaultConfig(k)
	c.Name = name
	if hasCut {
		n, err := strconv.Atoi(cut)
		if err != nil || n < 0 {
			return c, fmt.Errorf("metric: %q: the cutoff after @ must be an integer >= 0: %w", name, ErrConfig)
		}
		if !k.takesTopN() {
			return c, fmt.Errorf("metric: %q: %s takes no cutoff: %w", name, k, ErrConfig)
		}
		c.TopN = n
	}
	return c, nil
}

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

// WithGain sets the gain function of NDCG and DCG.
func WithGain(g Gain) Option {
	return func(c *Config) error { c.Gain = g; return nil }
}

// WithDiscount sets the rank discount function of NDCG, DCG and AlphaDCG.
func WithDiscount(d Discount) Option {
	return func(c *Config) error { c.Discount = d; return nil }
}

// WithAlpha sets alpha-DCG's novelty parameter, in [0, 1]; TF-Ranking's
// default is 0.5.
func WithAlpha(alpha float64) Option {
	return func(c *Config) error {
		if !(alpha >= 0 && alpha <= 1) {
			return fmt.Errorf("metric: WithAlpha(%v): alpha must be in [0, 1]: %w", alpha, ErrConfig)
		}
		c.Alpha = alpha
		return nil
	}
}

// WithSubtopics sets the number of subtopics of each item, for
// PrecisionIA and AlphaDCG.
func WithSubtopics(t int) Option {
	return func(c *Config) error {
		if t < 1 {
			return fmt.Errorf("metric: WithSubtopics(%d): there must be at least one subtopic: %w", t, ErrConfig)
		}
		c.Subtopics = t
		return nil
	}
}

// WithConvention sets the definition of average precision of MAP.
func WithConvention(v Convention) Option {
	return func(c *Config) error {
		if v < 0 || v >= conventionCount {
			return fmt.Errorf("metric: WithConvention(%d): unknown convention: %w", int(v), ErrConfig)
		}
		c.Convention = v
		return nil
	}
}

// WithEmpty sets what a list without relevant items scores under MAP.
func WithEmpty(p EmptyPolicy) Option {
	return func(c *Config) error {
		if p < 0 || p >= emptyCount {
			return fmt.Errorf("metric: WithEmpty(%d): unknown empty-list policy: %w", int(p), ErrConfig)
		}
		c.Empty = p
		return nil
	}
}

// WithRelevance sets the label from which an item is relevant, for MAP
// under a convention other than TFRanking (trec_eval's relevance level).
func WithRelevance(label float64) Option {
	return func(c *Config) error {
		if !(label >= 0x1p-126) || math.IsInf(label, 1) {
			return fmt.Errorf("metric: WithRelevance(%v): the threshold must be finite and at least 2^-126: %w", label, ErrConfig)
		}
		c.Relevance = label
		return nil
	}
}
