package adapters

import (
	"context"
	"slices"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// benchBatches returns one batch of 64 lists padded to 40 items, whose real
// lengths cycle through 8..40, twice: dense with Lengths, and as ragged
// lists of the same real items. BenchmarkValidatorRagged (the metric gets
// the ragged lists as they are) is the baseline for
// BenchmarkValidatorPadded (the validator removes the padding first); their
// ratio is the cost of unpadding.
func benchBatches(b *testing.B) (padded, ragged Batch[tensor.Lists]) {
	const B, L = 64, 40
	labels := make([]float32, B*L)
	scores := make([]float32, B*L)
	lengths := make([]int, B)
	var rl, rs [][]float32
	for i := range labels {
		labels[i] = float32((i * 7) % 5)
		scores[i] = float32((i*31)%97) / 97
	}
	for r := range lengths {
		lengths[r] = 8 + (r*5)%33
		rl = append(rl, labels[r*L:r*L+lengths[r]])
		rs = append(rs, scores[r*L:r*L+lengths[r]])
	}
	l, err := tensor.Dense(labels, B, L)
	if err != nil {
		b.Fatal(err)
	}
	s, err := tensor.Dense(scores, B, L)
	if err != nil {
		b.Fatal(err)
	}
	padded = Batch[tensor.Lists]{Inputs: s, Labels: l, Lengths: lengths}
	if ragged.Labels, err = tensor.RaggedRows(rl); err != nil {
		b.Fatal(err)
	}
	if ragged.Inputs, err = tensor.RaggedRows(rs); err != nil {
		b.Fatal(err)
	}
	return padded, ragged
}

func benchValidator(b *testing.B, usePadded bool) {
	padded, ragged := benchBatches(b)
	batch := ragged
	if usePadded {
		batch = padded
	}
	m, err := metric.NewMeanAveragePrecision(metric.WithRagged(true), metric.WithTopN(10))
	if err != nil {
		b.Fatal(err)
	}
	score := func(_ context.Context, b Batch[tensor.Lists]) (tensor.Lists, error) { return b.Inputs, nil }
	v, err := NewValidator(score, []metric.Metric{m})
	if err != nil {
		b.Fatal(err)
	}
	batches := []Batch[tensor.Lists]{batch}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Evaluate(ctx, slices.Values(batches)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidatorRagged(b *testing.B) { benchValidator(b, false) }
func BenchmarkValidatorPadded(b *testing.B) { benchValidator(b, true) }
