package metric

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// Suite evaluates several metrics of the family, with any cutoffs, from
// one ranking of each list: the valid items are ranked once (a sort of the
// items whose label is not 0, the others placed among them by binary
// search) and every metric reads its value off that ranking. Each metric
// keeps its own Keras Mean, so Results gives what each metric made alone
// would give, bit for bit, under every tie policy but Random; under Random
// the metrics of a suite share one random order of each tie, where metrics
// made alone draw one each.
//
// The metrics of a suite share their dtype, raggedness, tie policy, seed,
// accumulation and relevance threshold. A Suite is safe to use from several
// goroutines. The zero value and a nil *Suite have no metrics: Update,
// Compute and Merge return an error, Results nothing.
type Suite struct {
	f family
}

// Score is one metric's result.
type Score struct {
	// Name is the metric's name.
	Name string
	// Value is its weighted mean over every batch since the last Reset.
	Value float64
}

// NewSuite returns a suite of the metrics named by names, each of the form
// key[@k] that ParseMetric reads ("map", "map@10", "ndcg@5", "mrr"...), and
// named by it. Every option applies to every metric that takes it: WithGain
// to NDCG and DCG, WithDiscount to them and AlphaDCG, WithAlpha to
// AlphaDCG, WithSubtopics to PrecisionIA and AlphaDCG, WithConvention,
// WithEmpty and WithRelevance to MAP, the options of Config to all. The
// metrics over labels with subtopics make suites of their own.
func NewSuite(names []string, opts ...Option) (*Suite, error) {
	sets := make([]Config, 0, len(names))
	for _, name := range names {
		s, err := ParseMetric(name)
		if err != nil {
			return nil, err
		}
		for _, o := range opts {
			if o == nil {
				return nil, fmt.Errorf("metric: NewSuite: nil option: %w", ErrConfig)
			}
			if err := o(&s); err != nil {
				return nil, err
			}
		}
		s.Name = name
		if s.Kind != KindNDCG && s.Kind != KindDCG {
			s.Gain = Gain{}
			if s.Kind != KindAlphaDCG {
				s.Discount = Discount{}
			}
		}
		if s.Kind != KindAlphaDCG {
			s.Alpha = 0
		}
		if !s.Kind.subtopics() {
			s.Subtopics = 0
		}
		if s.Kind != KindMAP {
			s.Convention, s.Empty, s.Relevance = TFRanking, EmptyDefault, 0
		}
		if !s.Kind.takesTopN() {
			s.TopN = NoTopN
		}
		sets = append(sets, s)
	}
	return NewSuiteOf(sets...)
}

// NewSuiteOf returns a suite of metrics with the given configurations,
// which must be able to share a ranking (see Suite). Names must be
// distinct.
func NewSuiteOf(sets ...Config) (*Suite, error) {
	seen := make(map[string]bool, len(sets))
	for _, s := range sets {
		if seen[s.Name] {
			return nil, fmt.Errorf("metric: the suite has two metrics named %q: %w", s.Name, ErrConfig)
		}
		seen[s.Name] = true
	}
	s := new(Suite)
	if err := s.f.init(append([]Config(nil), sets...)); err != nil {
		return nil, err
	}
	return s, nil
}

// Names returns the names of the suite's metrics, in order.
func (s *Suite) Names() []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s.f.sets))
	for i := range s.f.sets {
		out[i] = s.f.sets[i].Name
	}
	return out
}

// Configs returns the configurations of the suite's metrics, in order.
func (s *Suite) Configs() []Config {
	if s == nil {
		return nil
	}
	return append([]Config(nil), s.f.sets...)
}

// errNilSuite is the error of the methods of a nil Suite.
func errNilSuite(method string) error {
	return fmt.Errorf("metric: Suite.%s: the suite is nil; make it with NewSuite: %w", method, ErrConfig)
}

// Update adds one batch to every metric. It changes nothing when it returns
// an error.
func (s *Suite) Update(labels, predictions tensor.Lists, weights tensor.Weights) error {
	return s.UpdatePerList(nil, labels, predictions, weights)
}

// UpdatePerList is Update that also writes each metric's per-list values
// and list weights into dst, which must be nil or hold one PerList per
// metric, whose slices it reuses when they are large enough.
func (s *Suite) UpdatePerList(dst []PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	return s.UpdateUnranked(dst, labels, predictions, weights, nil)
}

// Compute returns each metric's per-list values and list weights of one
// batch, without adding it.
func (s *Suite) Compute(labels, predictions tensor.Lists, weights tensor.Weights) ([]PerList, error) {
	if s == nil {
		return nil, errNilSuite("Compute")
	}
	f := &s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.compute(labels, predictions, weights, nil); err != nil {
		return nil, err
	}
	out := make([]PerList, len(f.sets))
	for j := range out {
		f.perList(j, &out[j], labels.Len())
	}
	return out, nil
}

// Results returns every metric's result, in order.
func (s *Suite) Results() []Score {
	if s == nil {
		return nil
	}
	f := &s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Score, len(f.sets))
	for j := range out {
		out[j] = Score{Name: f.sets[j].Name, Value: f.result(j)}
	}
	return out
}

// Result returns the result of the metric named name, and whether the
// suite has one.
func (s *Suite) Result(name string) (float64, bool) {
	if s == nil {
		return 0, false
	}
	f := &s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	for j := range f.sets {
		if f.sets[j].Name == name {
			return f.result(j), true
		}
	}
	return 0, false
}

// Reset forgets every batch and restarts the tie-break generator.
func (s *Suite) Reset() {
	if s != nil {
		s.f.Reset()
	}
}

// Reseed restarts the tie-break generator from seed, which becomes the
// seed of every metric of the suite; the totals are kept. A reset suite
// reseeded with seed draws as a new suite of that seed does.
func (s *Suite) Reseed(seed uint64) {
	if s != nil {
		s.f.Reseed(seed)
	}
}

// State returns a copy of every metric's accumulator, in order.
func (s *Suite) State() []State {
	if s == nil {
		return nil
	}
	f := &s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]State, len(f.sets))
	for j := range out {
		out[j] = f.state(j)
	}
	return out
}

// Merge adds the totals and counts of other suites of the same metrics to
// s, metric by metric, in order. On an error s is unchanged.
func (s *Suite) Merge(others ...*Suite) error {
	if s == nil {
		return errNilSuite("Merge")
	}
	fs := make([]*family, len(others))
	for i, o := range others {
		if o != nil {
			fs[i] = &o.f
		}
	}
	return s.f.merge(fs)
}

// UpdateUnranked is UpdatePerList for lists some of whose relevant items
// were not ranked at all, as when a TREC run leaves out documents the qrels
// judge relevant; unranked[b] is the number of such items of list b. Each
// MAP of the suite of the TFRanking convention whose empty lists score 0
// counts them as MeanAveragePrecision.UpdateUnranked does (in its AP
// denominator and list weight), with the value that MAP made alone would
// give; the other metrics read the ranked lists alone. The suite needs such
// a MAP, and unranked must be nil with per-item weights. Under the Random
// tie policy only a suite of that one MAP takes unranked counts, as its
// draws are then its own. A nil unranked is exactly UpdatePerList.
func (s *Suite) UpdateUnranked(dst []PerList, labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	if s == nil {
		return errNilSuite("Update")
	}
	if dst != nil && len(dst) != len(s.f.sets) {
		return fmt.Errorf("metric: Suite.UpdatePerList: %d PerLists for %d metrics: %w", len(dst), len(s.f.sets), ErrConfig)
	}
	f := &s.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.update(labels, predictions, weights, unranked); err != nil {
		return err
	}
	for j := range dst {
		f.perList(j, &dst[j], labels.Len())
	}
	return nil
}
