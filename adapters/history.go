package adapters

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// History is a [Callback] that keeps every event it sees, from both hooks,
// in order. It never stops training and is safe for concurrent use.
type History struct {
	mu     sync.Mutex
	events []Event
}

var _ Callback = (*History)(nil)

// NewHistory returns an empty History.
func NewHistory() *History { return &History{} }

// OnEpochEnd records the event.
func (h *History) OnEpochEnd(e Event) (Action, error) { h.add(e); return Continue, nil }

// OnStepEnd records the event.
func (h *History) OnStepEnd(e Event) (Action, error) { h.add(e); return Continue, nil }

func (h *History) add(e Event) {
	e.Metrics = maps.Clone(e.Metrics)
	h.mu.Lock()
	h.events = append(h.events, e)
	h.mu.Unlock()
}

// Events returns a copy of the recorded events.
func (h *History) Events() []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Event, len(h.events))
	for i, e := range h.events {
		e.Metrics = maps.Clone(e.Metrics)
		out[i] = e
	}
	return out
}

// Values returns the recorded values of one metric at one hook, in order,
// skipping events that lack it.
func (h *History) Values(hook Hook, key string) []float64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []float64
	for _, e := range h.events {
		if v, ok := e.Metrics[key]; ok && e.Hook == hook {
			out = append(out, v)
		}
	}
	return out
}

// Keys returns the sorted union of the metric names of all events.
func (h *History) Keys() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := map[string]bool{}
	for _, e := range h.events {
		for k := range e.Metrics {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// WriteCSV writes one row per event with the columns hook, epoch, step and
// then every metric name in sorted order. A metric an event lacks is an empty
// cell. Numbers use the shortest form that parses back to the same float64;
// non-finite values are written NaN, +Inf and -Inf.
func (h *History) WriteCSV(w io.Writer) error {
	keys := h.Keys()
	events := h.Events()
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"hook", "epoch", "step"}, keys...)); err != nil {
		return fmt.Errorf("adapters: History.WriteCSV: %w", err)
	}
	row := make([]string, 3+len(keys))
	for _, e := range events {
		row[0], row[1], row[2] = e.Hook.String(), strconv.Itoa(e.Epoch), strconv.Itoa(e.Step)
		for i, k := range keys {
			row[3+i] = ""
			if v, ok := e.Metrics[k]; ok {
				row[3+i] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("adapters: History.WriteCSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("adapters: History.WriteCSV: %w", err)
	}
	return nil
}

// WriteText writes one line per event, for reading: the epoch and step
// (marked "(step)" for a [StepEnd] event), then every metric in sorted order as its name and [FormatMetric]
// value, so that a metric with an interval (as [WithInterval] adds it to
// the validation metric) is printed with its bounds, which are not
// printed again on their own:
//
//	epoch 1 step 100  loss 0.5000  val_map 0.6194 [0.5812, 0.6576]
func (h *History) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	for _, e := range h.Events() {
		fmt.Fprintf(&buf, "epoch %d step %d", e.Epoch, e.Step)
		if e.Hook == StepEnd {
			buf.WriteString(" (step)")
		}
		for _, k := range slices.Sorted(maps.Keys(e.Metrics)) {
			if isBound(e.Metrics, k) {
				continue
			}
			fmt.Fprintf(&buf, "  %s %s", k, FormatMetric(e.Metrics, k))
		}
		buf.WriteByte('\n')
	}
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("adapters: History.WriteText: %w", err)
	}
	return nil
}

// isBound reports whether key is the low or high bound of the interval of
// another metric of metrics that has both bounds.
func isBound(metrics map[string]float64, key string) bool {
	for _, suf := range []string{CILowSuffix, CIHighSuffix} {
		base, ok := strings.CutSuffix(key, suf)
		if !ok {
			continue
		}
		_, hasBase := metrics[base]
		_, hasLo := metrics[base+CILowSuffix]
		_, hasHi := metrics[base+CIHighSuffix]
		return hasBase && hasLo && hasHi
	}
	return false
}

// jsonNumber encodes a float64 as a JSON number, or as the string "NaN",
// "+Inf" or "-Inf", which JSON numbers cannot express.
type jsonNumber float64

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.AppendQuote(nil, strconv.FormatFloat(f, 'g', -1, 64)), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type jsonEvent struct {
	Hook    string                `json:"hook"`
	Epoch   int                   `json:"epoch"`
	Step    int                   `json:"step"`
	Metrics map[string]jsonNumber `json:"metrics"`
}

// MarshalJSON encodes the history as a JSON array of objects with the keys
// hook ("epoch" or "step"), epoch, step and metrics (an object of metric
// names to numbers; non-finite values are the strings "NaN", "+Inf", "-Inf").
func (h *History) MarshalJSON() ([]byte, error) {
	events := h.Events()
	out := make([]jsonEvent, len(events))
	for i, e := range events {
		m := make(map[string]jsonNumber, len(e.Metrics))
		for k, v := range e.Metrics {
			m[k] = jsonNumber(v)
		}
		out[i] = jsonEvent{Hook: e.Hook.String(), Epoch: e.Epoch, Step: e.Step, Metrics: m}
	}
	return json.Marshal(out)
}

// WriteJSON writes the JSON form of [History.MarshalJSON], indented, with a
// final newline.
func (h *History) WriteJSON(w io.Writer) error {
	b, err := h.MarshalJSON()
	if err != nil {
		return fmt.Errorf("adapters: History.WriteJSON: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return fmt.Errorf("adapters: History.WriteJSON: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := buf.WriteTo(w); err != nil {
		return fmt.Errorf("adapters: History.WriteJSON: %w", err)
	}
	return nil
}
