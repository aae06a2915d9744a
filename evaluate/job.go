package evaluate

import (
	"fmt"
	"math"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// Batch is one update of a Plan: queries packed as ragged (or dense)
// lists and, once computed, their values and list weights per measure.
// Make it with Plan.NewBatch, fill it with Add, evaluate it with Compute
// and add it up with Totals.Add; Reset empties it for the next update,
// keeping its buffers and metrics, so that a steady state allocates
// nothing. A Batch is not safe for concurrent use.
type Batch struct {
	p      *Plan
	idx    int
	qids   []string
	splits []int
	lab32  []float32
	sc32   []float32
	w32    []float32
	lab64  []float64
	sc64   []float64
	w64    []float64
	hasW   bool
	// unranked holds per list the number of judged relevant documents
	// the run did not rank (TREC), and anyUnranked whether any is > 0.
	unranked    []int
	anyUnranked bool
	items       int
	// placeholders counts the items added for lists without any.
	placeholders int

	// Results, one entry per measure of the plan (all), and per measure
	// the caller reports (per: Options.Measures, without the curve's). The
	// metrics in ms live as long as the batch: each update resets and
	// reseeds them.
	all []metric.PerList
	per []metric.PerList
	ms  batchMetrics
	err error

	// unrLab holds the labels of the judged documents the run missed, list
	// after list, with unrSplits (len = lists + 1), when a family measure
	// takes them as weight-0 items; ext* are the buffers of those lists.
	unrLab    []float64
	unrSplits []int
	extSplits []int
	extLab32  []float32
	extSc32   []float32
	extW32    []float32
	extLab64  []float64
	extSc64   []float64
	extW64    []float64

	// trec holds the queries and values of the trec_eval measures.
	trec *trecBatch
	// irm holds the queries and values of ir_measures' provider measures.
	irm *irmBatch
}

// Reset empties b for the next update.
func (b *Batch) Reset() { b.reset(0) }

func (j *Batch) reset(idx int) {
	j.idx = idx
	j.qids = j.qids[:0]
	j.splits = append(j.splits[:0], 0)
	j.lab32, j.sc32, j.w32 = j.lab32[:0], j.sc32[:0], j.w32[:0]
	j.lab64, j.sc64, j.w64 = j.lab64[:0], j.sc64[:0], j.w64[:0]
	j.unranked = j.unranked[:0]
	j.anyUnranked = false
	j.unrLab = j.unrLab[:0]
	j.unrSplits = append(j.unrSplits[:0], 0)
	j.items = 0
	j.placeholders = 0
	j.err = nil
}

// add appends one query; ext keeps the labels of its judged documents the
// run missed. It returns an error for a non-finite weight, which the
// metric would reject without naming the query.
func (j *Batch) add(q *runio.Query, f64, ext bool) error {
	j.qids = append(j.qids, q.QID)
	j.hasW = q.Weights != nil
	for i, w := range q.Weights {
		if math.IsInf(w, 0) {
			return fmt.Errorf("query %q (line %d): item %d: weight %v is not finite", q.QID, q.Line, i+1, w)
		}
	}
	unr := 0
	for _, l := range q.UnrankedLabels {
		if l >= 1 {
			unr++
		}
	}
	j.unranked = append(j.unranked, unr)
	if ext {
		j.unrLab = append(j.unrLab, q.UnrankedLabels...)
		j.unrSplits = append(j.unrSplits, len(j.unrLab))
	}
	if unr > 0 {
		j.anyUnranked = true
	}
	if len(q.Scores) == 0 {
		// A judged query the run misses (kept with QrelsOnly Keep) has
		// no item. An empty list would weigh 0 in an update of empty lists
		// (no slot carries a weight), so it gets one non-relevant
		// placeholder item instead: AP 0, and the list weight of a list
		// without relevant items, whatever the update holds.
		if f64 {
			j.lab64, j.sc64 = append(j.lab64, 0), append(j.sc64, 0)
		} else {
			j.lab32, j.sc32 = append(j.lab32, 0), append(j.sc32, 0)
		}
		j.items++
		j.placeholders++
		j.splits = append(j.splits, j.items)
		return nil
	}
	if f64 {
		j.lab64 = append(j.lab64, q.Labels...)
		j.sc64 = append(j.sc64, q.Scores...)
		j.w64 = append(j.w64, q.Weights...)
	} else {
		for i := range q.Scores {
			j.lab32 = append(j.lab32, float32(q.Labels[i]))
			j.sc32 = append(j.sc32, float32(q.Scores[i]))
		}
		for _, w := range q.Weights {
			j.w32 = append(j.w32, float32(w))
		}
	}
	j.items += len(q.Scores)
	j.splits = append(j.splits, j.items)
	return nil
}

// tensors returns the batch as lists for the metric: ragged as read, or
// padded into dense rows (label -1, weight 0) when ragged is false.
func (j *Batch) tensors(ragged, f64 bool) (labels, preds tensor.Lists, w tensor.Weights, err error) {
	if ragged {
		if f64 {
			return raggedLists(j.lab64, j.sc64, j.w64, j.splits, j.hasW)
		}
		return raggedLists(j.lab32, j.sc32, j.w32, j.splits, j.hasW)
	}
	if f64 {
		return denseLists(j.lab64, j.sc64, j.w64, j.splits, j.hasW)
	}
	return denseLists(j.lab32, j.sc32, j.w32, j.splits, j.hasW)
}

func raggedLists[T float32 | float64](lab, sc, w []T, splits []int, hasW bool) (labels, preds tensor.Lists, ws tensor.Weights, err error) {
	if labels, err = tensor.Ragged(lab, splits); err != nil {
		return
	}
	if preds, err = tensor.Ragged(sc, splits); err != nil {
		return
	}
	if hasW {
		var wl tensor.Lists
		if wl, err = tensor.Ragged(w, splits); err != nil {
			return
		}
		ws = tensor.PerItem(wl)
	}
	return
}

func denseLists[T float32 | float64](lab, sc, w []T, splits []int, hasW bool) (labels, preds tensor.Lists, ws tensor.Weights, err error) {
	rows, width := len(splits)-1, 0
	for b := range rows {
		width = max(width, splits[b+1]-splits[b])
	}
	pad := func(src []T, fill T) []T {
		out := make([]T, rows*width)
		for b := range rows {
			row := out[b*width : (b+1)*width]
			n := copy(row, src[splits[b]:splits[b+1]])
			for i := n; i < width; i++ {
				row[i] = fill
			}
		}
		return out
	}
	if labels, err = tensor.Dense(pad(lab, -1), rows, width); err != nil {
		return
	}
	if preds, err = tensor.Dense(pad(sc, 0), rows, width); err != nil {
		return
	}
	if hasW {
		var wl tensor.Lists
		if wl, err = tensor.Dense(pad(w, 0), rows, width); err != nil {
			return
		}
		ws = tensor.PerItem(wl)
	}
	return
}

// extTensors returns the batch with, after the ranked items of each list
// (weight 1, or their own weight), the judged documents the run missed as
// items of weight 0 scored below every ranked item of the list: the
// family's TrecEval convention counts them in the AP denominator and
// ranks them nowhere.
func (j *Batch) extTensors(ragged, f64 bool) (labels, preds tensor.Lists, w tensor.Weights, err error) {
	j.extSplits = append(j.extSplits[:0], 0)
	if f64 {
		j.extLab64, j.extSc64, j.extW64 = extend(j, j.lab64, j.sc64, j.w64, j.extLab64[:0], j.extSc64[:0], j.extW64[:0])
	} else {
		j.extLab32, j.extSc32, j.extW32 = extend(j, j.lab32, j.sc32, j.w32, j.extLab32[:0], j.extSc32[:0], j.extW32[:0])
	}
	switch {
	case ragged && f64:
		return raggedLists(j.extLab64, j.extSc64, j.extW64, j.extSplits, true)
	case ragged:
		return raggedLists(j.extLab32, j.extSc32, j.extW32, j.extSplits, true)
	case f64:
		return denseLists(j.extLab64, j.extSc64, j.extW64, j.extSplits, true)
	}
	return denseLists(j.extLab32, j.extSc32, j.extW32, j.extSplits, true)
}

// extend appends to lab, sc and w the lists of j with their missed judged
// documents, and their ends to j.extSplits.
func extend[T float32 | float64](j *Batch, jl, js, jw []T, lab, sc, w []T) ([]T, []T, []T) {
	for b := range len(j.splits) - 1 {
		lo, hi := j.splits[b], j.splits[b+1]
		lab = append(lab, jl[lo:hi]...)
		sc = append(sc, js[lo:hi]...)
		low := T(0)
		for i := lo; i < hi; i++ {
			if i == lo || js[i] < low {
				low = js[i]
			}
			if j.hasW && i < len(jw) {
				w = append(w, jw[i])
			} else {
				w = append(w, 1)
			}
		}
		if below := low - 1; below < low {
			low = below
		}
		for _, l := range j.unrLab[j.unrSplits[b]:j.unrSplits[b+1]] {
			lab, sc, w = append(lab, T(l)), append(sc, low), append(w, 0)
		}
		j.extSplits = append(j.extSplits, len(lab))
	}
	return lab, sc, w
}

// batchSeed derives the tie-break seed of update idx (SplitMix64).
func batchSeed(seed uint64, idx int) uint64 {
	z := seed + uint64(idx+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
