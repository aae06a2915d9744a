package gomlx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/train"

	"github.com/rankmetrics/rankmetrics/adapters"
)

// ErrEarlyStop is returned, wrapped, by Loop.RunEpochs when a callback of
// an [Evaluator] asks to stop. Loop.RunSteps ends normally instead (see
// [Evaluator]). Test for it with errors.Is.
var ErrEarlyStop = errors.New("training stopped early by a callback")

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
	Metric *MeanAveragePrecision
	// EveryNSteps evaluates after every N training steps (N > 0), counted
	// in Loop.LoopStep, so across runs of the same loop.
	EveryNSteps int
	// Callbacks receive a StepEnd event after every evaluation, with the
	// metrics Metric.ValidationKey() (the MAP) and, after a training step,
	// "loss" (that step's batch loss). Use adapters.EarlyStopping to stop
	// on a plateau and keep the best weights, adapters.BestCheckpoint to
	// save them, adapters.History to export the evaluations. A Stop answer
	// stops the loop; an error aborts it.
	Callbacks []adapters.Callback
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
	// Duration is the time the evaluation took.
	Duration time.Duration
}

// Evaluator is a train.Loop hook that evaluates MAP on a validation set
// every N steps, shows it in the progress output, and passes it to
// adapters callbacks, which can stop training.
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
	cbs  adapters.Callbacks

	mu       sync.Mutex
	history  []Evaluation
	stop     bool // a callback asked to stop
	stopped  bool // the loop was stopped
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
	}
	for i, c := range cfg.Callbacks {
		if c == nil {
			return nil, fmt.Errorf("gomlx: Attach: Config.Callbacks[%d] is nil: %w", i, ErrConfig)
		}
	}
	found := false
	for _, m := range loop.Trainer.EvalMetrics() {
		if mm, ok := m.(*MeanAveragePrecision); ok && mm == cfg.Metric {
			found = true
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("gomlx: Attach: Config.Metric %q is not among the trainer's evaluation metrics; pass it to train.NewTrainer: %w",
			cfg.Metric.Name(), ErrConfig)
	}
	e := &Evaluator{ctx: ctx, loop: loop, cfg: cfg, cbs: adapters.Callbacks(slices.Clone(cfg.Callbacks))}
	const name = "rankmetrics.gomlx.Evaluator"
	loop.OnStart(name, -1, e.onStart)
	train.EveryNSteps(loop, cfg.EveryNSteps, name, -1, e.onStep)
	loop.OnStep(name+".control", -1, e.control) // registered after onStep: runs after it
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

func (e *Evaluator) onStep(loop *train.Loop, trainMetrics []*tensors.Tensor) error {
	_, err := e.evaluate(loop.LoopStep+1, loop.Epoch, trainMetrics)
	return err
}

// control runs after every step: it aborts on a done context and applies
// a stop asked for by a callback.
func (e *Evaluator) control(loop *train.Loop, _ []*tensors.Tensor) error {
	if err := e.ctx.Err(); err != nil {
		return err
	}
	e.mu.Lock()
	stop := e.stop && !e.stopped
	if stop {
		e.stopped = true
	}
	runSteps := e.runSteps
	e.mu.Unlock()
	if !stop {
		return nil
	}
	e.logf("step %d: a callback asked to stop training\n", loop.LoopStep+1)
	if runSteps {
		loop.EndStep = loop.LoopStep + 1
		return nil
	}
	return ErrEarlyStop
}

func (e *Evaluator) onEnd(loop *train.Loop, trainMetrics []*tensors.Tensor) error {
	e.mu.Lock()
	done := len(e.history) > 0 && e.history[len(e.history)-1].Step == loop.LoopStep
	e.mu.Unlock()
	if done {
		return nil
	}
	_, err := e.evaluate(loop.LoopStep, loop.Epoch, trainMetrics)
	return err
}

// Evaluate runs the validation set now, for example before training for a
// baseline, and records and reports the result like a scheduled
// evaluation (with no "loss"). If a callback asks to stop, the loop stops
// after its next step.
func (e *Evaluator) Evaluate() (Evaluation, error) {
	return e.evaluate(e.loop.LoopStep, e.loop.Epoch, nil)
}

func (e *Evaluator) evaluate(step, epoch int, trainMetrics []*tensors.Tensor) (Evaluation, error) {
	if err := e.ctx.Err(); err != nil {
		return Evaluation{}, err
	}
	start := time.Now()
	results, err := e.loop.Trainer.Eval(e.cfg.Validation)
	for _, t := range results {
		if t != nil {
			_ = t.FinalizeAll() // host memory only; freeing early is best effort
		}
	}
	if err != nil {
		return Evaluation{}, fmt.Errorf("gomlx: evaluating dataset %q after step %d: %w", e.cfg.Validation.Name(), step, err)
	}
	if err := e.cfg.Metric.Err(); err != nil {
		return Evaluation{}, fmt.Errorf("gomlx: evaluating dataset %q after step %d: %w", e.cfg.Validation.Name(), step, err)
	}
	ev := Evaluation{Step: step, Value: e.cfg.Metric.Result(), Duration: time.Since(start)}
	e.mu.Lock()
	e.history = append(e.history, ev)
	e.mu.Unlock()
	e.logf("step %d: validation %s = %.4f\n", step, e.cfg.Metric.ShortName(), ev.Value)

	if len(e.cbs) == 0 {
		return ev, nil
	}
	m := map[string]float64{e.cfg.Metric.ValidationKey(): ev.Value}
	if len(trainMetrics) > 0 && trainMetrics[0] != nil && trainMetrics[0].Shape().IsScalar() && trainMetrics[0].DType().IsFloat() {
		m["loss"] = shapes.ConvertTo[float64](trainMetrics[0].Value())
	}
	act, err := e.cbs.StepEnd(epoch, step, m)
	if err != nil {
		return ev, fmt.Errorf("gomlx: after step %d: %w", step, err)
	}
	if act == adapters.Stop {
		e.mu.Lock()
		e.stop = true
		e.mu.Unlock()
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

// Best returns the evaluation with the highest value, the earliest on a
// tie, and false when there was none. (adapters.EarlyStopping's Best, with
// a min delta, can be an earlier one.)
func (e *Evaluator) Best() (Evaluation, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.bestLocked()
}

func (e *Evaluator) bestLocked() (Evaluation, bool) {
	var best Evaluation
	found := false
	for _, ev := range e.history {
		if !found || ev.Value > best.Value {
			best, found = ev, true
		}
	}
	return best, found
}

// Stopped reports whether the evaluator stopped training because a
// callback asked it to.
func (e *Evaluator) Stopped() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopped
}
