package adapters

import (
	"fmt"
)

// EarlyStopping is a [Callback] that asks the loop to stop when a monitored
// value has stopped improving, like Keras's EarlyStopping callback:
//
//   - every evaluation at the monitored hook counts a "wait";
//   - an evaluation that improves on the best by more than the min delta (and
//     beats the baseline, if one is set) resets the wait to 0;
//   - once the wait reaches the patience, training stops, except at the first
//     evaluation.
//
// With [WithRestoreBest], the save function is called at every new best and
// the restore function with the best record when stopping. It is not safe for
// concurrent use.
type EarlyStopping struct {
	t        tracker
	s        settings
	wait     int
	n        int // evaluations seen
	stopped  *Record
	current  bool // the latest evaluation is the best
	restored bool // the best state was restored after the latest evaluation
}

var _ Callback = (*EarlyStopping)(nil)

// NewEarlyStopping returns an EarlyStopping that watches the metric named
// monitor. Options: [WithMode], [WithMinDelta], [WithHook], [WithPatience],
// [WithBaseline], [WithRestoreBest], [WithSignificance].
func NewEarlyStopping(monitor string, opts ...Option) (*EarlyStopping, error) {
	if monitor == "" {
		return nil, fmt.Errorf("adapters: EarlyStopping: monitor name is empty")
	}
	s, err := applyOptions("EarlyStopping", opts)
	if err != nil {
		return nil, err
	}
	return &EarlyStopping{s: s, t: tracker{key: monitor, mode: s.mode, minDelta: s.minDelta, hook: s.hook, sig: s.sig}}, nil
}

// OnEpochEnd observes the event when the monitored hook is EpochEnd.
func (es *EarlyStopping) OnEpochEnd(e Event) (Action, error) { return es.on(EpochEnd, e) }

// OnStepEnd observes the event when the monitored hook is StepEnd.
func (es *EarlyStopping) OnStepEnd(e Event) (Action, error) { return es.on(StepEnd, e) }

func (es *EarlyStopping) on(h Hook, e Event) (Action, error) {
	if h != es.t.hook {
		return Continue, nil
	}
	if es.stopped != nil {
		return Stop, nil
	}
	v, err := es.t.value("EarlyStopping", e)
	if err != nil {
		return Stop, err
	}
	es.n++
	es.wait++
	if es.current, err = es.t.observe("EarlyStopping", e, v); err != nil {
		return Stop, err
	}
	es.restored = false
	if es.current {
		if es.s.save != nil {
			if err := es.s.save(es.t.best); err != nil {
				return Stop, fmt.Errorf("adapters: EarlyStopping: saving the best state (epoch %d, step %d, %s %v): %w",
					e.Epoch, e.Step, es.t.key, v, err)
			}
		}
		if !es.s.hasBase || es.t.better(v, es.s.baseline) {
			es.wait = 0
			return Continue, nil
		}
	}
	if es.wait >= es.s.patience && es.n > 1 {
		rec := Record{Epoch: e.Epoch, Step: e.Step, Value: v}
		es.stopped = &rec
		if err := es.RestoreBest(); err != nil {
			return Stop, err
		}
		return Stop, nil
	}
	return Continue, nil
}

// RestoreBest calls the restore function of [WithRestoreBest] with the best
// record, unless the best state is already in place (it was restored before,
// or the best is the latest evaluation). Early stopping calls it itself; call
// it after a loop that ended without early stopping to get the best state
// back. It does nothing without a restore function or before any evaluation.
func (es *EarlyStopping) RestoreBest() error {
	if es.s.restore == nil || !es.t.seen || es.current || es.restored {
		return nil
	}
	if err := es.s.restore(es.t.best); err != nil {
		return fmt.Errorf("adapters: EarlyStopping: restoring the best state (epoch %d, step %d, %s %v): %w",
			es.t.best.Epoch, es.t.best.Step, es.t.key, es.t.best.Value, err)
	}
	es.restored = true
	return nil
}

// Best returns the best record so far; ok is false before any evaluation.
func (es *EarlyStopping) Best() (best Record, ok bool) { return es.t.best, es.t.seen }

// Stopped returns the evaluation at which early stopping fired; ok is false
// while it has not fired.
func (es *EarlyStopping) Stopped() (at Record, ok bool) {
	if es.stopped == nil {
		return Record{}, false
	}
	return *es.stopped, true
}

// Wait returns the number of evaluations since the last one that reset the
// wait.
func (es *EarlyStopping) Wait() int { return es.wait }

// NotSignificant returns the number of evaluations that were better than
// the best in mean but not significantly so ([WithSignificance]; 0
// without it).
func (es *EarlyStopping) NotSignificant() int { return es.t.notSignificant() }
