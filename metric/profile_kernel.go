package metric

import (
	"github.com/rankmetrics/rankmetrics/tensor"
)

// The keras-rs and torchmetrics profiles. Their kernels, generated from one
// template for float32 and float64 (gen/profile.tmpl, profile_float32.go
// and profile_float64.go), follow what each library defines, in the
// metric's dtype:
//
//   - torchmetrics (CPU torch): per query; sums as torch's CPU sum kernel
//     adds (torchSum, profile_torch.go); the discounts of NDCG as torch's
//     log2 (correctly rounded) and cumsum (in float64, rounded per entry).
//     torchmetrics casts its inputs to float32 and has no float64
//     arithmetic: the float64 kernel is its definitions in float64.
//   - keras-rs (JAX on CPU, XLA): per list; row sums and the batch sums in
//     XLA's order (xlaSum, profile_xla.go: up to 32 values in index order,
//     longer dimensions in windows of 32); the discount with XLA's float32
//     log (xlaLog32) or, in float64, the C library's (lnRounded).
//
// This file chooses the dtype's kernel.

// profileWS holds a profile workspace of each dtype.
type profileWS struct {
	// draws counts the draws of keras-rs' seed generator since the last
	// Reset: each update draws once per sort (NDCG twice).
	draws uint32
	ws32  profWSFloat32
	ws64  profWSFloat64
}

// profileBatch computes every metric of the plan on one batch under the
// profile of the family's configurations, into the outputs of the dtype's
// workspace. The caller holds f.mu.
func (f *family) profileBatch(labels, predictions tensor.Lists, weights tensor.Weights) error {
	var err error
	if f.sets[0].DType == Float64 {
		err = f.prof.ws64.run(&f.ws64, f.sets, labels, predictions, weights, f.rng, f.prof.draws)
	} else {
		err = f.prof.ws32.run(&f.ws32, f.sets, labels, predictions, weights, f.rng, f.prof.draws)
	}
	if err == nil && f.sets[0].Profile == ProfileKerasRS {
		f.prof.draws += kerasDraws(f.sets[0].Kind)
	}
	return err
}

// addQueries adds metric j's queries of the last batch to its totals as
// torchmetrics' mean takes them.
func (f *family) addQueries(a *meanAcc, j, bsz int, exactly bool) {
	if f.sets[0].DType == Float64 {
		f.prof.ws64.addQueries(a, &f.ws64.out[j], bsz, exactly)
		return
	}
	f.prof.ws32.addQueries(a, &f.ws32.out[j], bsz, exactly)
}

// addKeras adds metric j's lists of the last batch to its totals as the
// Keras Mean of keras-rs does.
func (f *family) addKeras(a *meanAcc, j, bsz int, exactly bool) {
	if f.sets[0].DType == Float64 {
		f.prof.ws64.addKeras(a, &f.ws64.out[j], bsz, exactly)
		return
	}
	f.prof.ws32.addKeras(a, &f.ws32.out[j], bsz, exactly)
}

// sortedIdx returns the item indexes of group in increasing order, in
// place (the group is reordered, which leaves its scores equal).
func sortedIdx(group []int) []int {
	for i := 1; i < len(group); i++ {
		v := group[i]
		j := i - 1
		for j >= 0 && group[j] > v {
			group[j+1] = group[j]
			j--
		}
		group[j+1] = v
	}
	return group
}

// kerasDraws is the number of draws of keras-rs' seed generator an update
// of a metric of kind k makes: one per sort, and NDCG sorts twice (the
// second time for the ideal order, whose value ties do not change).
func kerasDraws(k Kind) uint32 {
	if k == KindNDCG {
		return 2
	}
	return 1
}
