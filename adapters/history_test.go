package adapters

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sync"
	"testing"
)

func filledHistory(t *testing.T) *History {
	t.Helper()
	h := NewHistory()
	cbs := Callbacks{h}
	steps := []struct {
		hook        Hook
		epoch, step int
		m           map[string]float64
	}{
		{StepEnd, 1, 50, map[string]float64{"loss": 0.75}},
		{EpochEnd, 1, 100, map[string]float64{"loss": 0.5, "val_map": 0.25}},
		{EpochEnd, 2, 200, map[string]float64{"loss": math.NaN(), "val_map": 0.125}},
		{EpochEnd, 3, 300, map[string]float64{"val_map": math.Inf(-1)}},
	}
	for _, s := range steps {
		var err error
		if s.hook == StepEnd {
			_, err = cbs.StepEnd(s.epoch, s.step, s.m)
		} else {
			_, err = cbs.EpochEnd(s.epoch, s.step, s.m)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func TestHistoryCSV(t *testing.T) {
	var buf bytes.Buffer
	if err := filledHistory(t).WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	want := "hook,epoch,step,loss,val_map\n" +
		"step,1,50,0.75,\n" +
		"epoch,1,100,0.5,0.25\n" +
		"epoch,2,200,NaN,0.125\n" +
		"epoch,3,300,,-Inf\n"
	if buf.String() != want {
		t.Fatalf("CSV =\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestHistoryJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := filledHistory(t).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	want := []map[string]any{
		{"hook": "step", "epoch": 1.0, "step": 50.0, "metrics": map[string]any{"loss": 0.75}},
		{"hook": "epoch", "epoch": 1.0, "step": 100.0, "metrics": map[string]any{"loss": 0.5, "val_map": 0.25}},
		{"hook": "epoch", "epoch": 2.0, "step": 200.0, "metrics": map[string]any{"loss": "NaN", "val_map": 0.125}},
		{"hook": "epoch", "epoch": 3.0, "step": 300.0, "metrics": map[string]any{"val_map": "-Inf"}},
	}
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("JSON =\n%s\nwant\n%s", gj, wj)
	}
	if buf.Bytes()[buf.Len()-1] != '\n' {
		t.Fatal("no final newline")
	}
}

func TestHistoryValuesAndIsolation(t *testing.T) {
	h := filledHistory(t)
	if got := h.Values(EpochEnd, "val_map"); !slices.Equal(got, []float64{0.25, 0.125, math.Inf(-1)}) {
		t.Fatalf("Values(epoch, val_map) = %v", got)
	}
	if got := h.Values(StepEnd, "loss"); !slices.Equal(got, []float64{0.75}) {
		t.Fatalf("Values(step, loss) = %v", got)
	}
	if got := h.Keys(); !slices.Equal(got, []string{"loss", "val_map"}) {
		t.Fatalf("Keys = %v", got)
	}
	// Changing a map after the call or in the returned events does not
	// change the history.
	m := map[string]float64{"a": 1}
	if _, err := h.OnEpochEnd(Event{Epoch: 4, Metrics: m}); err != nil {
		t.Fatal(err)
	}
	m["a"] = 2
	h.Events()[4].Metrics["a"] = 3
	if got := h.Values(EpochEnd, "a"); !slices.Equal(got, []float64{1}) {
		t.Fatalf("history changed through an alias: %v", got)
	}
}

func TestHistoryConcurrent(t *testing.T) {
	h := NewHistory()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 100 {
				_, _ = h.OnStepEnd(Event{Hook: StepEnd, Step: g*100 + i, Metrics: map[string]float64{"loss": 1}})
			}
		})
	}
	wg.Wait()
	if n := len(h.Events()); n != 400 {
		t.Fatalf("%d events, want 400", n)
	}
}

// TestHistoryTextInterval checks that WriteText prints the validation
// metric with the t interval WithInterval adds. The bounds are scipy's,
// stats.t.interval(0.95, n-1, loc=mean(x), scale=stats.sem(x)) (scipy
// 1.17.1); for the first epoch by hand too: mean 0.525, sd 0.357946,
// t(0.975, 4) = 2.776445, 0.525 -+ 0.444448.
func TestHistoryTextInterval(t *testing.T) {
	epochs := []struct {
		perQuery []float64
		loss     float64
		low      float64
		high     float64
	}{
		{[]float64{0.25, 0.5, 1.0, 0.75, 0.125}, 0.5, 0.0805519263251554, 0.9694480736748446},
		{[]float64{1.0 / 3, 0.5, 0.2, 0.6, 0.45, 0.8, 0.1}, 0.25, 0.20534046884085305, 0.6470404835400996},
	}
	h := NewHistory()
	cbs := Callbacks{h}
	if _, err := cbs.StepEnd(1, 50, map[string]float64{"loss": 0.75}); err != nil {
		t.Fatal(err)
	}
	for i, e := range epochs {
		var mean float64
		for _, v := range e.perQuery {
			mean += v
		}
		mean /= float64(len(e.perQuery))
		m, err := WithInterval(map[string]float64{"loss": e.loss, "val_map": mean}, "val_map", e.perQuery, 0.05)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []struct {
			key  string
			want float64
		}{{"val_map_ci_low", e.low}, {"val_map_ci_high", e.high}} {
			if got := m[b.key]; math.Abs(got-b.want) > 1e-12*math.Abs(b.want) {
				t.Errorf("epoch %d: %s = %v, scipy %v", i+1, b.key, got, b.want)
			}
		}
		if _, err := cbs.EpochEnd(i+1, 100*(i+1), m); err != nil {
			t.Fatal(err)
		}
	}
	// A lone bound is an ordinary metric.
	if _, err := cbs.EpochEnd(3, 300, map[string]float64{"val_map": math.NaN(), "x_ci_low": 0.125}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := h.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	want := "epoch 1 step 50 (step)  loss 0.7500\n" +
		"epoch 1 step 100  loss 0.5000  val_map 0.5250 [0.0806, 0.9694]\n" +
		"epoch 2 step 200  loss 0.2500  val_map 0.4262 [0.2053, 0.6470]\n" +
		"epoch 3 step 300  val_map NaN  x_ci_low 0.1250\n"
	if buf.String() != want {
		t.Fatalf("WriteText =\n%s\nwant\n%s", buf.String(), want)
	}
	if got := FormatMetric(map[string]float64{"a": 1}, "b"); got != "" {
		t.Errorf("FormatMetric of a missing key = %q, want \"\"", got)
	}
}
