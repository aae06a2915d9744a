package gomlx

import (
	"bytes"
	stdctx "context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/backends"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"

	"github.com/rankmetrics/rankmetrics/adapters"
	"github.com/rankmetrics/rankmetrics/adapters/gomlx/internal/ltrsynth"
	"github.com/rankmetrics/rankmetrics/adapters/gomlx/internal/ranker"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// tinyParams is a small dataset of the latent model: training it takes well
// under a second on the pure Go backend.
var tinyParams = ltrsynth.Params{
	Queries: 96, MinLen: 4, MaxLen: 12, Features: 6,
	FeatureNoise: 0.4, LabelNoise: 0.3, Curvature: 0.5, Seed: 11,
}

const tinyBatch = 16

type trainSetup struct {
	backend backends.Backend
	ctx     *context.Context
	trainer *train.Trainer
	loop    *train.Loop
	train   *ltrsynth.Dataset
	valSet  *ltrsynth.Set
	val     *ltrsynth.Dataset
	m       *MeanAveragePrecision
}

// newTrainSetup builds a linear ranker with the listwise softmax loss on the
// tiny dataset, with MAP@10 among the evaluation metrics.
func newTrainSetup(t *testing.T, learningRate float64) *trainSetup {
	t.Helper()
	trainSet, valSet, err := ltrsynth.Split(tinyParams, 48)
	if err != nil {
		t.Fatal(err)
	}
	trainDS, err := ltrsynth.NewDataset("train", trainSet, tinyBatch, true, true, 1)
	if err != nil {
		t.Fatal(err)
	}
	valDS, err := ltrsynth.NewDataset("validation", valSet, tinyBatch, false, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMeanAveragePrecision(metric.WithTopN(10))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.New()
	ctx.SetParam(context.ParamInitialSeed, int64(3))
	ctx.SetParam(optimizers.ParamLearningRate, learningRate)
	backend := newBackend(t)
	trainer := train.NewTrainer(backend, ctx, ranker.Model(), ranker.ListwiseSoftmaxLoss,
		optimizers.StochasticGradientDescent().WithDecay(false).Done(), nil, []metrics.Interface{m})
	return &trainSetup{backend: backend, ctx: ctx, trainer: trainer, loop: train.NewLoop(trainer), train: trainDS, valSet: valSet, val: valDS, m: m}
}

// directMAP scores the validation set with the trained variables in a
// separately compiled graph and computes MAP@10 with the core metric, batch
// by batch as Eval does, twice: dense with the mask given as per-item
// weights 1 and 0 (the adapter's documented mapping), and ragged with the
// padding cut off (TF-Ranking's other way to give lists of unequal length).
func directMAP(t *testing.T, s *trainSetup) (dense, ragged float64) {
	t.Helper()
	exec, err := context.NewExec(s.backend, s.ctx.Reuse(), func(ctx *context.Context, x *graph.Node) *graph.Node {
		return ranker.Model()(ctx, nil, []*graph.Node{x})[0]
	})
	if err != nil {
		t.Fatal(err)
	}
	refDense, err := metric.NewMeanAveragePrecision(metric.WithTopN(10))
	if err != nil {
		t.Fatal(err)
	}
	refRagged, err := metric.NewMeanAveragePrecision(metric.WithTopN(10), metric.WithRagged(true))
	if err != nil {
		t.Fatal(err)
	}
	vs := s.valSet
	mask := vs.Mask()
	for start := 0; start < vs.Queries; start += tinyBatch {
		idx := make([]int, tinyBatch)
		for i := range idx {
			idx[i] = start + i
		}
		x, y, mk := vs.Gather(idx, mask)
		out, err := exec.Exec(tensors.FromFlatDataAndDimensions(x, tinyBatch, vs.Width, vs.Features))
		if err != nil {
			t.Fatal(err)
		}
		scores := tensors.MustCopyFlatData[float32](out[0])
		w := make([]float32, len(mk))
		for i, ok := range mk {
			if ok {
				w[i] = 1
			}
		}
		labels, err := tensor.Dense(y, tinyBatch, vs.Width)
		if err != nil {
			t.Fatal(err)
		}
		preds, err := tensor.Dense(scores, tinyBatch, vs.Width)
		if err != nil {
			t.Fatal(err)
		}
		wl, err := tensor.Dense(w, tinyBatch, vs.Width)
		if err != nil {
			t.Fatal(err)
		}
		if err := refDense.Update(labels, preds, tensor.PerItem(wl)); err != nil {
			t.Fatal(err)
		}

		var rl, rp [][]float32
		for b, q := range idx {
			n := vs.Lengths[q]
			rl = append(rl, y[b*vs.Width:b*vs.Width+n])
			rp = append(rp, scores[b*vs.Width:b*vs.Width+n])
		}
		rlabels, err := tensor.RaggedRows(rl)
		if err != nil {
			t.Fatal(err)
		}
		rpreds, err := tensor.RaggedRows(rp)
		if err != nil {
			t.Fatal(err)
		}
		if err := refRagged.Update(rlabels, rpreds, tensor.Weights{}); err != nil {
			t.Fatal(err)
		}
	}
	return refDense.Result(), refRagged.Result()
}

// A tiny linear ranker learns: MAP@10 reported by the evaluator rises by
// more than 0.2 over the untrained model, and the reported value is the
// one the core metric computes directly on the same scores.
func TestEvaluatorTrainsAndReports(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	var log bytes.Buffer
	ev, err := Attach(stdctx.Background(), s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 10, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if name, value := ev.ProgressMetric(); name != "Validation MAP@10" || value != "pending" {
		t.Errorf("ProgressMetric before any evaluation = %q, %q", name, value)
	}
	before, err := ev.Evaluate()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.loop.RunSteps(s.train, 60); err != nil {
		t.Fatal(err)
	}
	h := ev.History()
	var steps []int
	for _, e := range h {
		steps = append(steps, e.Step)
	}
	if want := []int{0, 10, 20, 30, 40, 50, 60}; !slices.Equal(steps, want) {
		t.Fatalf("evaluated after steps %v, want %v", steps, want)
	}
	last := h[len(h)-1]
	t.Logf("validation MAP@10: untrained %.4f, after 60 steps %.4f", before.Value, last.Value)
	const margin = 0.2
	if last.Value < before.Value+margin {
		t.Errorf("MAP@10 after training %.4f does not beat the untrained %.4f by %.2f", last.Value, before.Value, margin)
	}
	dense, ragged := directMAP(t, s)
	if last.Value != dense {
		t.Errorf("evaluator reported %v, the core metric on the same scores gives %v", last.Value, dense)
	}
	if math.Abs(last.Value-ragged) > 1e-6 {
		t.Errorf("evaluator reported %v, the ragged core metric on the same scores gives %v", last.Value, ragged)
	}
	name, value := ev.ProgressMetric()
	best, _ := ev.Best()
	wantValue := fmt.Sprintf("%.4f (best %.4f at step %d)", last.Value, best.Value, best.Step)
	if name != "Validation MAP@10" || value != wantValue {
		t.Errorf("ProgressMetric = %q, %q; want %q, %q", name, value, "Validation MAP@10", wantValue)
	}
	if lines := strings.Count(log.String(), "validation MAP@10 = "); lines != len(h) {
		t.Errorf("log has %d evaluation lines, want %d:\n%s", lines, len(h), log.String())
	}
	if ev.Stopped() {
		t.Error("Stopped() = true without patience")
	}
}

// With a learning rate of 0 the model never changes, so MAP is flat: an
// adapters.EarlyStopping with patience 2 asks to stop at the third
// evaluation, and RunSteps ends there normally (OnEnd hooks run, no error).
// The callbacks get the MAP and the batch loss of the step.
func TestEvaluatorStopsOnPlateau(t *testing.T) {
	s := newTrainSetup(t, 0)
	saves := 0
	es, err := adapters.NewEarlyStopping(s.m.ValidationKey(), adapters.WithHook(adapters.StepEnd), adapters.WithPatience(2),
		adapters.WithRestoreBest(func(adapters.Record) error { saves++; return nil }, nil))
	if err != nil {
		t.Fatal(err)
	}
	hist := adapters.NewHistory()
	ev, err := Attach(stdctx.Background(), s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 5,
		Callbacks: []adapters.Callback{es, hist}})
	if err != nil {
		t.Fatal(err)
	}
	ended := false
	s.loop.OnEnd("test", 10, func(*train.Loop, []*tensors.Tensor) error { ended = true; return nil })
	var losses []float64
	s.loop.OnStep("test", 10, func(_ *train.Loop, m []*tensors.Tensor) error {
		losses = append(losses, float64(m[0].Value().(float32)))
		return nil
	})
	if _, err := s.loop.RunSteps(s.train, 100); err != nil {
		t.Fatalf("RunSteps: %v", err)
	}
	if !ev.Stopped() || !ended {
		t.Errorf("Stopped() = %v, OnEnd ran = %v; want both true", ev.Stopped(), ended)
	}
	if s.loop.LoopStep != 15 {
		t.Errorf("loop stopped after %d steps, want 15", s.loop.LoopStep)
	}
	h := ev.History()
	if len(h) != 3 || h[1].Value != h[0].Value || h[2].Value != h[0].Value {
		t.Errorf("history %+v, want 3 equal values", h)
	}
	if at, ok := es.Stopped(); !ok || at.Step != 15 {
		t.Errorf("EarlyStopping.Stopped() = %+v, %v; want step 15", at, ok)
	}
	if saves != 1 {
		t.Errorf("EarlyStopping saved %d times, want 1", saves)
	}
	events := hist.Events()
	if len(events) != 3 || len(losses) != 15 {
		t.Fatalf("%d events and %d steps, want 3 and 15", len(events), len(losses))
	}
	for i, e := range events {
		if e.Hook != adapters.StepEnd || e.Step != 5*(i+1) || e.Metrics[s.m.ValidationKey()] != h[i].Value ||
			e.Metrics["loss"] != losses[e.Step-1] || len(e.Metrics) != 2 {
			t.Errorf("event %d = %+v; want step %d, %s %v, loss %v", i, e, 5*(i+1), s.m.ValidationKey(), h[i].Value, losses[e.Step-1])
		}
	}
}

// RunEpochs ignores Loop.EndStep, so there the evaluator stops the loop
// with ErrEarlyStop.
func TestEvaluatorStopsRunEpochs(t *testing.T) {
	s := newTrainSetup(t, 0)
	finite, err := ltrsynth.NewDataset("train-finite", s.valSet, tinyBatch, false, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	es, err := adapters.NewEarlyStopping(s.m.ValidationKey(), adapters.WithHook(adapters.StepEnd), adapters.WithPatience(1))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := Attach(stdctx.Background(), s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 2, Callbacks: []adapters.Callback{es}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.loop.RunEpochs(finite, 50)
	if !errors.Is(err, ErrEarlyStop) {
		t.Fatalf("RunEpochs error = %v, want one wrapping ErrEarlyStop", err)
	}
	if !ev.Stopped() || s.loop.LoopStep != 3 {
		t.Errorf("Stopped() = %v at step %d, want true at step 3 (evaluations after steps 2 and 4)", ev.Stopped(), s.loop.LoopStep)
	}
}

// failingCallback returns an error at its first event.
type failingCallback struct{ adapters.NopCallback }

func (failingCallback) OnStepEnd(adapters.Event) (adapters.Action, error) {
	return adapters.Stop, errors.New("disk full")
}

func TestEvaluatorCallbackError(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	if _, err := Attach(stdctx.Background(), s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 4,
		Callbacks: []adapters.Callback{failingCallback{}}}); err != nil {
		t.Fatal(err)
	}
	_, err := s.loop.RunSteps(s.train, 10)
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), "after step 4") {
		t.Fatalf("RunSteps error = %v, want the callback's error after step 4", err)
	}
}

// A validation batch the metric cannot read aborts the loop with an error
// that names both shapes.
func TestEvaluatorReportsEvalErrors(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	bad := &fixedDataset{name: "bad-validation", batches: []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
		x := make([]float32, tinyBatch*tinyParams.MaxLen*tinyParams.Features)
		return []*tensors.Tensor{tensors.FromFlatDataAndDimensions(x, tinyBatch, tinyParams.MaxLen, tinyParams.Features)},
			[]*tensors.Tensor{
				tensors.FromFlatDataAndDimensions(make([]float32, tinyBatch*(tinyParams.MaxLen+1)), tinyBatch, tinyParams.MaxLen+1),
				tensors.FromFlatDataAndDimensions(make([]bool, tinyBatch*tinyParams.MaxLen), tinyBatch, tinyParams.MaxLen),
			}
	}}}
	if _, err := Attach(stdctx.Background(), s.loop, Config{Validation: bad, Metric: s.m, EveryNSteps: 3}); err != nil {
		t.Fatal(err)
	}
	_, err := s.loop.RunSteps(s.train, 10)
	if err == nil {
		t.Fatal("RunSteps succeeded with a bad validation set")
	}
	for _, want := range []string{"bad-validation", "after step 3", "[16 13]", "[16 12]"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
}

func TestEvaluatorContextCancel(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	ctx, cancel := stdctx.WithCancel(stdctx.Background())
	if _, err := Attach(ctx, s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 5}); err != nil {
		t.Fatal(err)
	}
	s.loop.OnStep("cancel", 0, func(l *train.Loop, _ []*tensors.Tensor) error {
		if l.LoopStep == 6 {
			cancel()
		}
		return nil
	})
	_, err := s.loop.RunSteps(s.train, 100)
	if !errors.Is(err, stdctx.Canceled) {
		t.Fatalf("RunSteps error = %v, want one wrapping context.Canceled", err)
	}
	if s.loop.LoopStep != 7 {
		t.Errorf("loop stopped at step %d, want 7 (the step after the cancel)", s.loop.LoopStep)
	}
}

func TestAttachConfig(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	other, err := NewMeanAveragePrecision()
	if err != nil {
		t.Fatal(err)
	}
	ok := Config{Validation: s.val, Metric: s.m, EveryNSteps: 1}
	tests := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no validation", func(c *Config) { c.Validation = nil }, "Validation"},
		{"no metric", func(c *Config) { c.Metric = nil }, "Metric is nil"},
		{"metric not in trainer", func(c *Config) { c.Metric = other }, "not among"},
		{"zero every", func(c *Config) { c.EveryNSteps = 0 }, "EveryNSteps is 0"},
		{"nil callback", func(c *Config) { c.Callbacks = []adapters.Callback{adapters.NewHistory(), nil} }, "Callbacks[1] is nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := ok
			tc.edit(&c)
			_, err := Attach(stdctx.Background(), s.loop, c)
			if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Attach error = %v, want ErrConfig mentioning %q", err, tc.want)
			}
		})
	}
}

// A run whose last step is not a multiple of EveryNSteps is evaluated once
// more at its end.
func TestEvaluatorEvaluatesLastStep(t *testing.T) {
	s := newTrainSetup(t, 0.1)
	ev, err := Attach(stdctx.Background(), s.loop, Config{Validation: s.val, Metric: s.m, EveryNSteps: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.loop.RunSteps(s.train, 25); err != nil {
		t.Fatal(err)
	}
	var steps []int
	for _, e := range ev.History() {
		steps = append(steps, e.Step)
	}
	if want := []int{10, 20, 25}; !slices.Equal(steps, want) {
		t.Errorf("evaluated after steps %v, want %v", steps, want)
	}
}
