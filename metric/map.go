package metric

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// Metric is a streaming metric over batches of ranked lists.
type Metric interface {
	// Name returns the name the metric reports under.
	Name() string
	// Update adds one batch.
	Update(labels, predictions tensor.Lists, weights tensor.Weights) error
	// Result returns the metric over every batch added since the last Reset.
	Result() float64
	// Reset forgets every batch.
	Reset()
}

// PerList holds the per-list values of one batch, as TF-Ranking's
// compute() returns them: the AP of each list and its list weight. In
// float32 mode each value is a float32 held exactly in a float64.
type PerList struct {
	Values  []float64
	Weights []float64
}

// MeanAveragePrecision is TF-Ranking's MeanAveragePrecisionMetric: a
// weighted mean of per-list average precision, accumulated over batches as
// a Keras Mean. Its methods are safe to call from several goroutines.
type MeanAveragePrecision struct {
	mu  sync.Mutex
	cfg Config
	pcg rand.PCG
	rng *rand.Rand

	ws32 workspaceFloat32
	ws64 workspaceFloat64
	// acc holds the totals, as every metric's do.
	acc meanAcc
}

var _ Metric = (*MeanAveragePrecision)(nil)

// NewMeanAveragePrecision returns a MAP metric. With no options it is
// TF-Ranking's default: the whole list, float32, dense inputs, random ties
// (seed 0) and the name mean_average_precision_metric.
func NewMeanAveragePrecision(opts ...Option) (*MeanAveragePrecision, error) {
	c := DefaultConfig(DefaultMAPName)
	for _, o := range opts {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	return FromConfig(c)
}

// FromConfig returns a MAP metric with configuration c.
func FromConfig(c Config) (*MeanAveragePrecision, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	m := &MeanAveragePrecision{cfg: c}
	m.rng = rand.New(&m.pcg)
	m.Reset()
	return m, nil
}

// Name returns the metric's name.
func (m *MeanAveragePrecision) Name() string { return m.cfg.Name }

// Config returns the metric's configuration.
func (m *MeanAveragePrecision) Config() Config { return m.cfg }

// Reset sets the total and the count to 0 and restarts the tie-break
// generator from the seed, so a reset metric repeats its results.
func (m *MeanAveragePrecision) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.acc.reset()
	m.pcg.Seed(m.cfg.Seed, 0)
}

// Reseed restarts the tie-break generator from seed, which becomes the
// metric's seed; the totals are kept.
func (m *MeanAveragePrecision) Reseed(seed uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cfg.Seed = seed
	m.pcg.Seed(seed, 0)
}

// check returns an error when the inputs do not fit each other or the
// metric.
func (m *MeanAveragePrecision) check(labels, predictions tensor.Lists, weights tensor.Weights) error {
	if err := labels.SameShape(predictions, "labels", "predictions"); err != nil {
		return err
	}
	if err := weights.Check(labels); err != nil {
		return err
	}
	if labels.IsRagged() != m.cfg.Ragged {
		if m.cfg.Ragged {
			return fmt.Errorf("metric: %s is ragged but labels have dense shape %s; pass ragged lists or make the metric dense: %w",
				m.cfg.Name, labels.Shape(), tensor.ErrShape)
		}
		return fmt.Errorf("metric: %s is dense but labels are %s; pass dense lists or use WithRagged(true): %w",
			m.cfg.Name, labels.Shape(), tensor.ErrShape)
	}
	if labels.Width() > maxItems {
		return fmt.Errorf("metric: lists of %d items are longer than the %d a kernel takes: %w", labels.Width(), maxItems, tensor.ErrShape)
	}
	return nil
}

// compute runs the kernel of the metric's dtype on one batch, leaving the
// per-list values in the workspace. It leaves the tie-break generator as it
// was when it fails. The caller holds m.mu.
func (m *MeanAveragePrecision) compute(labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	if err := m.check(labels, predictions, weights); err != nil {
		return err
	}
	if unranked != nil {
		if len(unranked) != labels.Len() {
			return fmt.Errorf("metric: unranked has %d counts but labels have %d lists: %w", len(unranked), labels.Len(), tensor.ErrShape)
		}
		if weights.Kind() == tensor.ItemWeights {
			return fmt.Errorf("metric: unranked relevant items take the list's weight, so they need no weights or per-list weights, not per-item weights: %w", ErrInput)
		}
		for b, u := range unranked {
			if u < 0 {
				return fmt.Errorf("metric: unranked[%d] is %d; a count of items must be >= 0: %w", b, u, ErrInput)
			}
		}
	}
	saved := m.pcg
	var err error
	if m.cfg.DType == Float64 {
		err = m.ws64.batch(labels, predictions, weights, unranked, &m.cfg, m.rng)
	} else {
		err = m.ws32.batch(labels, predictions, weights, unranked, &m.cfg, m.rng)
	}
	if err != nil {
		m.pcg = saved
	}
	return err
}

// Update adds one batch: labels and predictions of the same shape, and
// weights that are none, per item or per list. It changes nothing when it
// returns an error.
func (m *MeanAveragePrecision) Update(labels, predictions tensor.Lists, weights tensor.Weights) error {
	return m.UpdatePerList(nil, labels, predictions, weights)
}

// UpdatePerList is Update that also writes the AP and list weight of every
// list of the batch into dst, as Compute does, when dst is not nil. It
// reuses the slices of dst when they are large enough.
func (m *MeanAveragePrecision) UpdatePerList(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	return m.UpdateUnranked(dst, labels, predictions, weights, nil)
}

// UpdateUnranked is UpdatePerList for lists some of whose relevant items
// were not ranked at all, as when a TREC run leaves out documents the qrels
// judge relevant. unranked[b] is the number of such items of list b: they
// count in the AP denominator and in the list weight, each with the list's
// weight (1 without weights), and take no rank, as trec_eval counts them.
// With per-item weights, unranked must be nil. TF-Ranking has no such
// items; a nil unranked is exactly Update.
func (m *MeanAveragePrecision) UpdateUnranked(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.compute(labels, predictions, weights, unranked); err != nil {
		return err
	}
	m.accumulate(labels.Len())
	m.perList(dst, labels.Len())
	return nil
}

// accumulate adds the last batch of bsz lists to the totals. The caller
// holds m.mu.
func (m *MeanAveragePrecision) accumulate(bsz int) {
	exactly := m.cfg.accumulation() == Exact
	switch {
	case m.cfg.DType == Float64 && exactly:
		for b := range bsz {
			m.acc.ex.addProduct(m.ws64.v[b], m.ws64.lw[b])
		}
	case m.cfg.DType == Float64:
		m.ws64.accumulate(&m.acc.total64, &m.acc.count64, bsz)
	case exactly:
		for b := range bsz {
			m.acc.ex.addProduct(float64(m.ws32.v[b]), float64(m.ws32.lw[b]))
		}
	default:
		m.ws32.accumulate(&m.acc.total32, &m.acc.count32, bsz)
	}
}

// Compute returns the AP and the list weight of every list of one batch,
// as TF-Ranking's compute() does, without adding the batch to the metric.
// Under the Random tie policy it draws from the same generator as Update.
func (m *MeanAveragePrecision) Compute(labels, predictions tensor.Lists, weights tensor.Weights) (PerList, error) {
	var out PerList
	err := m.ComputeInto(&out, labels, predictions, weights)
	return out, err
}

// ComputeInto is Compute writing into dst, whose slices it reuses when they
// are large enough.
func (m *MeanAveragePrecision) ComputeInto(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.compute(labels, predictions, weights, nil); err != nil {
		return err
	}
	m.perList(dst, labels.Len())
	return nil
}

// perList copies the per-list values of the last batch of bsz lists into
// dst, when it is not nil. The caller holds m.mu.
func (m *MeanAveragePrecision) perList(dst *PerList, bsz int) {
	if dst == nil {
		return
	}
	dst.Values, dst.Weights = grow(dst.Values, bsz), grow(dst.Weights, bsz)
	for b := range bsz {
		if m.cfg.DType == Float64 {
			dst.Values[b], dst.Weights[b] = m.ws64.ap[b], m.ws64.lw[b]
		} else {
			dst.Values[b], dst.Weights[b] = float64(m.ws32.ap[b]), float64(m.ws32.lw[b])
		}
	}
}

// Result returns the weighted mean AP over every batch since the last
// Reset: total / count, or 0 when count is 0 (TF's divide_no_nan). With
// Sequential accumulation in float32 mode it is the float32 TF-Ranking
// returns; with Exact accumulation it is the exact quotient of the exact
// sums, rounded once to float64.
func (m *MeanAveragePrecision) Result() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.acc.result(m.cfg.DType, m.cfg.accumulation() == Exact, true)
}

// sameKind returns an error when o computes a different metric than m.
// Names and seeds may differ.
func (c Config) sameKind(o Config) error {
	if c.TopN != o.TopN || c.DType != o.DType || c.Ragged != o.Ragged || c.Ties != o.Ties || c.accumulation() != o.accumulation() {
		return fmt.Errorf("metric: cannot merge %s (topn %d, %s, ragged %v, ties %s, %s accumulation) with %s (topn %d, %s, ragged %v, ties %s, %s accumulation): %w",
			o.Name, o.TopN, o.DType, o.Ragged, o.Ties, o.accumulation(), c.Name, c.TopN, c.DType, c.Ragged, c.Ties, c.accumulation(), ErrConfig)
	}
	return nil
}

// Merge adds the totals and counts of others to m, in order, as Keras
// merge_state does (exactly, under Exact accumulation). The others must have
// the same topn, dtype, raggedness, tie policy and accumulation; names and
// seeds may differ. On an error m is unchanged.
func (m *MeanAveragePrecision) Merge(others ...*MeanAveragePrecision) error {
	states := make([]State, len(others))
	for i, o := range others {
		if o == nil {
			return fmt.Errorf("metric: Merge: metric %d is nil: %w", i, ErrConfig)
		}
		states[i] = o.State()
		if err := m.checkState(&states[i]); err != nil {
			return fmt.Errorf("metric: Merge: metric %d: %w", i, err)
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range states {
		m.addState(&s)
	}
	return nil
}
