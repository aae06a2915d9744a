package metric

// RPrecision is torchmetrics' RetrievalRPrecision, a metric of
// ProfileTorchmetrics alone: per query, the relevant items among the first
// R, R the number of relevant items, over R.
type RPrecision struct{ family }

// NewRPrecision returns an RPrecision metric of the torchmetrics profile,
// named rprecision_metric unless named otherwise.
func NewRPrecision(opts ...Option) (*RPrecision, error) {
	return newMetric[RPrecision](KindRPrecision, append([]Option{WithProfile(ProfileTorchmetrics)}, opts...))
}

// Merge adds the totals and counts of others to m, in order.
func (m *RPrecision) Merge(others ...*RPrecision) error { return mergeInto(m, others) }

// FallOut is torchmetrics' RetrievalFallOut, a metric of
// ProfileTorchmetrics alone: per query, the non-relevant items within the
// cutoff over every non-relevant item; a query without non-relevant items
// is the empty one.
type FallOut struct{ family }

// NewFallOut returns a FallOut metric of the torchmetrics profile, named
// fallout_metric unless named otherwise.
func NewFallOut(opts ...Option) (*FallOut, error) {
	return newMetric[FallOut](KindFallOut, append([]Option{WithProfile(ProfileTorchmetrics)}, opts...))
}

// Merge adds the totals and counts of others to m, in order.
func (m *FallOut) Merge(others ...*FallOut) error { return mergeInto(m, others) }

var (
	_ Metric = (*RPrecision)(nil)
	_ Metric = (*FallOut)(nil)
)
