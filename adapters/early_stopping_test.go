package adapters

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

const key = "val_map"

// feed sends one epoch event per value and returns the epoch (1-based) at
// which the callback asked to stop, or 0.
func feed(t *testing.T, c Callback, values []float64) int {
	t.Helper()
	for i, v := range values {
		act, err := c.OnEpochEnd(Event{Hook: EpochEnd, Epoch: i + 1, Step: 10 * (i + 1), Metrics: map[string]float64{key: v, "loss": -v}})
		if err != nil {
			t.Fatalf("epoch %d: %v", i+1, err)
		}
		if act == Stop {
			return i + 1
		}
	}
	return 0
}

func TestEarlyStoppingSequences(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		values   []float64
		stopAt   int // 0: never
		bestAt   int
		bestVal  float64
		saves    []int
		restores []int
	}{
		{"plateau, patience 2", []Option{WithPatience(2)}, []float64{0.5, 0.6, 0.6, 0.6, 0.6}, 4, 2, 0.6, []int{1, 2}, []int{2}},
		{"patience 0 stops at first non-improvement", nil, []float64{0.1, 0.2, 0.15, 0.3}, 3, 2, 0.2, []int{1, 2}, []int{2}},
		{"patience 1 equals patience 0", []Option{WithPatience(1)}, []float64{0.1, 0.2, 0.15, 0.3}, 3, 2, 0.2, []int{1, 2}, []int{2}},
		{"recovers within patience", []Option{WithPatience(2)}, []float64{0.5, 0.4, 0.7, 0.6, 0.65}, 5, 3, 0.7, []int{1, 3}, []int{3}},
		{"always improving", []Option{WithPatience(1)}, []float64{0.1, 0.2, 0.3}, 0, 3, 0.3, []int{1, 2, 3}, nil},
		{"min mode with min delta", []Option{WithMode(Min), WithMinDelta(0.02), WithPatience(2)},
			[]float64{1.0, 0.95, 0.94, 0.93, 0.5}, 4, 2, 0.95, []int{1, 2}, []int{2}},
		{"min delta in max mode", []Option{WithMinDelta(0.1), WithPatience(2)},
			[]float64{0.5, 0.55, 0.58, 0.9}, 3, 1, 0.5, []int{1}, []int{1}},
		{"baseline never beaten", []Option{WithBaseline(0.5), WithPatience(2)},
			[]float64{0.3, 0.4, 0.45}, 2, 2, 0.4, []int{1, 2}, nil},
		{"baseline beaten", []Option{WithBaseline(0.5), WithPatience(2)},
			[]float64{0.3, 0.6, 0.7, 0.7}, 0, 3, 0.7, []int{1, 2, 3}, nil},
		{"first evaluation never stops", []Option{WithBaseline(0.5)}, []float64{0.3}, 0, 1, 0.3, []int{1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var saves, restores []int
			opts := append(slices.Clone(tc.opts), WithRestoreBest(
				func(r Record) error { saves = append(saves, r.Epoch); return nil },
				func(r Record) error { restores = append(restores, r.Epoch); return nil }))
			es, err := NewEarlyStopping(key, opts...)
			if err != nil {
				t.Fatal(err)
			}
			stop := feed(t, es, tc.values)
			best, ok := es.Best()
			if stop != tc.stopAt || !ok || best.Epoch != tc.bestAt || best.Value != tc.bestVal {
				t.Fatalf("stopped at %d, best %+v; want stop at %d, best epoch %d value %v", stop, best, tc.stopAt, tc.bestAt, tc.bestVal)
			}
			if at, stopped := es.Stopped(); stopped != (tc.stopAt != 0) || (stopped && at.Epoch != tc.stopAt) {
				t.Fatalf("Stopped() = %+v, %v", at, stopped)
			}
			if !slices.Equal(saves, tc.saves) || !slices.Equal(restores, tc.restores) {
				t.Fatalf("saves %v restores %v, want %v and %v", saves, restores, tc.saves, tc.restores)
			}
		})
	}
}

// TestEarlyStoppingRestoresModel trains a stand-in "model" whose state is a
// weight vector that changes every epoch; the validation score plateaus and
// early stopping must put the weights of the best epoch back.
func TestEarlyStoppingRestoresModel(t *testing.T) {
	weights := []float64{0, 0}
	var snapshot []float64
	es, err := NewEarlyStopping(key, WithPatience(3), WithRestoreBest(
		func(Record) error { snapshot = slices.Clone(weights); return nil },
		func(Record) error { copy(weights, snapshot); return nil }))
	if err != nil {
		t.Fatal(err)
	}
	scores := []float64{0.40, 0.52, 0.61, 0.64, 0.63, 0.64, 0.62, 0.60, 0.58}
	stoppedAt := 0
	for epoch := 1; epoch <= len(scores); epoch++ {
		weights[0], weights[1] = float64(epoch), float64(-epoch) // one "training" epoch
		act, err := Callbacks{es}.EpochEnd(epoch, epoch*100, map[string]float64{key: scores[epoch-1]})
		if err != nil {
			t.Fatal(err)
		}
		if act == Stop {
			stoppedAt = epoch
			break
		}
	}
	// Best is epoch 4 (0.64; epoch 6 ties and does not improve); epochs 5, 6, 7
	// do not improve, so patience 3 stops at epoch 7.
	if stoppedAt != 7 {
		t.Fatalf("stopped at epoch %d, want 7", stoppedAt)
	}
	if want := []float64{4, -4}; !slices.Equal(weights, want) {
		t.Fatalf("weights after stopping = %v, want those of epoch 4 %v", weights, want)
	}
	// A later stop signal changes nothing and does not restore again.
	weights[0] = 100
	if act, err := es.OnEpochEnd(Event{Epoch: 8, Metrics: map[string]float64{key: 0.9}}); act != Stop || err != nil {
		t.Fatalf("after stopping: %v, %v", act, err)
	}
	if weights[0] != 100 {
		t.Fatal("restored twice")
	}
}

func TestEarlyStoppingRestoreBestAtEnd(t *testing.T) {
	restores := 0
	es, err := NewEarlyStopping(key, WithPatience(10), WithRestoreBest(nil, func(r Record) error {
		if r.Epoch != 2 {
			t.Errorf("restoring epoch %d, want 2", r.Epoch)
		}
		restores++
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := es.RestoreBest(); err != nil || restores != 0 {
		t.Fatalf("RestoreBest before any evaluation: %v, %d calls", err, restores)
	}
	if stop := feed(t, es, []float64{0.5, 0.7, 0.6}); stop != 0 {
		t.Fatalf("stopped at %d", stop)
	}
	for range 2 {
		if err := es.RestoreBest(); err != nil {
			t.Fatal(err)
		}
	}
	if restores != 1 || es.Wait() != 1 {
		t.Fatalf("%d restores, wait %d; want 1 restore, wait 1", restores, es.Wait())
	}
	// When the latest evaluation is the best, there is nothing to restore.
	feed(t, es, []float64{0.9})
	if err := es.RestoreBest(); err != nil || restores != 1 {
		t.Fatalf("RestoreBest with the best in place: %v, %d calls", err, restores)
	}
}

func TestEarlyStoppingStepHook(t *testing.T) {
	es, err := NewEarlyStopping("loss", WithHook(StepEnd), WithMode(Min))
	if err != nil {
		t.Fatal(err)
	}
	// Epoch events, even without the key, are ignored.
	if act, err := es.OnEpochEnd(Event{Hook: EpochEnd}); act != Continue || err != nil {
		t.Fatalf("epoch event: %v, %v", act, err)
	}
	for i, loss := range []float64{3, 2, 2.5} {
		act, err := es.OnStepEnd(Event{Hook: StepEnd, Step: i, Metrics: map[string]float64{"loss": loss}})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]Action{true: Stop, false: Continue}[i == 2]; act != want {
			t.Fatalf("step %d: %v, want %v", i, act, want)
		}
	}
}

func TestEarlyStoppingErrors(t *testing.T) {
	failing := errors.New("no space left")
	tests := []struct {
		name    string
		monitor string
		opts    []Option
		metrics map[string]float64
		wantNew string
		wantOn  string
	}{
		{name: "empty monitor", monitor: "", wantNew: "monitor name is empty"},
		{name: "negative patience", monitor: key, opts: []Option{WithPatience(-1)}, wantNew: "WithPatience(-1): want >= 0"},
		{name: "bad delta", monitor: key, opts: []Option{WithMinDelta(math.Inf(1))}, wantNew: "WithMinDelta(+Inf)"},
		{name: "negative delta", monitor: key, opts: []Option{WithMinDelta(-0.1)}, wantNew: "WithMinDelta(-0.1)"},
		{name: "bad mode", monitor: key, opts: []Option{WithMode(7)}, wantNew: "WithMode(7): want Max or Min"},
		{name: "bad hook", monitor: key, opts: []Option{WithHook(4)}, wantNew: "WithHook(4)"},
		{name: "NaN baseline", monitor: key, opts: []Option{WithBaseline(math.NaN())}, wantNew: "WithBaseline(NaN)"},
		{name: "nil option", monitor: key, opts: []Option{nil}, wantNew: "EarlyStopping option 0 is nil"},
		{name: "missing key", monitor: key, metrics: map[string]float64{"loss": 1, "val_mrr": 2},
			wantOn: `monitored metric "val_map" is not in the metrics at epoch end (epoch 1, step 0); present: [loss, val_mrr]`},
		{name: "NaN value", monitor: key, metrics: map[string]float64{key: math.NaN()},
			wantOn: `monitored metric "val_map" is NaN at epoch end (epoch 1, step 0)`},
		{name: "save fails", monitor: key, opts: []Option{WithRestoreBest(func(Record) error { return failing }, nil)},
			metrics: map[string]float64{key: 0.5}, wantOn: "saving the best state (epoch 1, step 0, val_map 0.5): no space left"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			es, err := NewEarlyStopping(tc.monitor, tc.opts...)
			if tc.wantNew != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantNew) {
					t.Fatalf("NewEarlyStopping err = %v, want %q", err, tc.wantNew)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			act, err := es.OnEpochEnd(Event{Epoch: 1, Metrics: tc.metrics})
			if err == nil || act != Stop || !strings.Contains(err.Error(), tc.wantOn) {
				t.Fatalf("OnEpochEnd = %v, %v; want Stop and %q", act, err, tc.wantOn)
			}
		})
	}
}

func TestEarlyStoppingRestoreFails(t *testing.T) {
	es, err := NewEarlyStopping(key, WithRestoreBest(nil, func(Record) error { return errors.New("gone") }))
	if err != nil {
		t.Fatal(err)
	}
	_, err = es.OnEpochEnd(Event{Epoch: 1, Metrics: map[string]float64{key: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	act, err := es.OnEpochEnd(Event{Epoch: 2, Metrics: map[string]float64{key: 0.4}})
	if act != Stop || err == nil || !strings.Contains(err.Error(), "restoring the best state (epoch 1, step 0, val_map 0.5): gone") {
		t.Fatalf("got %v, %v", act, err)
	}
}
