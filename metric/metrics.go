package metric

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// FamilyMetric is what every metric of the family offers: a Metric that
// also gives per-list values, its settings and its state.
type FamilyMetric interface {
	Metric
	// UpdatePerList is Update that also writes the per-list values and
	// list weights of the batch into dst when it is not nil.
	UpdatePerList(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error
	// Compute returns the per-list values and list weights of one batch
	// without adding it.
	Compute(labels, predictions tensor.Lists, weights tensor.Weights) (PerList, error)
	// ComputeInto is Compute writing into dst.
	ComputeInto(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error
	// Settings returns the metric's settings.
	Settings() Settings
	// State returns a copy of the accumulator.
	State() FamilyState
	// SetState replaces the accumulator.
	SetState(FamilyState) error
}

// newMetric makes a metric of kind k with opts.
func newMetric[T any, M interface {
	*T
	fam() *family
}](k Kind, opts []Setting) (M, error) {
	s, err := newSettings(k, opts)
	if err != nil {
		return nil, err
	}
	return fromSettings[T, M](s)
}

func fromSettings[T any, M interface {
	*T
	fam() *family
}](s Settings) (M, error) {
	m := M(new(T))
	if err := m.fam().init([]Settings{s}); err != nil {
		return nil, err
	}
	return m, nil
}

// New returns the metric of kind s.Kind with settings s.
func New(s Settings) (FamilyMetric, error) {
	switch s.Kind {
	case KindMAP:
		return fromSettings[MAP](s)
	case KindMRR:
		return fromSettings[MRR](s)
	case KindHits:
		return fromSettings[Hits](s)
	case KindARP:
		return fromSettings[ARP](s)
	case KindPrecision:
		return fromSettings[Precision](s)
	case KindRecall:
		return fromSettings[Recall](s)
	case KindNDCG:
		return fromSettings[NDCG](s)
	case KindDCG:
		return fromSettings[DCG](s)
	case KindOPA:
		return fromSettings[OPA](s)
	case KindPrecisionIA:
		return fromSettings[PrecisionIA](s)
	case KindAlphaDCG:
		return fromSettings[AlphaDCG](s)
	}
	return nil, fmt.Errorf("metric: unknown metric kind %d: %w", int(s.Kind), ErrConfig)
}

// MAP is mean average precision under a named Convention. Under the
// default, TFRanking, it is TF-Ranking's MeanAveragePrecisionMetric and
// gives what MeanAveragePrecision gives, bit for bit, under every tie
// policy but Random (whose draws differ); the other conventions are those
// of trec_eval, ml_metrics' mapk, torchmetrics and XGBoost.
type MAP struct{ family }

// NewMAP returns a MAP metric. With no options it is TF-Ranking's MAP.
func NewMAP(opts ...Setting) (*MAP, error) { return newMetric[MAP](KindMAP, opts) }

// Merge adds the totals and counts of others to m, in order (see
// MeanAveragePrecision.Merge).
func (m *MAP) Merge(others ...*MAP) error { return m.merge(families(others)) }

// MRR is TF-Ranking's MRRMetric: per list, the reciprocal of the rank of
// the first relevant item (label >= 1) within the cutoff, or 0; weighted by
// TF-Ranking's list weights over binary relevance, as MAP is. A cutoff of 0
// gives -Inf, as TF's maximum over no position does.
type MRR struct{ family }

// NewMRR returns an MRR metric, named mrr_metric unless named otherwise.
func NewMRR(opts ...Setting) (*MRR, error) { return newMetric[MRR](KindMRR, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *MRR) Merge(others ...*MRR) error { return m.merge(families(others)) }

// Hits is TF-Ranking's HitsMetric: per list, 1 when a relevant item is
// ranked within the cutoff and 0 otherwise; weighted as MAP is. A cutoff of
// 0 gives -Inf, as in TF.
type Hits struct{ family }

// NewHits returns a Hits metric, named hits_metric unless named otherwise.
func NewHits(opts ...Setting) (*Hits, error) { return newMetric[Hits](KindHits, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *Hits) Merge(others ...*Hits) error { return m.merge(families(others)) }

// ARP is TF-Ranking's ARPMetric, average relevance position: per list,
// Σ rank·weight·label / Σ weight·label over the whole ranked list, with
// graded labels; the list weight is Σ weight·label. It takes no cutoff.
type ARP struct{ family }

// NewARP returns an ARP metric, named arp_metric unless named otherwise.
func NewARP(opts ...Setting) (*ARP, error) { return newMetric[ARP](KindARP, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *ARP) Merge(others ...*ARP) error { return m.merge(families(others)) }

// Precision is TF-Ranking's PrecisionMetric: per list, the number of
// relevant items within the cutoff divided by min(topn, valid items), topn
// being the list's padded length when there is no cutoff; weighted as MAP
// is.
type Precision struct{ family }

// NewPrecision returns a Precision metric, named precision_metric unless
// named otherwise.
func NewPrecision(opts ...Setting) (*Precision, error) {
	return newMetric[Precision](KindPrecision, opts)
}

// Merge adds the totals and counts of others to m, in order.
func (m *Precision) Merge(others ...*Precision) error { return m.merge(families(others)) }

// Recall is TF-Ranking's RecallMetric: per list, the number of relevant
// items within the cutoff divided by the number of valid relevant items;
// weighted as MAP is.
type Recall struct{ family }

// NewRecall returns a Recall metric, named recall_metric unless named
// otherwise.
func NewRecall(opts ...Setting) (*Recall, error) { return newMetric[Recall](KindRecall, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *Recall) Merge(others ...*Recall) error { return m.merge(families(others)) }

// NDCG is TF-Ranking's NDCGMetric: per list, DCG / ideal DCG, where DCG =
// Σ weight·gain(label)·discount(rank) over the cutoff and the ideal order
// sorts the items by weight·gain. The list weight is Σ weight·gain /
// Σ gain, TF's list weight with the gains as relevance.
type NDCG struct{ family }

// NewNDCG returns an NDCG metric, named ndcg_metric unless named
// otherwise; WithGain and WithDiscount change its functions.
func NewNDCG(opts ...Setting) (*NDCG, error) { return newMetric[NDCG](KindNDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *NDCG) Merge(others ...*NDCG) error { return m.merge(families(others)) }

// DCG is TF-Ranking's DCGMetric: per list, DCG divided by the list weight
// of NDCG, so that the weighted mean is Σ DCG / Σ list weight.
type DCG struct{ family }

// NewDCG returns a DCG metric, named dcg_metric unless named otherwise;
// WithGain and WithDiscount change its functions.
func NewDCG(opts ...Setting) (*DCG, error) { return newMetric[DCG](KindDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *DCG) Merge(others ...*DCG) error { return m.merge(families(others)) }

// OPA is TF-Ranking's OPAMetric, ordered pair accuracy: per list, over the
// pairs of valid items i, j with label_i > label_j, the weight of item i
// summed where score_i > score_j, divided by that weight summed over every
// such pair, which is the list weight. Equal scores count as wrong, so it
// does not depend on the tie policy. It takes no cutoff.
//
// Lists of up to 2048 slots sum the L² pair terms in TF's order, as TF's
// float32 does; longer lists count the pairs in O(L log L) and round the
// exact sums once (0.1 s for 100,000 items, where the pair loop takes tens
// of seconds), which equals any summation order when the weights are
// integers.
type OPA struct{ family }

// NewOPA returns an OPA metric, named opa_metric unless named otherwise.
func NewOPA(opts ...Setting) (*OPA, error) { return newMetric[OPA](KindOPA, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *OPA) Merge(others ...*OPA) error { return m.merge(families(others)) }

// PrecisionIA is TF-Ranking's PrecisionIAMetric, intent-aware precision,
// over labels with T subtopics per item (shape [B, L*T], WithSubtopics(T)):
// per list, the number of (item, subtopic) labels >= 1 of the items within
// the cutoff, divided by min(topn, valid items) times the number of
// subtopics some item covers. An item is valid when one of its labels is
// >= 0, whatever its weight; it is relevant, for the list weight, when one
// is >= 1.
type PrecisionIA struct{ family }

// NewPrecisionIA returns a PrecisionIA metric, named precision_ia_metric
// unless named otherwise. WithSubtopics is required.
func NewPrecisionIA(opts ...Setting) (*PrecisionIA, error) {
	return newMetric[PrecisionIA](KindPrecisionIA, opts)
}

// Merge adds the totals and counts of others to m, in order.
func (m *PrecisionIA) Merge(others ...*PrecisionIA) error { return m.merge(families(others)) }

// AlphaDCG is TF-Ranking's AlphaDCGMetric over labels with T subtopics per
// item (shape [B, L*T], WithSubtopics(T)): per list, Σ over the ranks k
// within the cutoff of weight·discount(k)·Σ_t y_t·(1-alpha)^c_t, c_t the sum
// of subtopic t's labels over the items ranked before k, divided by the list
// weight, as DCG is. Validity and relevance are PrecisionIA's. Its tie
// expectation has no closed form, so it does not take Expected. In float32
// it is TF's bit for bit with the default alpha 0.5; with another alpha a
// power (1-alpha)^c may differ from TF's vectorised pow by an ulp.
type AlphaDCG struct{ family }

// NewAlphaDCG returns an AlphaDCG metric, named alpha_dcg_metric unless
// named otherwise, with alpha 0.5 unless WithAlpha says otherwise.
// WithSubtopics is required.
func NewAlphaDCG(opts ...Setting) (*AlphaDCG, error) { return newMetric[AlphaDCG](KindAlphaDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *AlphaDCG) Merge(others ...*AlphaDCG) error { return m.merge(families(others)) }

var (
	_ FamilyMetric = (*PrecisionIA)(nil)
	_ FamilyMetric = (*AlphaDCG)(nil)
	_ FamilyMetric = (*MAP)(nil)
	_ FamilyMetric = (*MRR)(nil)
	_ FamilyMetric = (*Hits)(nil)
	_ FamilyMetric = (*ARP)(nil)
	_ FamilyMetric = (*Precision)(nil)
	_ FamilyMetric = (*Recall)(nil)
	_ FamilyMetric = (*NDCG)(nil)
	_ FamilyMetric = (*DCG)(nil)
	_ FamilyMetric = (*OPA)(nil)
)
