package adapters

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// perQueryFeed returns a per-query function serving vals[epoch-1].
func perQueryFeed(vals [][]float64) func(Event) ([]float64, error) {
	return func(e Event) ([]float64, error) { return vals[e.Epoch-1], nil }
}

// The per-query values of four epochs on five queries (means 0.5, 0.52,
// 0.6, 0.5). Epoch 2 beats epoch 1 by 0.02 in mean, but its differences
// {+0.3, -0.3, +0.3, -0.3, +0.1} give t = 0.149, p = 0.89; epoch 3 is 0.1
// better on every query (sd 0: t = +Inf, p = 0).
var sigEpochs = [][]float64{
	{0.5, 0.5, 0.5, 0.5, 0.5},
	{0.8, 0.2, 0.8, 0.2, 0.6},
	{0.6, 0.6, 0.6, 0.6, 0.6},
	{0.5, 0.5, 0.5, 0.5, 0.5},
}

func sigMeans() []float64 {
	m := make([]float64, len(sigEpochs))
	for i, v := range sigEpochs {
		for _, x := range v {
			m[i] += x / float64(len(v))
		}
	}
	return m
}

func TestBestCheckpointSignificance(t *testing.T) {
	cases := []struct {
		name           string
		opts           []Option
		saves          []int
		notSignificant int
	}{
		{"mean only", nil, []int{1, 2, 3}, 0},
		{"paired t", []Option{WithSignificance(perQueryFeed(sigEpochs), significance.PairedT, 0.05)}, []int{1, 3}, 1},
		// Wilcoxon, epoch 3 - epoch 1: five equal positive differences
		// (tied ranks 3), normal approximation z = (15 - 7.5) /
		// sqrt((330 - 60)/24) = 2.236, p = 0.025.
		{"wilcoxon", []Option{WithSignificance(perQueryFeed(sigEpochs), significance.Wilcoxon, 0.05)}, []int{1, 3}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var saves []int
			cb, err := NewBestCheckpoint(key, func(r Record) error { saves = append(saves, r.Epoch); return nil }, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if stop := feed(t, cb, sigMeans()); stop != 0 {
				t.Fatalf("stopped at %d", stop)
			}
			if !slices.Equal(saves, c.saves) || cb.NotSignificant() != c.notSignificant {
				t.Errorf("saves %v, not significant %d; want %v, %d", saves, cb.NotSignificant(), c.saves, c.notSignificant)
			}
		})
	}
}

// TestEarlyStoppingSignificance: with patience 1, the not significant
// epoch 2 counts as no improvement, and training stops there.
func TestEarlyStoppingSignificance(t *testing.T) {
	es, err := NewEarlyStopping(key, WithPatience(1), WithSignificance(perQueryFeed(sigEpochs), significance.PairedT, 0.05))
	if err != nil {
		t.Fatal(err)
	}
	if stop := feed(t, es, sigMeans()); stop != 2 {
		t.Errorf("stopped at epoch %d, want 2", stop)
	}
	if best, _ := es.Best(); best.Epoch != 1 || es.NotSignificant() != 1 {
		t.Errorf("best %+v, not significant %d", best, es.NotSignificant())
	}
	plain, _ := NewEarlyStopping(key, WithPatience(1))
	if stop := feed(t, plain, sigMeans()); stop != 4 {
		t.Errorf("without significance: stopped at %d, want 4", stop)
	}
}

func TestSignificanceErrors(t *testing.T) {
	good := perQueryFeed(sigEpochs)
	for _, o := range []Option{
		WithSignificance(nil, significance.PairedT, 0.05),
		WithSignificance(good, nil, 0.05),
		WithSignificance(good, significance.PairedT, 0),
		WithSignificance(good, significance.PairedT, 1),
	} {
		if _, err := NewEarlyStopping(key, o); err == nil {
			t.Error("no error")
		}
	}
	short := func(e Event) ([]float64, error) { return sigEpochs[e.Epoch-1][:e.Epoch], nil }
	cb, _ := NewBestCheckpoint(key, func(Record) error { return nil }, WithSignificance(short, significance.PairedT, 0.05))
	if _, err := cb.OnEpochEnd(Event{Epoch: 1, Metrics: map[string]float64{key: 0.5}}); err != nil {
		t.Fatal(err)
	}
	act, err := cb.OnEpochEnd(Event{Epoch: 2, Metrics: map[string]float64{key: 0.6}})
	if act != Stop || err == nil || !strings.Contains(err.Error(), "paired") {
		t.Errorf("unpaired values: %v %v", act, err)
	}
	boom := errors.New("boom")
	failing := func(Event) ([]float64, error) { return nil, boom }
	es, _ := NewEarlyStopping(key, WithSignificance(failing, significance.PairedT, 0.05))
	if _, err := es.OnEpochEnd(Event{Epoch: 1, Metrics: map[string]float64{key: 0.5}}); !errors.Is(err, boom) {
		t.Errorf("per-query error: %v", err)
	}
}

// TestPerQuery: the recorded values are the per-list AP of each update,
// worked by hand: [1 0] scored (0.1, 0.9) ranks the relevant item 2nd (AP
// 1/2); scored (0.9, 0.1), 1st (AP 1).
func TestPerQuery(t *testing.T) {
	m, err := metric.NewMeanAveragePrecision(metric.WithRagged(true))
	if err != nil {
		t.Fatal(err)
	}
	pq, err := NewPerQuery(m)
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := tensor.RaggedRows([][]float32{{1, 0}, {1, 0}})
	preds, _ := tensor.RaggedRows([][]float32{{0.1, 0.9}, {0.9, 0.1}})
	for range 2 {
		if err := pq.Update(labels, preds, tensor.Weights{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := pq.Values(); !slices.Equal(got, []float64{0.5, 1, 0.5, 1}) || pq.Result() != 0.75 || pq.Name() != m.Name() {
		t.Errorf("values %v, result %v", got, pq.Result())
	}
	pq.Reset()
	if len(pq.Values()) != 0 {
		t.Error("Reset kept values")
	}
	if _, err := NewPerQuery(nil); err == nil {
		t.Error("a nil metric: no error")
	}
}
