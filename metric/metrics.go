package metric

import "fmt"

// newMetric makes a metric of kind k with opts.
func newMetric[T any, M interface {
	*T
	fam() *family
}](k Kind, opts []Option) (M, error) {
	c, err := newConfig(k, opts)
	if err != nil {
		return nil, err
	}
	return fromConfig[T, M](c)
}

// mergeInto is the Merge of every metric type: m.Merge(others...), with an
// error for a nil m.
func mergeInto[T any, M interface {
	*T
	fam() *family
}](m M, others []M) error {
	if m == nil {
		return fmt.Errorf("metric: Merge: the receiver is nil: %w", ErrConfig)
	}
	return m.fam().merge(families(others))
}

// fromConfig makes a metric of configuration c.
func fromConfig[T any, M interface {
	*T
	fam() *family
}](c Config) (M, error) {
	m := M(new(T))
	if err := m.fam().init([]Config{c}); err != nil {
		return nil, err
	}
	return m, nil
}

// New returns the metric of kind c.Kind with configuration c, of the
// metric's own type (*MeanAveragePrecision for KindMAP, *NDCG for KindNDCG
// and so on): it is the way back from a Config, from Metric.Config or read
// from JSON, to a metric.
func New(c Config) (Metric, error) {
	switch c.Kind {
	case KindMAP:
		return fromConfig[MeanAveragePrecision](c)
	case KindMRR:
		return fromConfig[MRR](c)
	case KindHits:
		return fromConfig[Hits](c)
	case KindARP:
		return fromConfig[ARP](c)
	case KindPrecision:
		return fromConfig[Precision](c)
	case KindRecall:
		return fromConfig[Recall](c)
	case KindNDCG:
		return fromConfig[NDCG](c)
	case KindDCG:
		return fromConfig[DCG](c)
	case KindOPA:
		return fromConfig[OPA](c)
	case KindPrecisionIA:
		return fromConfig[PrecisionIA](c)
	case KindAlphaDCG:
		return fromConfig[AlphaDCG](c)
	case KindRPrecision:
		return fromConfig[RPrecision](c)
	case KindFallOut:
		return fromConfig[FallOut](c)
	}
	return nil, fmt.Errorf("metric: unknown metric kind %d: %w", int(c.Kind), ErrConfig)
}

// MRR is TF-Ranking's MRRMetric: per list, the reciprocal of the rank of
// the first relevant item (label >= 1) within the cutoff, or 0; weighted by
// TF-Ranking's list weights over binary relevance, as MAP is. A cutoff of 0
// gives -Inf, as TF's maximum over no position does.
type MRR struct{ family }

// NewMRR returns an MRR metric, named mrr_metric unless named otherwise.
func NewMRR(opts ...Option) (*MRR, error) { return newMetric[MRR](KindMRR, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *MRR) Merge(others ...*MRR) error { return mergeInto(m, others) }

// Hits is TF-Ranking's HitsMetric: per list, 1 when a relevant item is
// ranked within the cutoff and 0 otherwise; weighted as MAP is. A cutoff of
// 0 gives -Inf, as in TF.
type Hits struct{ family }

// NewHits returns a Hits metric, named hits_metric unless named otherwise.
func NewHits(opts ...Option) (*Hits, error) { return newMetric[Hits](KindHits, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *Hits) Merge(others ...*Hits) error { return mergeInto(m, others) }

// ARP is TF-Ranking's ARPMetric, average relevance position: per list,
// Σ rank·weight·label / Σ weight·label over the whole ranked list, with
// graded labels; the list weight is Σ weight·label. It takes no cutoff.
type ARP struct{ family }

// NewARP returns an ARP metric, named arp_metric unless named otherwise.
func NewARP(opts ...Option) (*ARP, error) { return newMetric[ARP](KindARP, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *ARP) Merge(others ...*ARP) error { return mergeInto(m, others) }

// Precision is TF-Ranking's PrecisionMetric: per list, the number of
// relevant items within the cutoff divided by min(topn, valid items), topn
// being the list's padded length when there is no cutoff; weighted as MAP
// is.
type Precision struct{ family }

// NewPrecision returns a Precision metric, named precision_metric unless
// named otherwise.
func NewPrecision(opts ...Option) (*Precision, error) {
	return newMetric[Precision](KindPrecision, opts)
}

// Merge adds the totals and counts of others to m, in order.
func (m *Precision) Merge(others ...*Precision) error { return mergeInto(m, others) }

// Recall is TF-Ranking's RecallMetric: per list, the number of relevant
// items within the cutoff divided by the number of valid relevant items;
// weighted as MAP is.
type Recall struct{ family }

// NewRecall returns a Recall metric, named recall_metric unless named
// otherwise.
func NewRecall(opts ...Option) (*Recall, error) { return newMetric[Recall](KindRecall, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *Recall) Merge(others ...*Recall) error { return mergeInto(m, others) }

// NDCG is TF-Ranking's NDCGMetric: per list, DCG / ideal DCG, where DCG =
// Σ weight·gain(label)·discount(rank) over the cutoff and the ideal order
// sorts the items by weight·gain. The list weight is Σ weight·gain /
// Σ gain, TF's list weight with the gains as relevance.
type NDCG struct{ family }

// NewNDCG returns an NDCG metric, named ndcg_metric unless named
// otherwise; WithGain and WithDiscount change its functions.
func NewNDCG(opts ...Option) (*NDCG, error) { return newMetric[NDCG](KindNDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *NDCG) Merge(others ...*NDCG) error { return mergeInto(m, others) }

// DCG is TF-Ranking's DCGMetric: per list, DCG divided by the list weight
// of NDCG, so that the weighted mean is Σ DCG / Σ list weight.
type DCG struct{ family }

// NewDCG returns a DCG metric, named dcg_metric unless named otherwise;
// WithGain and WithDiscount change its functions.
func NewDCG(opts ...Option) (*DCG, error) { return newMetric[DCG](KindDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *DCG) Merge(others ...*DCG) error { return mergeInto(m, others) }

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
func NewOPA(opts ...Option) (*OPA, error) { return newMetric[OPA](KindOPA, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *OPA) Merge(others ...*OPA) error { return mergeInto(m, others) }

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
func NewPrecisionIA(opts ...Option) (*PrecisionIA, error) {
	return newMetric[PrecisionIA](KindPrecisionIA, opts)
}

// Merge adds the totals and counts of others to m, in order.
func (m *PrecisionIA) Merge(others ...*PrecisionIA) error { return mergeInto(m, others) }

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
func NewAlphaDCG(opts ...Option) (*AlphaDCG, error) { return newMetric[AlphaDCG](KindAlphaDCG, opts) }

// Merge adds the totals and counts of others to m, in order.
func (m *AlphaDCG) Merge(others ...*AlphaDCG) error { return mergeInto(m, others) }

var (
	_ Metric = (*PrecisionIA)(nil)
	_ Metric = (*AlphaDCG)(nil)
	_ Metric = (*MeanAveragePrecision)(nil)
	_ Metric = (*MRR)(nil)
	_ Metric = (*Hits)(nil)
	_ Metric = (*ARP)(nil)
	_ Metric = (*Precision)(nil)
	_ Metric = (*Recall)(nil)
	_ Metric = (*NDCG)(nil)
	_ Metric = (*DCG)(nil)
	_ Metric = (*OPA)(nil)
)
