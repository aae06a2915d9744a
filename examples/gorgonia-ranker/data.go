package main

import (
	"fmt"
	"math"

	gt "gorgonia.org/tensor"

	"github.com/rankmetrics/rankmetrics/internal/ltrdata"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// padLabel is the label of padded slots. The metric never sees it (the
// batch's Lengths remove the padding); it only has to be a valid number.
const padLabel = 0

// padPenalty is added to the score of padded slots before the softmax, so
// they take no probability mass.
const padPenalty = -1e4

// standardizer maps raw features to z-scores with the training set's
// statistics.
type standardizer struct {
	mean, scale []float64
}

func newStandardizer(d *ltrdata.Dataset) standardizer {
	n := d.NumFeatures
	s := standardizer{mean: make([]float64, n), scale: make([]float64, n)}
	count := 0.0
	for _, q := range d.Queries {
		for i := range q.Len() {
			count++
			for j, v := range q.Doc(i, n) {
				// Welford's update of the running mean and squared deviation.
				delta := v - s.mean[j]
				s.mean[j] += delta / count
				s.scale[j] += delta * (v - s.mean[j])
			}
		}
	}
	for j := range s.scale {
		sd := math.Sqrt(s.scale[j] / math.Max(count, 1))
		if sd == 0 || math.IsNaN(sd) {
			sd = 1 // a constant feature: only centre it
		}
		s.scale[j] = 1 / sd
	}
	return s
}

// batcher fills fixed-shape [lists, docs] batches. Its buffers are reused
// from batch to batch, and the Gorgonia tensors and metric lists view them.
type batcher struct {
	lists, docs, features int
	std                   standardizer

	x, labels, target, penalty []float32
	lengths                    []int

	xT, targetT, penaltyT *gt.Dense
	labelsL               tensor.Lists
}

func newBatcher(lists, docs, features int, std standardizer) (*batcher, error) {
	b := &batcher{lists: lists, docs: docs, features: features, std: std}
	b.x = make([]float32, lists*docs*features)
	b.labels = make([]float32, lists*docs)
	b.target = make([]float32, lists*docs)
	b.penalty = make([]float32, lists*docs)
	b.lengths = make([]int, lists)
	b.xT = gt.New(gt.WithShape(lists*docs, features), gt.WithBacking(b.x))
	b.targetT = gt.New(gt.WithShape(lists, docs), gt.WithBacking(b.target))
	b.penaltyT = gt.New(gt.WithShape(lists, docs), gt.WithBacking(b.penalty))
	var err error
	if b.labelsL, err = tensor.Dense(b.labels, lists, docs); err != nil {
		return nil, fmt.Errorf("label view: %w", err)
	}
	return b, nil
}

// fill loads up to b.lists queries; the remaining rows are dummy lists of
// length 0. It returns the number of lists whose labels have a positive
// sum (the ones the loss learns from).
func (b *batcher) fill(qs []ltrdata.Query) (withGain int) {
	clear(b.x)
	clear(b.target)
	for i := range b.labels {
		b.labels[i] = padLabel
		b.penalty[i] = padPenalty
	}
	for r := range b.lists {
		b.lengths[r] = 0
		if r >= len(qs) {
			continue
		}
		q := &qs[r]
		b.lengths[r] = q.Len()
		gain := 0.0
		for i := range q.Len() {
			gain += math.Max(q.Labels[i], 0)
		}
		if gain > 0 {
			withGain++
		}
		for i := range q.Len() {
			slot := r*b.docs + i
			b.labels[slot] = float32(q.Labels[i])
			b.penalty[slot] = 0
			if gain > 0 {
				b.target[slot] = float32(math.Max(q.Labels[i], 0) / gain)
			}
			row := b.x[slot*b.features : (slot+1)*b.features]
			for j, v := range q.Doc(i, b.features) {
				row[j] = float32((v - b.std.mean[j]) * b.std.scale[j])
			}
		}
	}
	return withGain
}

// numBatches is the number of batches that cover n lists.
func (b *batcher) numBatches(n int) int { return (n + b.lists - 1) / b.lists }

// chunk returns the queries of batch i.
func (b *batcher) chunk(qs []ltrdata.Query, i int) []ltrdata.Query {
	return qs[i*b.lists : min((i+1)*b.lists, len(qs))]
}
