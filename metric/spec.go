package metric

import (
	"fmt"
	"math"
)

// famSpec is one metric of a family plan, resolved for the kernels.
type famSpec struct {
	kind  Kind
	topn  int
	conv  Convention
	empty EmptyPolicy // resolved: never EmptyDefault
	gain  *gainEval   // NDCG and DCG
	disc  Discount    // NDCG, DCG and AlphaDCG
	alpha float64     // AlphaDCG
}

// cutoff returns the number of positions the spec looks at in a list of n
// slots: topn, or n when topn is NoTopN or larger.
func (s *famSpec) cutoff(n int) int {
	if s.topn >= 0 && s.topn < n {
		return s.topn
	}
	return n
}

// topnOr returns topn, or n when there is none: the topn TF-Ranking's
// precision divides by, not clipped to the list.
func (s *famSpec) topnOr(n int) int {
	if s.topn >= 0 {
		return s.topn
	}
	return n
}

// lwDirect reports whether the kernel sets the list weight of each list
// itself, rather than deriving it from the batch as TF-Ranking does.
func (s *famSpec) lwDirect() bool {
	// The DCG-like metrics divide their value by the derived list weight.
	return s.kind == KindARP || s.kind == KindOPA || s.kind == KindMAP && s.conv != TFRanking
}

// famPlan is what the family kernels compute for each batch: the metrics,
// and what they share.
type famPlan struct {
	specs  []famSpec
	gains  []*gainEval // the distinct gains of the specs
	ragged bool
	ties   TiePolicy
	thr    float64 // the label from which an item is relevant
	// rankAll is set when a gain has gain(0) != 0, so that every valid
	// item, not only those with a label other than 0, must be ranked.
	rankAll bool
	// rank is set when some spec needs the ranking (all but OPA).
	rank bool
	// rel is set when some spec needs the relevance statistics.
	rel bool
	// div is set for a plan of metrics over labels with subtopics, and
	// subtopics is then their number per item.
	div       bool
	subtopics int
}

// newPlan checks that the configurations can share one ranking per list
// and builds their plan.
func newPlan(sets []Config) (famPlan, error) {
	if len(sets) == 0 {
		return famPlan{}, fmt.Errorf("metric: no metrics: %w", ErrConfig)
	}
	first := &sets[0]
	p := famPlan{ragged: first.Ragged, ties: first.Ties, thr: first.threshold(), div: first.Kind.subtopics(), subtopics: first.Subtopics}
	for i := range sets {
		s := &sets[i]
		if err := s.Validate(); err != nil {
			return p, fmt.Errorf("metric: %s: %w", s.Name, err)
		}
		if s.DType != first.DType || s.Ragged != first.Ragged || s.Ties != first.Ties || s.Seed != first.Seed ||
			s.accumulation() != first.accumulation() {
			return p, fmt.Errorf("metric: %s (%s, ragged %v, ties %s, seed %d, %s accumulation) cannot share a ranking with %s (%s, ragged %v, ties %s, seed %d, %s accumulation): %w",
				s.Name, s.DType, s.Ragged, s.Ties, s.Seed, s.accumulation(), first.Name, first.DType, first.Ragged, first.Ties, first.Seed, first.accumulation(), ErrConfig)
		}
		if s.Profile != first.Profile {
			return p, fmt.Errorf("metric: %s (profile %s) cannot share a ranking with %s (profile %s): %w", s.Name, s.Profile, first.Name, first.Profile, ErrConfig)
		}
		if s.threshold() != p.thr {
			return p, fmt.Errorf("metric: %s has relevance threshold %v but %s has %v; metrics that share a ranking share it: %w",
				s.Name, s.threshold(), first.Name, p.thr, ErrConfig)
		}
		if s.Kind.subtopics() != p.div || s.Subtopics != p.subtopics {
			return p, fmt.Errorf("metric: %s (%s, %d subtopics) cannot share a ranking with %s (%s, %d subtopics): metrics over labels with subtopics take other labels: %w",
				s.Name, s.Kind, s.Subtopics, first.Name, first.Kind, first.Subtopics, ErrConfig)
		}
		if s.Kind == KindMAP && s.Convention == RetrievedRelevant && s.Ties == Expected {
			return p, fmt.Errorf("metric: %s: the retrieved convention has no closed-form expectation over ties; use another tie policy: %w", s.Name, ErrConfig)
		}
		sp := famSpec{kind: s.Kind, topn: s.TopN, conv: s.Convention, empty: s.Empty.resolve(s.Convention), disc: s.Discount, alpha: s.Alpha}
		if s.Kind == KindNDCG || s.Kind == KindDCG {
			sp.gain = p.gainFor(s.Gain)
			sp.gain.ideal = sp.gain.ideal || s.Kind == KindNDCG
			p.rankAll = p.rankAll || !sp.gain.zero
		}
		switch s.Kind {
		case KindMAP, KindMRR, KindHits, KindPrecision, KindRecall:
			p.rel = true
		}
		p.rank = p.rank || s.Kind != KindOPA && !p.div
		p.specs = append(p.specs, sp)
	}
	return p, nil
}

// gainFor returns the plan's evaluator of g, adding it when it is new.
// Gains are told apart by name.
func (p *famPlan) gainFor(g Gain) *gainEval {
	for _, e := range p.gains {
		if e.g.name == g.name {
			return e
		}
	}
	e := newGainEval(g)
	e.index = len(p.gains)
	p.gains = append(p.gains, e)
	return e
}

// dcgLike reports whether the spec's value is a DCG that TF divides by the
// list weight.
func (s *famSpec) dcgLike() bool { return s.kind == KindDCG || s.kind == KindAlphaDCG }

// discounted reports whether the spec needs a discount table.
func (s *famSpec) discounted() bool {
	return s.kind == KindNDCG || s.kind == KindDCG || s.kind == KindAlphaDCG
}

// emptyError reports a list without relevant items under EmptyError.
func emptyError(b int) error {
	return fmt.Errorf("metric: list %d has no relevant item and the empty-list policy is error: %w", b, ErrInput)
}

// gainError reports a valid item whose gain is NaN.
func gainError(b, i int, label float64) error {
	return fmt.Errorf("metric: labels[%d][%d] is %v and its gain is NaN: %w", b, i, label, ErrInput)
}

// negInf returns -Inf in T: TF's reduce_max over no positions.
func negInf[T float32 | float64]() T { return T(math.Inf(-1)) }

// abs64 returns |x|.
func abs64(x float64) float64 { return math.Abs(x) }

// exactInts reports whether x, a product or sum of integer-valued terms
// like w, is an integer of magnitude below 2^24, so that every order of
// its additions gives it exactly, in float32 as in float64.
func exactInts[T float32 | float64](x, w T) bool {
	return w == T(int32(w)) && x < 1<<24 && x > -(1<<24)
}
