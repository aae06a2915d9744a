package metric

import (
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// opaMaxTerms is the largest number of pairs, L·L, whose weights OPA sums
// in TF's order, in the metric's dtype (where TF parity is checked); longer
// lists form the exact sums in O(L log L) with opaPairSums and round once.
const opaMaxTerms = 1 << 22

// family is the engine of every metric of the family and of Suite: one
// ranking of each list serves each of its metrics. Its methods are safe to
// call from several goroutines.
type family struct {
	mu   sync.Mutex
	sets []Config
	plan famPlan
	pcg  rand.PCG
	rng  *rand.Rand
	ws32 famFloat32
	// prof is the scratch of the keras-rs and torchmetrics profiles.
	prof profileWS
	ws64 famFloat64
	// mapOnly is set for a plan of one MAP of the TFRanking convention
	// whose empty lists score 0, TF-Ranking's MeanAveragePrecisionMetric:
	// the kernels' MAP specialisation (mapBatch) ranks only its relevant
	// items, and also takes unranked relevant items.
	mapOnly bool
	// unr holds the indexes of the metrics that count unranked relevant
	// items: each MAP of the TFRanking convention whose empty lists score 0.
	unr []int
	acc []meanAcc
}

// init configures f for sets, which must be able to share a ranking.
func (f *family) init(sets []Config) error {
	p, err := newPlan(sets)
	if err != nil {
		return err
	}
	f.sets, f.plan = sets, p
	s := &sets[0]
	f.mapOnly = len(sets) == 1 && countsUnranked(s)
	f.unr = f.unr[:0]
	for j := range sets {
		if countsUnranked(&sets[j]) {
			f.unr = append(f.unr, j)
		}
	}
	f.acc = make([]meanAcc, len(sets))
	f.rng = rand.New(&f.pcg)
	f.Reset()
	return nil
}

func (f *family) fam() *family { return f }

// unset returns an error when f is the zero value of a metric, which has no
// configuration: its methods that return an error return this one, the
// others report an empty metric (Name "", Result 0).
func (f *family) unset() error {
	if len(f.sets) == 0 {
		return fmt.Errorf("metric: the zero value of a metric has no configuration; make it with its New function (NewMeanAveragePrecision, NewNDCG, ...), New(Config) or NewSuite: %w", ErrConfig)
	}
	return nil
}

// Name returns the metric's name.
func (f *family) Name() string {
	if len(f.sets) == 0 {
		return ""
	}
	return f.sets[0].Name
}

// Config returns the metric's configuration.
func (f *family) Config() Config {
	if len(f.sets) == 0 {
		return Config{}
	}
	return f.sets[0]
}

// Reset sets every total and count to 0 and restarts the tie-break
// generator from the seed, so a reset metric repeats its results.
func (f *family) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.acc {
		f.acc[i].reset()
	}
	if len(f.sets) > 0 {
		f.pcg.Seed(f.sets[0].Seed, 0)
	}
	f.prof.draws = 0
}

// Reseed restarts the tie-break generator from seed, which becomes the
// metric's seed; the totals are kept.
func (f *family) Reseed(seed uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.sets {
		f.sets[i].Seed = seed
	}
	f.pcg.Seed(seed, 0)
	f.prof.draws = 0
}

// check returns an error when the inputs do not fit each other or the
// metric.
func (f *family) check(labels, predictions tensor.Lists, weights tensor.Weights) error {
	s := &f.sets[0]
	if f.plan.div {
		if err := checkSubtopics(labels, predictions, f.plan.subtopics); err != nil {
			return err
		}
	} else if err := labels.SameShape(predictions, "labels", "predictions"); err != nil {
		return err
	}
	if err := weights.Check(predictions); err != nil {
		return err
	}
	if labels.IsRagged() != s.Ragged {
		if s.Ragged {
			return fmt.Errorf("metric: %s is ragged but labels have dense shape %s; pass ragged lists or make the metric dense: %w",
				s.Name, labels.Shape(), tensor.ErrShape)
		}
		return fmt.Errorf("metric: %s is dense but labels are %s; pass dense lists or use WithRagged(true): %w",
			s.Name, labels.Shape(), tensor.ErrShape)
	}
	if labels.Width() > maxItems {
		return fmt.Errorf("metric: lists of %d items are longer than the %d a kernel takes: %w", labels.Width(), maxItems, tensor.ErrShape)
	}
	if weights.Kind() != tensor.ItemWeights {
		return nil
	}
	for i := range f.sets {
		if f.sets[i].Kind == KindMAP && f.sets[i].Convention != TFRanking {
			return checkUnitWeights(&f.sets[i], weights.Values())
		}
	}
	return nil
}

// checkUnitWeights returns an error unless every item weight is 0 (judged,
// not retrieved) or 1 (retrieved), as the conventions other than
// TFRanking take them.
func checkUnitWeights(s *Config, w tensor.Lists) error {
	for b := range w.Len() {
		for i := range w.RowLen(b) {
			if x := w.At(b, i); x != 0 && x != 1 {
				return fmt.Errorf("metric: weights[%d][%d] is %v; under the %s convention of %s an item weight is 1 (retrieved) or 0 (judged, not retrieved): %w",
					b, i, x, s.Convention, s.Name, ErrInput)
			}
		}
	}
	return nil
}

// countsUnranked reports whether the metric of s counts unranked relevant
// items: MAP of the TFRanking convention whose empty lists score 0.
func countsUnranked(s *Config) bool {
	return s.Kind == KindMAP && s.Convention == TFRanking && s.Profile == ProfileTFRanking && s.Empty.resolve(s.Convention) == EmptyZero
}

// checkUnranked returns an error when unranked does not fit the batch of
// bsz lists or the metric.
func (f *family) checkUnranked(unranked []int, bsz int, weights tensor.Weights) error {
	if len(f.unr) == 0 {
		return fmt.Errorf("metric: %s: unranked relevant items are counted by MAP of the tfranking convention alone: %w", f.sets[0].Name, ErrConfig)
	}
	if !f.mapOnly && f.sets[0].Ties == Random {
		return fmt.Errorf("metric: %s: under random ties only a MAP made alone takes unranked relevant items (the other metrics would not share its draws): %w", f.sets[0].Name, ErrConfig)
	}
	if len(unranked) != bsz {
		return fmt.Errorf("metric: unranked has %d counts but labels have %d lists: %w", len(unranked), bsz, tensor.ErrShape)
	}
	if weights.Kind() == tensor.ItemWeights {
		return fmt.Errorf("metric: unranked relevant items take the list's weight, so they need no weights or per-list weights, not per-item weights: %w", ErrInput)
	}
	for b, u := range unranked {
		if u < 0 {
			return fmt.Errorf("metric: unranked[%d] is %d; a count of items must be >= 0: %w", b, u, ErrInput)
		}
	}
	return nil
}

// compute runs the kernel of the metric's plan and dtype on one batch,
// leaving the per-list values in the workspace. unranked, when not nil,
// holds each list's number of unranked relevant items. It leaves the
// tie-break generator as it was when it fails. The caller holds f.mu.
func (f *family) compute(labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	if err := f.unset(); err != nil {
		return err
	}
	if err := f.check(labels, predictions, weights); err != nil {
		return err
	}
	if unranked != nil {
		if err := f.checkUnranked(unranked, labels.Len(), weights); err != nil {
			return err
		}
	}
	saved := f.pcg
	var err error
	s := &f.sets[0]
	switch {
	case s.Profile != ProfileTFRanking:
		err = f.profileBatch(labels, predictions, weights)
	case f.mapOnly && s.DType == Float64:
		err = f.ws64.mapBatch(labels, predictions, weights, unranked, &f.plan, f.rng)
	case f.mapOnly:
		err = f.ws32.mapBatch(labels, predictions, weights, unranked, &f.plan, f.rng)
	case f.plan.div && s.DType == Float64:
		err = f.ws64.divBatch(labels, predictions, weights, &f.plan, f.rng)
	case f.plan.div:
		err = f.ws32.divBatch(labels, predictions, weights, &f.plan, f.rng)
	case s.DType == Float64:
		err = f.ws64.batch(labels, predictions, weights, &f.plan, f.rng)
		if err == nil && unranked != nil {
			err = f.ws64.unrankedMAP(f.unr, labels, predictions, weights, unranked, &f.plan)
		}
	default:
		err = f.ws32.batch(labels, predictions, weights, &f.plan, f.rng)
		if err == nil && unranked != nil {
			err = f.ws32.unrankedMAP(f.unr, labels, predictions, weights, unranked, &f.plan)
		}
	}
	if err != nil {
		f.pcg = saved
	}
	return err
}

// accumulate adds the last batch of bsz lists to every metric's totals.
// It returns an error, and adds nothing, when a bounded metric (MAP, whose
// states must be finite with a total at most the count) would get a
// non-finite list term, a value above 1 (float32 sums of millions of item
// weights can round AP up), or, under Sequential accumulation, totals
// that overflow the dtype or whose rounding puts the total above the
// count, so that every state an Update leaves is one SetState and Merge
// take. The caller holds f.mu.
func (f *family) accumulate(bsz int) error {
	exactly := f.sets[0].accumulation() == Exact
	f64 := f.sets[0].DType == Float64
	for j := range f.acc {
		if !f.sets[j].bounded() {
			continue
		}
		for b := range bsz {
			var val, v, lw float64
			if f64 {
				val, v, lw = f.ws64.out[j].val[b], f.ws64.out[j].v[b], f.ws64.out[j].lw[b]
			} else {
				val, v, lw = float64(f.ws32.out[j].val[b]), float64(f.ws32.out[j].v[b]), float64(f.ws32.out[j].lw[b])
			}
			switch {
			case notFinite(v) || notFinite(lw):
				return fmt.Errorf("metric: %s: list %d weighs %v: the sum of its weights overflows %s; scale the weights down: %w",
					f.sets[j].Name, b, lw, f.sets[0].DType, ErrInput)
			case val > 1+boundSlack/2:
				return fmt.Errorf("metric: %s: list %d has the value %v, above 1: %s sums its item weights with too little precision (list weight %v); use float64 (WithDType(Float64), --dtype float64): %w",
					f.sets[j].Name, b, val, f.sets[0].DType, lw, ErrInput)
			}
		}
	}
	for j := range f.acc {
		a := &f.acc[j]
		a.save()
		switch {
		case f.sets[0].Profile == ProfileTorchmetrics:
			f.addQueries(a, j, bsz, exactly)
		case f.sets[0].Profile == ProfileKerasRS:
			f.addKeras(a, j, bsz, exactly)
		case f64:
			o := &f.ws64.out[j]
			a.add64(o.v[:bsz], o.lw[:bsz], exactly)
		default:
			o := &f.ws32.out[j]
			a.add32(o.v[:bsz], o.lw[:bsz], exactly)
		}
	}
	if exactly {
		return nil
	}
	for j := range f.acc {
		if !f.sets[j].bounded() {
			continue
		}
		t, c := f.acc[j].sums(f.sets[0].DType)
		if err := checkBounded(t, c); err != nil {
			for k := range f.acc {
				f.acc[k].restore()
			}
			if notFinite(t) || notFinite(c) {
				return fmt.Errorf("metric: %s: the sum of the list weights of this batch of %d lists overflows %s (total %v, count %v); "+
					"scale the weights down, or accumulate exactly (WithAccumulation(Exact), eval --accumulation exact): %w",
					f.sets[j].Name, bsz, f.sets[0].DType, t, c, ErrInput)
			}
			return fmt.Errorf("metric: %s: this batch of %d lists would leave the total above the count (%v, %v): %s sums the list weights with too little precision; "+
				"accumulate exactly (WithAccumulation(Exact), eval --accumulation exact) or use float64: %w",
				f.sets[j].Name, bsz, t, c, f.sets[0].DType, ErrInput)
		}
	}
	return nil
}

// perList copies metric j's per-list values of the last batch of bsz lists
// into dst, when it is not nil. The caller holds f.mu.
func (f *family) perList(j int, dst *PerList, bsz int) {
	if dst == nil {
		return
	}
	dst.Values, dst.Weights = grow(dst.Values, bsz), grow(dst.Weights, bsz)
	if f.sets[0].DType == Float64 {
		o := &f.ws64.out[j]
		copy(dst.Values, o.val[:bsz])
		copy(dst.Weights, o.lw[:bsz])
		return
	}
	o := &f.ws32.out[j]
	for b := range bsz {
		dst.Values[b], dst.Weights[b] = float64(o.val[b]), float64(o.lw[b])
	}
}

// update computes one batch and adds it to the totals; on an error it
// changes nothing, the tie-break generator included. The caller holds
// f.mu.
func (f *family) update(labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	saved := f.pcg
	if err := f.compute(labels, predictions, weights, unranked); err != nil {
		return err
	}
	if err := f.accumulate(labels.Len()); err != nil {
		f.pcg = saved
		return err
	}
	return nil
}

// Update adds one batch: labels and predictions of the same shape, and
// weights that are none, per item or per list. It changes nothing when it
// returns an error.
func (f *family) Update(labels, predictions tensor.Lists, weights tensor.Weights) error {
	return f.UpdatePerList(nil, labels, predictions, weights)
}

// UpdatePerList is Update that also writes the value and list weight of
// every list of the batch into dst, as Compute does, when dst is not nil.
// It reuses the slices of dst when they are large enough.
func (f *family) UpdatePerList(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	return f.UpdateUnranked(dst, labels, predictions, weights, nil)
}

// UpdateUnranked is UpdatePerList for lists some of whose relevant items
// were not ranked at all, as when a TREC run leaves out documents the qrels
// judge relevant. unranked[b] is the number of such items of list b: they
// count in the AP denominator and in the list weight, each with the list's
// weight (1 without weights), and take no rank, as trec_eval counts them.
// With per-item weights, unranked must be nil. Only MAP of the TFRanking
// convention whose empty lists score 0 takes unranked items; TF-Ranking has
// no such items, and a nil unranked is exactly UpdatePerList. (Suite's
// UpdateUnranked serves several metrics.)
func (f *family) UpdateUnranked(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights, unranked []int) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.update(labels, predictions, weights, unranked); err != nil {
		return err
	}
	f.perList(0, dst, labels.Len())
	return nil
}

// Compute returns the value and the list weight of every list of one
// batch, as TF-Ranking's compute() does, without adding the batch to the
// metric. Under the Random tie policy it draws from the same generator as
// Update.
func (f *family) Compute(labels, predictions tensor.Lists, weights tensor.Weights) (PerList, error) {
	var out PerList
	err := f.ComputeInto(&out, labels, predictions, weights)
	return out, err
}

// ComputeInto is Compute writing into dst, whose slices it reuses when they
// are large enough.
func (f *family) ComputeInto(dst *PerList, labels, predictions tensor.Lists, weights tensor.Weights) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.compute(labels, predictions, weights, nil); err != nil {
		return err
	}
	f.perList(0, dst, labels.Len())
	return nil
}

// result returns metric j's weighted mean. The caller holds f.mu.
func (f *family) result(j int) float64 {
	return f.acc[j].result(f.sets[0].DType, f.sets[0].accumulation() == Exact, f.sets[j].Kind == KindMAP)
}

// Result returns the weighted mean of the per-list values over every batch
// since the last Reset: total / count, or 0 when count is 0 (TF's
// divide_no_nan), in the metric's dtype; with Exact accumulation the exact
// quotient of the exact sums, rounded once to the metric's dtype.
func (f *family) Result() float64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sets) == 0 {
		return 0
	}
	return f.result(0)
}

// checkSubtopics returns an error unless labels hold t subtopic labels for
// each item of predictions: shape [B, L*T] against [B, L], with the same
// raggedness and row lengths in that ratio.
func checkSubtopics(labels, predictions tensor.Lists, t int) error {
	if labels.Len() != predictions.Len() || labels.IsRagged() != predictions.IsRagged() ||
		!labels.IsRagged() && labels.Width() != t*predictions.Width() {
		return fmt.Errorf("metric: labels have shape %s but predictions %s; labels with %d subtopics need shape [B, L*%d]: %w",
			labels.Shape(), predictions.Shape(), t, t, tensor.ErrShape)
	}
	for b := range labels.Len() {
		if labels.RowLen(b) != t*predictions.RowLen(b) {
			return fmt.Errorf("metric: row %d of labels has %d values but row %d of predictions has %d items of %d subtopics: %w",
				b, labels.RowLen(b), b, predictions.RowLen(b), t, tensor.ErrShape)
		}
	}
	return nil
}
