package cases

import (
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Family holds the keys of a case that configure the metrics of the family
// other than TF-Ranking's plain MAP. Every key is optional.
type Family struct {
	// Convention is the definition of average precision of "map":
	// "tfranking" (the default), "treceval", "minrk", "retrieved",
	// "xgboost" or "xgboost-".
	Convention string `json:"convention,omitempty"`
	// Empty is what a "map" list without relevant items scores: "zero",
	// "one", "skip" or "error"; the convention decides when it is absent.
	Empty string `json:"empty,omitempty"`
	// Relevance is the label from which an item is relevant under a
	// convention other than tfranking (trec_eval's relevance level).
	Relevance *float64 `json:"relevance,omitempty"`
	// Gain is the gain function of "ndcg" and "dcg": "pow2m1" (the
	// default, 2^label - 1) or "identity".
	Gain string `json:"gain,omitempty"`
	// Discount is the rank discount of "ndcg" and "dcg": "log2" (the
	// default, 1/log2(1+rank)) or "inverse" (1/rank).
	Discount string `json:"discount,omitempty"`
	// Alpha is the novelty parameter of "alpha_dcg", in [0, 1]; 0.5 when
	// absent.
	Alpha *float64 `json:"alpha,omitempty"`
	// Subtopics is the number T of subtopic labels per item of
	// "precision_ia" and "alpha_dcg", whose label rows then hold T values
	// per item, item by item (TF's [B, L, T] flattened to [B, L*T]).
	Subtopics *int `json:"subtopics,omitempty"`
	// Profile is the library whose definitions the metric follows:
	// "tf-ranking" (the default), "keras-rs" or "torchmetrics"
	// (metric.Profile). Under torchmetrics "metric" may also be
	// "rprecision" or "fallout", and "empty" is its empty_target_action
	// ("zero" for "neg", "one" for "pos", "skip", "error").
	Profile string `json:"profile,omitempty"`
	// AdaptiveK is torchmetrics' adaptive_k of "precision".
	AdaptiveK bool `json:"adaptive_k,omitempty"`
}

// IsFamily reports whether case c, with family keys f, asks for more than
// TF-Ranking's plain MAP, so that RunFamily, not Run, must answer it.
func IsFamily(c *Case, f Family) bool {
	return c.Metric != "map" && c.Metric != "" || f != (Family{})
}

// Config returns the metric configuration case c asks for with family keys f.
// "metric" is the key of a TF-Ranking metric, optionally with @k for the
// cutoff (measure.ParseTFRanking); "topn" then must agree with it.
func (f Family) Config(c *Case) (metric.Config, error) {
	name := c.Metric
	if name == "" {
		name = "map"
	}
	var s metric.Config
	var err error
	if f.Profile != "" && f.Profile != metric.ProfileTFRanking.String() {
		// Another library's metrics: the keys metric.ParseKind reads.
		if s, err = metric.ParseMetric(name); err != nil {
			return s, err
		}
	} else {
		m, err := measure.ParseTFRanking(name)
		if err != nil {
			return metric.Config{}, err
		}
		s = *m.Family
	}
	s.Name = s.Kind.DefaultName()
	if c.TopN != nil {
		if *c.TopN < 0 {
			return s, fmt.Errorf("topn is %d; it must be >= 0 or null: %w", *c.TopN, ErrCase)
		}
		if s.TopN != metric.NoTopN && s.TopN != *c.TopN {
			return s, fmt.Errorf("metric %q has cutoff %d but topn is %d: %w", name, s.TopN, *c.TopN, ErrCase)
		}
		s.TopN = *c.TopN
	}
	s.Ragged = c.Ragged
	if c.DType != "" {
		if s.DType, err = metric.ParseDType(c.DType); err != nil {
			return s, fmt.Errorf("dtype: %w", err)
		}
	}
	if c.Ties != "" {
		if s.Ties, err = metric.ParseTiePolicy(c.Ties); err != nil {
			return s, fmt.Errorf("ties: %w", err)
		}
	}
	if c.Seed != nil {
		s.Seed = *c.Seed
	}
	if f.Convention != "" {
		if s.Convention, err = metric.ParseConvention(f.Convention); err != nil {
			return s, fmt.Errorf("convention: %w", err)
		}
	}
	if f.Empty != "" {
		if s.Empty, err = metric.ParseEmptyPolicy(f.Empty); err != nil {
			return s, fmt.Errorf("empty: %w", err)
		}
	}
	if f.Relevance != nil {
		s.Relevance = *f.Relevance
	}
	if f.Gain != "" {
		if s.Gain, err = metric.ParseGain(f.Gain); err != nil {
			return s, fmt.Errorf("gain: %w", err)
		}
	}
	if f.Discount != "" {
		if s.Discount, err = metric.ParseDiscount(f.Discount); err != nil {
			return s, fmt.Errorf("discount: %w", err)
		}
	}
	if f.Alpha != nil {
		s.Alpha = *f.Alpha
	}
	if f.Subtopics != nil {
		s.Subtopics = *f.Subtopics
	}
	if f.Profile != "" {
		if s.Profile, err = metric.ParseProfile(f.Profile); err != nil {
			return s, fmt.Errorf("profile: %w", err)
		}
	}
	s.AdaptiveK = f.AdaptiveK
	if err := s.Validate(); err != nil {
		return s, err
	}
	return s, nil
}

// RunFamily evaluates case c with family keys f, for any metric of the
// family; its answer has the form Run's has.
func RunFamily(c *Case, f Family) Answer {
	fail := func(err error) Answer { return Answer{ID: c.ID, Error: err.Error()} }
	s, err := f.Config(c)
	if err != nil {
		return fail(err)
	}
	m, err := metric.New(s)
	if err != nil {
		return fail(err)
	}
	return runUpdates(c, m, s.DType == metric.Float32)
}
