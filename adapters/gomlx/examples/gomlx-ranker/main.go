// Command gomlx-ranker trains a small neural ranker with GoMLX on the pure
// Go backend and monitors validation MAP@10 with rankmetrics.
//
// The data comes from a documented latent model (package
// internal/ltrsynth of this module): lists of 5 to 30 documents with 12
// noisy features and graded labels 0 to 4, generated from a seed, never
// downloaded. The model is a per-document MLP trained with a listwise
// softmax loss. Every -every steps the evaluator scores the validation set,
// prints MAP@10 and shows it in the progress bar; it keeps a copy of the
// weights with the best MAP@10, stops after -patience evaluations without
// improvement (adapters.EarlyStopping), and the best weights are restored
// at the end.
//
// Run it from adapters/gomlx:
//
//	GOMLX_BACKEND=go go run ./examples/gomlx-ranker
package main

import (
	stdctx "context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/gomlx/gomlx/backends"
	_ "github.com/gomlx/gomlx/backends/simplego" // pure Go backend, named "go" in GOMLX_BACKEND
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
	"github.com/gomlx/gomlx/pkg/ml/train"
	"github.com/gomlx/gomlx/pkg/ml/train/metrics"
	"github.com/gomlx/gomlx/pkg/ml/train/optimizers"
	"github.com/gomlx/gomlx/ui/commandline"

	"github.com/rankmetrics/rankmetrics/adapters"
	rmgomlx "github.com/rankmetrics/rankmetrics/adapters/gomlx"
	"github.com/rankmetrics/rankmetrics/adapters/gomlx/internal/ltrsynth"
	"github.com/rankmetrics/rankmetrics/adapters/gomlx/internal/ranker"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// options are the command-line settings.
type options struct {
	data         ltrsynth.Params
	valQueries   int
	batch        int
	hidden       []int
	learningRate float64
	steps        int
	every        int
	patience     int
	minDelta     float64
	topN         int
	progressBar  bool
	historyPath  string
}

func defaultOptions() options {
	return options{
		data: ltrsynth.Params{
			Queries: 1024, MinLen: 5, MaxLen: 30, Features: 12,
			FeatureNoise: 0.5, LabelNoise: 0.3, Curvature: 1, Seed: 2024,
		},
		valQueries:   256,
		batch:        32,
		hidden:       []int{32},
		learningRate: 0.003,
		steps:        3000,
		every:        100,
		patience:     5,
		minDelta:     0.001,
		topN:         10,
	}
}

func main() {
	o := defaultOptions()
	var hidden string
	flag.IntVar(&o.data.Queries, "queries", o.data.Queries, "training lists")
	flag.IntVar(&o.valQueries, "val-queries", o.valQueries, "validation lists")
	flag.Uint64Var(&o.data.Seed, "seed", o.data.Seed, "seed of the generated data")
	flag.IntVar(&o.batch, "batch", o.batch, "lists per batch; must divide -queries and -val-queries")
	flag.StringVar(&hidden, "hidden", "32", "comma-separated hidden layer widths; empty for a linear ranker")
	flag.Float64Var(&o.learningRate, "lr", o.learningRate, "Adam learning rate")
	flag.IntVar(&o.steps, "steps", o.steps, "maximum training steps")
	flag.IntVar(&o.every, "every", o.every, "evaluate every N steps")
	flag.IntVar(&o.patience, "patience", o.patience, "evaluations without improvement before stopping (>= 1)")
	flag.StringVar(&o.historyPath, "history", "", "write every evaluation to this CSV file")
	flag.Float64Var(&o.minDelta, "min-delta", o.minDelta, "smallest MAP rise that counts as an improvement")
	flag.IntVar(&o.topN, "topn", o.topN, "MAP cutoff")
	flag.BoolVar(&o.progressBar, "progress", isTerminal(os.Stdout), "show GoMLX's progress bar (default: when stdout is a terminal)")
	flag.Parse()
	var err error
	if o.patience < 1 {
		fmt.Fprintln(os.Stderr, "gomlx-ranker: -patience must be at least 1")
		os.Exit(2)
	}
	if o.hidden, err = parseWidths(hidden); err != nil {
		fmt.Fprintln(os.Stderr, "gomlx-ranker:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(stdctx.Background(), os.Interrupt)
	defer stop()
	if _, err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gomlx-ranker:", err)
		os.Exit(1)
	}
}

func parseWidths(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for i, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-hidden: item %d is %q, want a positive integer", i, f)
		}
		out = append(out, n)
	}
	return out, nil
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// summary is what a run found; the test checks it.
type summary struct {
	before, best, restored, oracle float64
	bestStep, steps                int
	stopped                        bool
}

func run(ctx stdctx.Context, o options, out io.Writer) (summary, error) {
	var s summary
	trainSet, valSet, err := ltrsynth.Split(o.data, o.valQueries)
	if err != nil {
		return s, err
	}
	trainDS, err := ltrsynth.NewDataset("train", trainSet, o.batch, true, true, o.data.Seed)
	if err != nil {
		return s, err
	}
	valDS, err := ltrsynth.NewDataset("validation", valSet, o.batch, false, false, 0)
	if err != nil {
		return s, err
	}
	backend, err := backends.New()
	if err != nil {
		return s, fmt.Errorf("GoMLX backend: %w", err)
	}
	fmt.Fprintf(out, "backend: %s\n", backend.Description())
	fmt.Fprintf(out, "data: %d training and %d validation lists of %d-%d documents, %d features; validation labels 0-4: %v\n",
		trainSet.Queries, valSet.Queries, o.data.MinLen, o.data.MaxLen, o.data.Features, labelCounts(valSet))
	if s.oracle, err = oracleMAP(valSet, o.topN); err != nil {
		return s, err
	}

	m, err := rmgomlx.NewMeanAveragePrecision(metric.WithTopN(o.topN))
	if err != nil {
		return s, err
	}
	gctx := context.New()
	gctx.SetParam(context.ParamInitialSeed, int64(o.data.Seed))
	trainer := train.NewTrainer(backend, gctx, ranker.Model(o.hidden...), ranker.ListwiseSoftmaxLoss,
		optimizers.Adam().LearningRate(o.learningRate).Done(), nil, []metrics.Interface{m})
	loop := train.NewLoop(trainer)

	// Early stopping from the shared adapters package: it snapshots the
	// weights at every new best and restores them when it stops.
	var best map[string]*tensors.Tensor
	es, err := adapters.NewEarlyStopping(m.ValidationKey(),
		adapters.WithHook(adapters.StepEnd), adapters.WithPatience(o.patience), adapters.WithMinDelta(o.minDelta),
		adapters.WithRestoreBest(
			func(adapters.Record) error {
				var err error
				best, err = snapshot(gctx)
				return err
			},
			func(adapters.Record) error { return restore(gctx, best) }))
	if err != nil {
		return s, err
	}
	hist := adapters.NewHistory()
	logTo := out
	if o.progressBar {
		logTo = nil // the progress bar shows the value
	}
	ev, err := rmgomlx.Attach(ctx, loop, rmgomlx.Config{
		Validation: valDS, Metric: m, EveryNSteps: o.every, Log: logTo,
		Callbacks: []adapters.Callback{es, hist},
	})
	if err != nil {
		return s, err
	}
	if o.progressBar {
		commandline.AttachProgressBar(loop, ev.ProgressMetric)
	}

	first, err := ev.Evaluate()
	if err != nil {
		return s, err
	}
	s.before = first.Value
	fmt.Fprintf(out, "untrained model: validation %s = %.4f (ranking by the hidden noise-free relevance gives %.4f)\n",
		m.ShortName(), s.before, s.oracle)

	start := time.Now()
	if _, err := loop.RunSteps(trainDS, o.steps); err != nil {
		return s, err
	}
	elapsed := time.Since(start)
	s.steps, s.stopped = loop.LoopStep, ev.Stopped()
	b, _ := es.Best()
	s.best, s.bestStep = b.Value, b.Step
	var evalTime time.Duration
	for _, e := range ev.History() {
		evalTime += e.Duration
	}
	why := "step limit"
	if s.stopped {
		why = "plateau"
	}
	fmt.Fprintf(out, "stopped after %d steps (%s) in %s: %s per training step (median), %s per evaluation (mean)\n",
		s.steps, why, elapsed.Round(time.Millisecond), loop.MedianTrainStepDuration().Round(time.Microsecond),
		(evalTime / time.Duration(len(ev.History()))).Round(time.Microsecond))
	if o.historyPath != "" {
		if err := writeHistory(o.historyPath, hist); err != nil {
			return s, err
		}
	}

	// Early stopping restored the best weights if it fired; otherwise do it.
	if err := es.RestoreBest(); err != nil {
		return s, err
	}
	if _, err := trainer.Eval(valDS); err != nil {
		return s, err
	}
	if err := m.Err(); err != nil {
		return s, err
	}
	s.restored = m.Result()
	fmt.Fprintf(out, "best validation %s = %.4f at step %d (untrained %.4f); restored those weights: %s = %.4f\n",
		m.ShortName(), s.best, s.bestStep, s.before, m.ShortName(), s.restored)
	return s, nil
}

// writeHistory writes every evaluation as CSV.
func writeHistory(path string, h *adapters.History) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return h.WriteCSV(f)
}

// snapshot copies the trainable variables to host tensors.
func snapshot(ctx *context.Context) (map[string]*tensors.Tensor, error) {
	out := map[string]*tensors.Tensor{}
	for v := range ctx.IterVariables() {
		if !v.Trainable {
			continue
		}
		t, err := v.Value()
		if err != nil {
			return nil, fmt.Errorf("reading variable %s: %w", v.ScopeAndName(), err)
		}
		c, err := t.LocalClone()
		if err != nil {
			return nil, fmt.Errorf("copying variable %s: %w", v.ScopeAndName(), err)
		}
		out[v.ScopeAndName()] = c
	}
	return out, nil
}

// restore sets the variables saved by snapshot.
func restore(ctx *context.Context, saved map[string]*tensors.Tensor) error {
	n := 0
	for v := range ctx.IterVariables() {
		t, ok := saved[v.ScopeAndName()]
		if !ok {
			continue
		}
		c, err := t.LocalClone()
		if err != nil {
			return fmt.Errorf("copying variable %s: %w", v.ScopeAndName(), err)
		}
		if err := v.SetValue(c); err != nil {
			return fmt.Errorf("restoring variable %s: %w", v.ScopeAndName(), err)
		}
		n++
	}
	if n != len(saved) {
		return errors.New("restoring the best weights: some saved variables no longer exist")
	}
	return nil
}

// oracleMAP is the MAP of ranking every validation list by the noise-free
// latent relevance, which the model never sees: a ceiling for reference.
func oracleMAP(s *ltrsynth.Set, topN int) (float64, error) {
	m, err := metric.NewMeanAveragePrecision(metric.WithTopN(topN), metric.WithRagged(true))
	if err != nil {
		return 0, err
	}
	var labels, scores [][]float32
	for q, n := range s.Lengths {
		labels = append(labels, s.Labels[q*s.Width:q*s.Width+n])
		scores = append(scores, s.Latent[q*s.Width:q*s.Width+n])
	}
	l, err := tensor.RaggedRows(labels)
	if err != nil {
		return 0, err
	}
	p, err := tensor.RaggedRows(scores)
	if err != nil {
		return 0, err
	}
	if err := m.Update(l, p, tensor.Weights{}); err != nil {
		return 0, err
	}
	return m.Result(), nil
}

func labelCounts(s *ltrsynth.Set) [5]int {
	var c [5]int
	for q, n := range s.Lengths {
		for _, y := range s.Labels[q*s.Width : q*s.Width+n] {
			c[int(y)]++
		}
	}
	return c
}
