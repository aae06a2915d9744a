package adapters

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Mode says which direction of a monitored value is an improvement.
type Mode int

const (
	// Max: higher is better (MAP, accuracy). It is the default.
	Max Mode = iota
	// Min: lower is better (loss).
	Min
)

// String returns "max" or "min".
func (m Mode) String() string {
	switch m {
	case Max:
		return "max"
	case Min:
		return "min"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Record is one observation of a monitored value.
type Record struct {
	Epoch, Step int
	Value       float64
}

// Option configures [EarlyStopping] and [BestCheckpoint].
type Option func(*settings) error

type settings struct {
	kind       string // "EarlyStopping" or "BestCheckpoint"
	mode       Mode
	minDelta   float64
	hook       Hook
	patience   int
	baseline   float64
	hasBase    bool
	save       func(Record) error
	restore    func(Record) error
	restoreSet bool
	sig        *sigTracker // WithSignificance
}

// WithMode sets whether higher (Max, the default) or lower (Min) values are
// better.
func WithMode(m Mode) Option {
	return func(s *settings) error {
		if m != Max && m != Min {
			return fmt.Errorf("WithMode(%d): want Max or Min", int(m))
		}
		s.mode = m
		return nil
	}
}

// WithMinDelta sets the smallest change that counts as an improvement
// (default 0: any strict improvement). d must be finite and >= 0.
func WithMinDelta(d float64) Option {
	return func(s *settings) error {
		if !(d >= 0) || math.IsInf(d, 0) {
			return fmt.Errorf("WithMinDelta(%v): want a finite value >= 0", d)
		}
		s.minDelta = d
		return nil
	}
}

// WithHook sets the hook that is monitored: EpochEnd (the default) or
// StepEnd, for loops that evaluate every N steps. Events from the other hook
// are ignored.
func WithHook(h Hook) Option {
	return func(s *settings) error {
		if h != EpochEnd && h != StepEnd {
			return fmt.Errorf("WithHook(%d): want EpochEnd or StepEnd", int(h))
		}
		s.hook = h
		return nil
	}
}

// WithPatience sets the number of evaluations in a row without improvement
// after which [EarlyStopping] stops training (default 0, as in Keras: 0 and 1
// both stop at the first evaluation that does not improve). Only for
// EarlyStopping.
func WithPatience(n int) Option {
	return func(s *settings) error {
		if s.kind != "EarlyStopping" {
			return fmt.Errorf("WithPatience applies to EarlyStopping only, not %s", s.kind)
		}
		if n < 0 {
			return fmt.Errorf("WithPatience(%d): want >= 0", n)
		}
		s.patience = n
		return nil
	}
}

// WithBaseline makes [EarlyStopping] count an evaluation as an improvement
// only when it also beats baseline (by the min delta), as Keras's baseline
// does. Only for EarlyStopping.
func WithBaseline(v float64) Option {
	return func(s *settings) error {
		if s.kind != "EarlyStopping" {
			return fmt.Errorf("WithBaseline applies to EarlyStopping only, not %s", s.kind)
		}
		if math.IsNaN(v) {
			return fmt.Errorf("WithBaseline(NaN): want a number")
		}
		s.baseline, s.hasBase = v, true
		return nil
	}
}

// WithRestoreBest gives [EarlyStopping] the means to restore the best state:
// save is called with the record of every new best (snapshot the model
// there), and restore with the best record when early stopping fires or when
// [EarlyStopping.RestoreBest] is called. Either may be nil. Only for
// EarlyStopping; BestCheckpoint takes its save function as an argument.
func WithRestoreBest(save, restore func(best Record) error) Option {
	return func(s *settings) error {
		if s.kind != "EarlyStopping" {
			return fmt.Errorf("WithRestoreBest applies to EarlyStopping only, not %s", s.kind)
		}
		s.save, s.restore, s.restoreSet = save, restore, true
		return nil
	}
}

func applyOptions(kind string, opts []Option) (settings, error) {
	s := settings{kind: kind}
	for i, o := range opts {
		if o == nil {
			return s, fmt.Errorf("adapters: %s option %d is nil", kind, i)
		}
		if err := o(&s); err != nil {
			return s, fmt.Errorf("adapters: %s: %w", kind, err)
		}
	}
	return s, nil
}

// tracker follows the best value of one monitored key.
type tracker struct {
	key      string
	mode     Mode
	minDelta float64
	hook     Hook
	best     Record
	seen     bool
	sig      *sigTracker // nil without WithSignificance
}

// value returns the monitored value of e, or an error naming the key and the
// keys that are present when it is missing or NaN.
func (t *tracker) value(kind string, e Event) (float64, error) {
	v, ok := e.Metrics[t.key]
	if !ok {
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range e.Metrics {
				if !yield(k) {
					return
				}
			}
		})
		return 0, fmt.Errorf("adapters: %s: monitored metric %q is not in the metrics at %s end (epoch %d, step %d); present: [%s]",
			kind, t.key, e.Hook, e.Epoch, e.Step, strings.Join(keys, ", "))
	}
	if math.IsNaN(v) {
		return 0, fmt.Errorf("adapters: %s: monitored metric %q is NaN at %s end (epoch %d, step %d)", kind, t.key, e.Hook, e.Epoch, e.Step)
	}
	return v, nil
}

// better reports whether v improves on ref by more than the min delta.
func (t *tracker) better(v, ref float64) bool {
	if t.mode == Min {
		return v+t.minDelta < ref
	}
	return v-t.minDelta > ref
}

// observe records v and reports whether it is a new best. The first
// observation always is. With WithSignificance, a better v must also be
// significantly better.
func (t *tracker) observe(kind string, e Event, v float64) (bool, error) {
	if t.seen && !t.better(v, t.best.Value) {
		return false, nil
	}
	if t.sig != nil {
		if ok, err := t.sig.accept(kind, e, !t.seen); !ok || err != nil {
			return false, err
		}
	}
	t.best, t.seen = Record{Epoch: e.Epoch, Step: e.Step, Value: v}, true
	return true, nil
}
