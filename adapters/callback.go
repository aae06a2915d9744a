package adapters

import (
	"fmt"
	"maps"
)

// Hook names the point of the training loop an [Event] comes from.
type Hook int

const (
	// EpochEnd is the end of an epoch.
	EpochEnd Hook = iota
	// StepEnd is the end of a training step.
	StepEnd
)

// String returns "epoch" or "step".
func (h Hook) String() string {
	switch h {
	case EpochEnd:
		return "epoch"
	case StepEnd:
		return "step"
	}
	return fmt.Sprintf("Hook(%d)", int(h))
}

// Event is what a [Callback] receives.
type Event struct {
	// Hook says whether this is the end of an epoch or of a step.
	Hook Hook
	// Epoch and Step are the loop's counters, as the loop numbers them.
	Epoch, Step int
	// Metrics maps metric names to values, such as "loss" and
	// "val_mean_average_precision_metric". Callbacks must not modify it.
	Metrics map[string]float64
}

// Action is a callback's answer: go on or stop training.
type Action int

const (
	// Continue lets training go on.
	Continue Action = iota
	// Stop asks the loop to stop training.
	Stop
)

// String returns "continue" or "stop".
func (a Action) String() string {
	if a == Stop {
		return "stop"
	}
	return "continue"
}

// Callback is called by a training loop at the end of every epoch and of
// every step. It can ask the loop to stop by returning [Stop]. An error is
// meant to abort training.
type Callback interface {
	OnEpochEnd(e Event) (Action, error)
	OnStepEnd(e Event) (Action, error)
}

// NopCallback implements [Callback] with methods that do nothing. Embed it to
// implement only one of the hooks.
type NopCallback struct{}

// OnEpochEnd returns Continue.
func (NopCallback) OnEpochEnd(Event) (Action, error) { return Continue, nil }

// OnStepEnd returns Continue.
func (NopCallback) OnStepEnd(Event) (Action, error) { return Continue, nil }

// Callbacks is a list of callbacks called in order. It is itself a Callback.
type Callbacks []Callback

// OnEpochEnd calls every callback's OnEpochEnd, even after one asked to stop
// (as Keras does), and returns Stop if any asked to stop. It stops at the
// first error and returns it, naming the callback's position.
func (cs Callbacks) OnEpochEnd(e Event) (Action, error) {
	return cs.call(e, Callback.OnEpochEnd)
}

// OnStepEnd is OnEpochEnd for the end of a step.
func (cs Callbacks) OnStepEnd(e Event) (Action, error) {
	return cs.call(e, Callback.OnStepEnd)
}

func (cs Callbacks) call(e Event, f func(Callback, Event) (Action, error)) (Action, error) {
	act := Continue
	for i, c := range cs {
		a, err := f(c, e)
		if err != nil {
			return Stop, fmt.Errorf("adapters: callback %d (%T) at %s end (epoch %d, step %d): %w", i, c, e.Hook, e.Epoch, e.Step, err)
		}
		if a == Stop {
			act = Stop
		}
	}
	return act, nil
}

// EpochEnd builds an EpochEnd event and calls OnEpochEnd. The callbacks get
// a copy of metrics, so they cannot change the caller's map.
func (cs Callbacks) EpochEnd(epoch, step int, metrics map[string]float64) (Action, error) {
	return cs.OnEpochEnd(Event{Hook: EpochEnd, Epoch: epoch, Step: step, Metrics: maps.Clone(metrics)})
}

// StepEnd builds a StepEnd event and calls OnStepEnd, like EpochEnd.
func (cs Callbacks) StepEnd(epoch, step int, metrics map[string]float64) (Action, error) {
	return cs.OnStepEnd(Event{Hook: StepEnd, Epoch: epoch, Step: step, Metrics: maps.Clone(metrics)})
}
