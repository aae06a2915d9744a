package adapters

import "fmt"

// BestCheckpoint is a [Callback] that calls a user save function whenever the
// monitored value improves on its best so far (the first evaluation always
// does). It never stops training. It is not safe for concurrent use.
type BestCheckpoint struct {
	t     tracker
	save  func(Record) error
	saves int
}

var _ Callback = (*BestCheckpoint)(nil)

// NewBestCheckpoint returns a BestCheckpoint that watches the metric named
// monitor and calls save with the record of each new best. Options:
// [WithMode], [WithMinDelta], [WithHook], [WithSignificance].
func NewBestCheckpoint(monitor string, save func(best Record) error, opts ...Option) (*BestCheckpoint, error) {
	if monitor == "" {
		return nil, fmt.Errorf("adapters: BestCheckpoint: monitor name is empty")
	}
	if save == nil {
		return nil, fmt.Errorf("adapters: BestCheckpoint: save function is nil")
	}
	s, err := applyOptions("BestCheckpoint", opts)
	if err != nil {
		return nil, err
	}
	return &BestCheckpoint{save: save, t: tracker{key: monitor, mode: s.mode, minDelta: s.minDelta, hook: s.hook, sig: s.sig}}, nil
}

// OnEpochEnd observes the event when the monitored hook is EpochEnd.
func (c *BestCheckpoint) OnEpochEnd(e Event) (Action, error) { return c.on(EpochEnd, e) }

// OnStepEnd observes the event when the monitored hook is StepEnd.
func (c *BestCheckpoint) OnStepEnd(e Event) (Action, error) { return c.on(StepEnd, e) }

func (c *BestCheckpoint) on(h Hook, e Event) (Action, error) {
	if h != c.t.hook {
		return Continue, nil
	}
	v, err := c.t.value("BestCheckpoint", e)
	if err != nil {
		return Stop, err
	}
	best, err := c.t.observe("BestCheckpoint", e, v)
	if err != nil {
		return Stop, err
	}
	if !best {
		return Continue, nil
	}
	if err := c.save(c.t.best); err != nil {
		return Stop, fmt.Errorf("adapters: BestCheckpoint: saving (epoch %d, step %d, %s %v): %w", e.Epoch, e.Step, c.t.key, v, err)
	}
	c.saves++
	return Continue, nil
}

// Best returns the best record so far; ok is false before any evaluation.
func (c *BestCheckpoint) Best() (best Record, ok bool) { return c.t.best, c.t.seen }

// Saves returns how many times the save function succeeded.
func (c *BestCheckpoint) Saves() int { return c.saves }

// NotSignificant returns the number of evaluations that were better than
// the best in mean but not significantly so ([WithSignificance]; 0
// without it).
func (c *BestCheckpoint) NotSignificant() int { return c.t.notSignificant() }
