package adapters

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestBestCheckpoint(t *testing.T) {
	tests := []struct {
		name   string
		opts   []Option
		values []float64
		saves  []int
	}{
		{"max", nil, []float64{0.3, 0.5, 0.4, 0.5, 0.6}, []int{1, 2, 5}},
		{"max with min delta", []Option{WithMinDelta(0.15)}, []float64{0.3, 0.5, 0.4, 0.5, 0.6}, []int{1, 2}},
		{"min", []Option{WithMode(Min)}, []float64{0.3, 0.5, 0.2, 0.2, 0.1}, []int{1, 3, 5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var saves []int
			c, err := NewBestCheckpoint(key, func(r Record) error { saves = append(saves, r.Epoch); return nil }, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if stop := feed(t, c, tc.values); stop != 0 {
				t.Fatalf("BestCheckpoint asked to stop at epoch %d", stop)
			}
			if !slices.Equal(saves, tc.saves) || c.Saves() != len(tc.saves) {
				t.Fatalf("saved at %v (%d), want %v", saves, c.Saves(), tc.saves)
			}
			best, ok := c.Best()
			if !ok || best.Epoch != tc.saves[len(tc.saves)-1] || best.Value != tc.values[best.Epoch-1] {
				t.Fatalf("Best() = %+v, %v", best, ok)
			}
		})
	}
}

func TestBestCheckpointErrors(t *testing.T) {
	save := func(Record) error { return nil }
	if _, err := NewBestCheckpoint(key, nil); err == nil || !strings.Contains(err.Error(), "save function is nil") {
		t.Errorf("nil save: %v", err)
	}
	if _, err := NewBestCheckpoint("", save); err == nil || !strings.Contains(err.Error(), "monitor name is empty") {
		t.Errorf("empty monitor: %v", err)
	}
	for _, o := range []Option{WithPatience(2), WithBaseline(1), WithRestoreBest(nil, nil)} {
		if _, err := NewBestCheckpoint(key, save, o); err == nil || !strings.Contains(err.Error(), "applies to EarlyStopping only, not BestCheckpoint") {
			t.Errorf("EarlyStopping option accepted: %v", err)
		}
	}
	c, err := NewBestCheckpoint(key, func(Record) error { return errors.New("read-only") }, WithHook(StepEnd))
	if err != nil {
		t.Fatal(err)
	}
	if act, err := c.OnEpochEnd(Event{}); act != Continue || err != nil {
		t.Fatalf("epoch event with a step hook: %v, %v", act, err)
	}
	act, err := c.OnStepEnd(Event{Hook: StepEnd, Epoch: 1, Step: 5, Metrics: map[string]float64{key: 0.25}})
	if act != Stop || err == nil || err.Error() != "adapters: BestCheckpoint: saving (epoch 1, step 5, val_map 0.25): read-only" {
		t.Fatalf("got %v, %v", act, err)
	}
	if _, err := c.OnStepEnd(Event{Hook: StepEnd, Metrics: map[string]float64{}}); err == nil || !strings.Contains(err.Error(), `monitored metric "val_map" is not in the metrics`) {
		t.Fatalf("missing key: %v", err)
	}
}
