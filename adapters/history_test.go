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
