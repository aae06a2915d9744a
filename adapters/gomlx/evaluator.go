package gomlx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/train"
)

// ErrEarlyStop is returned, wrapped, by Loop.RunEpochs when an [Evaluator]
// stops training on a plateau. Loop.RunSteps ends normally instead (see
// [Evaluator]). Test for it with errors.Is.
var ErrEarlyStop = errors.New("training stopped early: validation MAP reached a plateau")

// ErrConfig is wrapped by every error about a [Config].
var ErrConfig = errors.New("bad evaluator configuration")

// Config configures an [Evaluator].
type Config struct {
	// Validation is the validation set. It must be finite: Yield returns
	// io.EOF after the last batch. Trainer.Eval resets it before each
	// evaluation.
	Validation train.Dataset
	// Metric is the MAP to monitor. It must be one of the evaluation
	// metrics given to train.NewTrainer.
	Metric *MAP
	// EveryNSteps evaluates after every N training steps (N > 0), counted
	// in Loop.LoopStep, so across runs of the same loop.
	EveryNSteps int
	// Patience is the number of evaluations without improvement after
	// which training stops. 0 never stops.
	Patience int
	// MinDelta is how much MAP must rise over the best value so far to
	// count as an improvement (>= 0).
	MinDelta float64
	// OnImprove, if set, is called after every evaluation that improves on
	// the best value, for example to save a checkpoint. An error aborts the
	// loop.
	OnImprove func(Evaluation) error
	// Log, if set, receives one line per evaluation.
	Log io.Writer
}

// Evaluation is one evaluation of the validation set.
type Evaluation struct {
	// Step is the number of training steps done (Loop.LoopStep after the
	// step) when the evaluation ran.
	Step int
	// Value is the MAP on the validation set.
	Value float64
	// Improved says the value beat the best one before it by more than
	// MinDelta. The first evaluation always improves.
	Improved bool
	// Duration is the time the evaluation took.
	Duration time.Duration
}

// Evaluator is a train.Loop hook that evaluates MAP on a validation set
// every N steps, shows it in the progress output, and stops training when
// MAP has not improved for Patience evaluations.
//
// Stopping: under Loop.RunSteps the evaluator shortens the run by setting
// Loop.EndStep to the step after the current one. GoMLX v0.26.0's RunSteps
// re-reads EndStep every step, so the loop ends normally: OnEnd hooks run
// (the progress bar closes cleanly) and RunSteps returns no error. Under
// Loop.RunEpochs, which loops over epochs and ignores EndStep, the hook
// returns [ErrEarlyStop], which aborts the run with an error wrapping it.
//
// The evaluator also evaluates once at the end of a run when the last
// step was not evaluated, and returns the context's error, aborting the
// loop, once the context is done.
type Evaluator struct {
	ctx  context.Context
	loop *train.Loop
	cfg  Config
	idx  int // index of cfg.Metric in Trainer.EvalMetrics

	mu       sync.Mutex
	history  []Evaluation
	plateau  plateau
	stopped  bool
	runSteps bool
}

// Attach validates cfg, registers the evaluator's hooks on loop and returns
// it. Pass [Evaluator.ProgressMetric] to commandline.AttachProgressBar to
// show MAP in the progress bar.
func Attach(ctx context.Context, loop *train.Loop, cfg Config) (*Evaluator, error) {
	switch {
	case ctx == nil:
		return nil, fmt.Errorf("gomlx: Attach: ctx is nil: %w", ErrConfig)
	case loop == nil || loop.Trainer == nil:
		return nil, fmt.Errorf("gomlx: Attach: loop is nil or has no Trainer: %w", ErrConfig)
	case cfg.Validation == nil:
		return nil, fmt.Errorf("gomlx: Attach: Config.Validation is nil: %w", ErrConfig)
	case cfg.Metric == nil:
		return nil, fmt.Errorf("gomlx: Attach: Config.Metric is nil: %w", ErrConfig)
	case cfg.EveryNSteps <= 0:
		return nil, fmt.Errorf("gomlx: Attach: Config.EveryNSteps is %d, want > 0: %w", cfg.EveryNSteps, ErrConfig)
	case cfg.Patience < 0:
		return nil, fmt.Errorf("gomlx: Attach: Config.Patience is %d, want >= 0: %w", cfg.Patience, ErrConfig)
	case !(cfg.MinDelta >= 0) || math.IsInf(cfg.MinDelta, 0):
		return nil, fmt.Errorf("gomlx: Attach: Config.MinDelta is %v, want a finite value >= 0: %w", cfg.MinDelta, ErrConfig)
	}
	idx := -1
	for i, m := range loop.Trainer.EvalMetrics() {
		if mm, ok := m.(*MAP); ok && mm == cfg.Metric {
			idx = i
			break
		}
	}
	if idx < 0 {
		return nil, fmt.Errorf("gomlx: Attach: Config.Metric %q is not among the trainer's evaluation metrics; pass it to train.NewTrainer: %w",
			cfg.Metric.Name(), ErrConfig)
	}
	e := &Evaluator{ctx: ctx, loop: loop, cfg: cfg, idx: idx,
		plateau: plateau{patience: cfg.Patience, minDelta: cfg.MinDelta}}
	const name = "rankmetrics.gomlx.Evaluator"
	loop.OnStart(name, -1, e.onStart)
	loop.OnStep(name+".context", -1, e.checkContext)
	train.EveryNSteps(loop, cfg.EveryNSteps, name, -1, e.onStep)
	loop.OnEnd(name, -1, e.onEnd)
	return e, nil
}

func (e *Evaluator) onStart(loop *train.Loop, _ train.Dataset) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	// RunSteps sets EndStep before OnStart; RunEpochs sets it to -1.
	e.runSteps = loop.EndStep >= 0
	return e.ctx.Err()
}

func (e *Evaluator) checkContext(_ *train.Loop, _ []*tensors.Tensor) error {
	return e.ctx.Err()
}

func (e *Evaluator) onStep(loop *train.Loop, _ []*tensors.Tensor) error {
	ev, err := e.evaluate(loop.LoopStep + 1)
	if err != nil {
		return err
	}
	e.mu.Lock()
	stop := e.plateau.stop()
	runSteps, best, wait := e.runSteps, e.plateau.best, e.plateau.wait
	if stop {
		e.stopped = true
	}
	e.mu.Unlock()
	if !stop {
		return nil
	}
	e.logf("step %d: stopping, no improvement over %.4f for %d evaluations\n", ev.Step, best, wait)
	if runSteps {
		loop.EndStep = loop.LoopStep + 1
		return nil
	}
	return ErrEarlyStop
}

func (e *Evaluator) onEnd(loop *train.Loop, _ []*tensors.Tensor) error {
	e.mu.Lock()
	done := len(e.history) > 0 && e.history[len(e.history)-1].Step == loop.LoopStep
	e.mu.Unlock()
	if done {
		return nil
	}
	_, err := e.evaluate(loop.LoopStep)
	return err
}

// Evaluate runs the validation set now, for example before training for a
// baseline, and records the result like a scheduled evaluation (it counts
// toward the best value and the patience, but never stops the loop by
// itself).
func (e *Evaluator) Evaluate() (Evaluation, error) {
	return e.evaluate(e.loop.LoopStep)
}

func (e *Evaluator) evaluate(step int) (Evaluation, error) {
	if err := e.ctx.Err(); err != nil {
		return Evaluation{}, err
	}
	start := time.Now()
	results, err := e.loop.Trainer.Eval(e.cfg.Validation)
	for _, t := range results {
		if t != nil {
			_ = t.FinalizeAll() // only host memory is left; freeing early is best effort
		}
	}
	if err != nil {
		return Evaluation{}, fmt.Errorf("gomlx: evaluating dataset %q after step %d: %w", e.cfg.Validation.Name(), step, err)
	}
	if err := e.cfg.Metric.Err(); err != nil {
		return Evaluation{}, fmt.Errorf("gomlx: evaluating dataset %q after step %d: %w", e.cfg.Validation.Name(), step, err)
	}
	v := e.cfg.Metric.Result()
	ev := Evaluation{Step: step, Value: v, Duration: time.Since(start)}
	e.mu.Lock()
	ev.Improved = e.plateau.observe(v)
	e.history = append(e.history, ev)
	e.mu.Unlock()
	mark := ""
	if ev.Improved {
		mark = " *"
	}
	e.logf("step %d: validation %s = %.4f%s\n", step, e.cfg.Metric.ShortName(), v, mark)
	if ev.Improved && e.cfg.OnImprove != nil {
		if err := e.cfg.OnImprove(ev); err != nil {
			return ev, fmt.Errorf("gomlx: OnImprove after step %d: %w", step, err)
		}
	}
	return ev, nil
}

func (e *Evaluator) logf(format string, args ...any) {
	if e.cfg.Log != nil {
		_, _ = fmt.Fprintf(e.cfg.Log, format, args...)
	}
}

// ProgressMetric returns a name and the latest value for a progress bar:
// it has the signature of GoMLX's commandline.ExtraMetricFn, so pass it to
// commandline.AttachProgressBar. It is safe to call from another goroutine.
func (e *Evaluator) ProgressMetric() (name, value string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	name = "Validation " + e.cfg.Metric.ShortName()
	if len(e.history) == 0 {
		return name, "pending"
	}
	last := e.history[len(e.history)-1]
	best, _ := e.bestLocked()
	return name, fmt.Sprintf("%.4f (best %.4f at step %d)", last.Value, best.Value, best.Step)
}

// History returns every evaluation so far, oldest first.
func (e *Evaluator) History() []Evaluation {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.history)
}

// Best returns the best evaluation: the last one marked Improved, which is
// the highest value when MinDelta is 0. With MinDelta > 0 a later value up
// to MinDelta higher does not replace it, as in Keras' EarlyStopping, so
// Best matches the weights OnImprove saw last. It returns false when there
// was no evaluation.
func (e *Evaluator) Best() (Evaluation, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bestLocked()
}

func (e *Evaluator) bestLocked() (Evaluation, bool) {
	for i := len(e.history) - 1; i >= 0; i-- {
		if e.history[i].Improved {
			return e.history[i], true
		}
	}
	return Evaluation{}, false
}

// Stopped reports whether the evaluator stopped training on a plateau.
func (e *Evaluator) Stopped() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}

// plateau tracks the best value of a metric to maximise and counts the
// evaluations since it last improved by more than minDelta, like Keras'
// EarlyStopping with mode "max".
type plateau struct {
	patience int
	minDelta float64
	best     float64
	seen     bool
	wait     int
}

// observe records v and reports whether it improved on the best value.
func (p *plateau) observe(v float64) bool {
	if !p.seen || v-p.minDelta > p.best {
		p.best, p.seen, p.wait = v, true, 0
		return true
	}
	p.wait++
	return false
}

// stop reports whether patience has run out.
func (p *plateau) stop() bool { return p.patience > 0 && p.wait >= p.patience }
