package metric

import "github.com/rankmetrics/rankmetrics/tensor"

// Metric is a streaming metric over batches of ranked lists, with the
// methods of a Keras metric: every metric of the package is one.
type Metric interface {
	// Name returns the name the metric reports under.
	Name() string
	// Config returns the metric's configuration: New(m.Config()) makes a
	// metric like m.
	Config() Config
	// Update adds one batch.
	Update(labels, predictions tensor.Lists, weights tensor.Weights) error
	// UpdatePerList is Update that also writes the per-list values and
	// list weights of the batch into dst when it is not nil.
	UpdatePerList(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error
	// Compute returns the per-list values and list weights of one batch
	// without adding it.
	Compute(labels, predictions tensor.Lists, weights tensor.Weights) (PerList, error)
	// ComputeInto is Compute writing into dst.
	ComputeInto(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error
	// Result returns the metric over every batch added since the last Reset.
	Result() float64
	// Reset forgets every batch.
	Reset()
	// State returns a copy of the accumulator.
	State() State
	// SetState replaces the accumulator.
	SetState(State) error
}

// PerList holds the per-list values of one batch, as TF-Ranking's
// compute() returns them: the value of each list (its AP, for MAP) and its
// list weight. In float32 mode each value is a float32 held exactly in a
// float64.
type PerList struct {
	Values  []float64
	Weights []float64
}

// MeanAveragePrecision is TF-Ranking's MeanAveragePrecisionMetric: a
// weighted mean of per-list average precision, accumulated over batches as
// a Keras Mean. Under the default convention, TFRanking, it is TF-Ranking's
// bit for bit in float32; WithConvention gives the definitions of
// trec_eval, ml_metrics' mapk, torchmetrics and XGBoost. Its methods are
// safe to call from several goroutines.
type MeanAveragePrecision struct{ family }

// NewMeanAveragePrecision returns a MAP metric. With no options it is
// TF-Ranking's default: the whole list, float32, dense inputs, random ties
// (seed 0), the TFRanking convention and the name
// mean_average_precision_metric.
func NewMeanAveragePrecision(opts ...Option) (*MeanAveragePrecision, error) {
	return newMetric[MeanAveragePrecision](KindMAP, opts)
}

// Merge adds the totals and counts of others to m, in order, as Keras
// merge_state does (exactly, under Exact accumulation). The others must
// compute the same metric (kind, topn, dtype, raggedness, tie policy,
// accumulation and the kind's parameters); names and seeds may differ. On
// an error m is unchanged.
func (m *MeanAveragePrecision) Merge(others ...*MeanAveragePrecision) error {
	return mergeInto(m, others)
}
