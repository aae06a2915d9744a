package metric

import (
	"fmt"
	"math"
	"strings"
)

// Profile names the library whose definitions a metric follows. A profile
// is a convention of the Config, like Convention for MAP: the same metric
// kinds, the same inputs, the rules of another library. Worked on two
// lists, labels [[0,1,0,1],[1,0,0,0]], scores [[0.9,0.8,0.8,0.1],
// [0.1,0.5,0.5,0.9]], cutoff 3, ties kept in input order:
//
//	                MAP@3   NDCG@3      MRR@3  P@3
//	TFRanking       0.125   0.19342642  0.25   0.16666667
//	KerasRS         0.125   0.19342642  0.25   0.16666667  (this tie order; keras-rs draws one)
//	Torchmetrics    0.25    0.17335659  0.25   0.16666667
//
// torchmetrics' AP averages over the relevant items retrieved, and its
// NDCG has linear gain and averages the gains of tied items.
type Profile int

const (
	// ProfileTFRanking is TF-Ranking 0.5.5's tfr.keras.metrics, the
	// default.
	ProfileTFRanking Profile = iota
	// ProfileKerasRS is keras-rs 0.4.0's keras_rs.metrics:
	// MeanAveragePrecision, NDCG, DCG, MeanReciprocalRank, PrecisionAtK and
	// RecallAtK. Items are masked when their label is < 0 or their weight
	// is not > 0; lists are weighted as TF-Ranking weighs them. keras-rs
	// always shuffles ties with JAX's generator (shuffle_ties=False does
	// not stop it, as it passes a mask): the Random tie policy with seed s
	// draws the same shuffle as keras-rs' metric made with seed=s, update
	// after update from the last Reset (JAX's threefry2x32 on keys [s, k]),
	// over the batch's dense shape (a ragged batch: its longest row's
	// width); Stable keeps a given order. Float64 is keras-rs' float64
	// arithmetic (JAX's x64 mode), whose Keras Mean rounds each list's
	// product and weight to float32 before its float64 sums; the default
	// accumulation is Sequential in both dtypes, the Mean's.
	ProfileKerasRS
	// ProfileTorchmetrics is torchmetrics 1.9's retrieval metrics:
	// RetrievalMAP, RetrievalNormalizedDCG, RetrievalMRR,
	// RetrievalPrecision, RetrievalRecall, RetrievalHitRate,
	// RetrievalRPrecision and RetrievalFallOut. Each list is one query,
	// weighing 1; an item with a negative label is dropped, as torchmetrics
	// drops targets equal to ignore_index; labels are 0 or 1 except for
	// NDCG; WithEmpty says what a query without relevant items scores
	// (EmptyZero "neg", the default, EmptyOne "pos", EmptySkip "skip",
	// EmptyError "error"). The overall value is the mean over the queries.
	// torchmetrics computes in float32 whatever its inputs' dtype: Float64
	// gives its definitions in float64, not bits torchmetrics computes.
	ProfileTorchmetrics
	profileCount
)

var profileNames = [...]string{ProfileTFRanking: "tf-ranking", ProfileKerasRS: "keras-rs", ProfileTorchmetrics: "torchmetrics"}

// String returns "tf-ranking", "keras-rs" or "torchmetrics".
func (p Profile) String() string {
	if p >= 0 && p < profileCount {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", int(p))
}

// ParseProfile parses a profile name.
func ParseProfile(s string) (Profile, error) {
	for p, n := range profileNames {
		if n == s {
			return Profile(p), nil
		}
	}
	return 0, fmt.Errorf("metric: profile %q is not one of %s: %w", s, strings.Join(profileNames[:], ", "), ErrConfig)
}

// MarshalText encodes the profile as its name.
func (p Profile) MarshalText() ([]byte, error) {
	if p < 0 || p >= profileCount {
		return nil, fmt.Errorf("metric: unknown profile %d: %w", int(p), ErrConfig)
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a profile name.
func (p *Profile) UnmarshalText(b []byte) error {
	v, err := ParseProfile(string(b))
	*p = v
	return err
}

// Profiles returns every profile, in the order of their constants.
func Profiles() []Profile {
	out := make([]Profile, profileCount)
	for p := range out {
		out[p] = Profile(p)
	}
	return out
}

// Kinds returns the metric kinds profile p has, in the order of their
// constants.
func (p Profile) Kinds() []Kind {
	var out []Kind
	for k := range allKindCount {
		if p.has(Kind(k)) {
			out = append(out, Kind(k))
		}
	}
	return out
}

// has reports whether profile p has metrics of kind k.
func (p Profile) has(k Kind) bool {
	switch p {
	case ProfileTFRanking:
		return k >= 0 && k < kindCount
	case ProfileKerasRS:
		switch k {
		case KindMAP, KindNDCG, KindDCG, KindMRR, KindPrecision, KindRecall:
			return true
		}
	case ProfileTorchmetrics:
		switch k {
		case KindMAP, KindNDCG, KindMRR, KindPrecision, KindRecall, KindHits, KindRPrecision, KindFallOut:
			return true
		}
	}
	return false
}

// LibraryName returns the name of kind k's metric in profile p's library:
// "RetrievalMAP", "MeanAveragePrecision", "map". It is "" when p has no
// such metric.
func (p Profile) LibraryName(k Kind) string {
	if !p.has(k) {
		return ""
	}
	switch p {
	case ProfileKerasRS:
		return map[Kind]string{KindMAP: "MeanAveragePrecision", KindNDCG: "NDCG", KindDCG: "DCG", KindMRR: "MeanReciprocalRank",
			KindPrecision: "PrecisionAtK", KindRecall: "RecallAtK"}[k]
	case ProfileTorchmetrics:
		return map[Kind]string{KindMAP: "RetrievalMAP", KindNDCG: "RetrievalNormalizedDCG", KindMRR: "RetrievalMRR",
			KindPrecision: "RetrievalPrecision", KindRecall: "RetrievalRecall", KindHits: "RetrievalHitRate",
			KindRPrecision: "RetrievalRPrecision", KindFallOut: "RetrievalFallOut"}[k]
	}
	return k.String()
}

// validateProfile returns an error when c's profile does not have its kind
// or a field the profile does not take is set.
func (c *Config) validateProfile() error {
	p := c.Profile
	if p < 0 || p >= profileCount {
		return fmt.Errorf("metric: unknown profile %d: %w", int(p), ErrConfig)
	}
	if !p.has(c.Kind) {
		var names []string
		for _, k := range p.Kinds() {
			names = append(names, k.String())
		}
		return fmt.Errorf("metric: the %s profile has no %s; it has %s: %w", p, c.Kind, strings.Join(names, ", "), ErrConfig)
	}
	if c.AdaptiveK && (p != ProfileTorchmetrics || c.Kind != KindPrecision) {
		return fmt.Errorf("metric: adaptive_k is torchmetrics' RetrievalPrecision's alone: %w", ErrConfig)
	}
	if p == ProfileTFRanking {
		return nil
	}
	if c.TopN == 0 {
		return fmt.Errorf("metric: the %s profile takes a cutoff >= 1 or none (got 0), as the library: %w", p, ErrConfig)
	}
	if c.Kind == KindRPrecision && c.TopN != NoTopN {
		return fmt.Errorf("metric: rprecision takes no cutoff: it looks at the first R items, R the relevant ones: %w", ErrConfig)
	}
	if !c.Gain.IsZero() || !c.Discount.IsZero() {
		return fmt.Errorf("metric: the %s profile fixes its gain and discount (%s): %w", p, profileGainDoc[p], ErrConfig)
	}
	if c.Convention != TFRanking || c.Relevance != 0 {
		return fmt.Errorf("metric: the %s profile defines average precision and relevance itself; it takes no convention or relevance threshold: %w", p, ErrConfig)
	}
	if p == ProfileKerasRS && c.Empty != EmptyDefault {
		return fmt.Errorf("metric: keras-rs scores a list without relevant items 0 and weighs it by the batch's mean list weight; it takes no empty-list policy: %w", ErrConfig)
	}
	if p == ProfileKerasRS && c.Ties == Random && c.Seed > math.MaxUint32 {
		return fmt.Errorf("metric: keras-rs seeds its tie shuffle with a 32-bit seed; %d is larger: %w", c.Seed, ErrConfig)
	}
	if c.Ties == Expected {
		return fmt.Errorf("metric: the %s profile has no closed-form expectation over ties; use random, stable, pessimistic or optimistic (torchmetrics' NDCG averages tied gains whatever the policy): %w", p, ErrConfig)
	}
	return nil
}

// profileGainDoc says what gain and discount each profile fixes.
var profileGainDoc = [...]string{
	ProfileTFRanking:    "any",
	ProfileKerasRS:      "gain 2^label-1, discount 1/log2(1+rank)",
	ProfileTorchmetrics: "gain = label, discount 1/log2(1+rank)",
}

// WithProfile sets the library whose definitions the metric follows.
func WithProfile(p Profile) Option {
	return func(c *Config) error {
		if p < 0 || p >= profileCount {
			return fmt.Errorf("metric: WithProfile(%d): unknown profile: %w", int(p), ErrConfig)
		}
		c.Profile = p
		return nil
	}
}

// WithAdaptiveK sets torchmetrics' adaptive_k of RetrievalPrecision: a
// cutoff past the end of a query's list becomes the list's length.
func WithAdaptiveK(on bool) Option {
	return func(c *Config) error { c.AdaptiveK = on; return nil }
}
