package main

import (
	"context"
	"fmt"
	"io"
	"iter"
	"math"
	"math/rand/v2"
	"time"

	"github.com/rankmetrics/rankmetrics/adapters"
	rmgorgonia "github.com/rankmetrics/rankmetrics/adapters/gorgonia"
	"github.com/rankmetrics/rankmetrics/internal/ltrdata"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
)

// config holds the training settings (the command-line flags).
type config struct {
	model    string
	hidden   int
	lists    int // lists per batch
	epochs   int
	patience int
	lr       float64
	seed     uint64
	topn     int
	alpha    float64 // level of the paired t-test of validation epochs
}

func defaultConfig() config {
	return config{model: "mlp", hidden: 32, lists: 16, epochs: 50, patience: 5, lr: 0.002, seed: 1, topn: 10, alpha: 0.05}
}

// data holds the splits; test may be nil.
type data struct {
	train, valid, test *ltrdata.Dataset
}

// epochStats is what one epoch produced.
type epochStats struct {
	loss, valMAP       float64
	valCI              string // valMAP with its t interval over the validation queries
	trainTook, valTook time.Duration
}

// result summarises a training run.
type result struct {
	metricKey string
	untrained float64 // validation MAP before training
	epochs    []epochStats
	best      adapters.Record
	stopped   bool
	test      float64 // test MAP with the best weights; NaN without a test split
	// untrainedCI, bestCI and testCI are the MAPs with their t intervals
	// over the queries (adapters.FormatMetric).
	untrainedCI, bestCI, testCI string
	history                     *adapters.History
	// sigBest is the last epoch that beat the best one significantly
	// (paired t-test over the validation queries at config.alpha), and
	// notSignificant the number of epochs that beat it in mean only.
	sigBest        adapters.Record
	notSignificant int
}

// perEpoch returns the mean training and validation time of an epoch.
func (r *result) perEpoch() (train, valid time.Duration) {
	for _, e := range r.epochs {
		train += e.trainTook
		valid += e.valTook
	}
	n := time.Duration(max(len(r.epochs), 1))
	return train / n, valid / n
}

// trainer owns the model, the batch buffers and the evaluator.
type trainer struct {
	cfg   config
	m     *model
	b     *batcher
	ev    *rmgorgonia.Evaluator
	pq    *adapters.PerQuery // the validation MAP, recording every query's AP
	key   string
	shuf  *rand.Rand
	order []ltrdata.Query
}

func newTrainer(cfg config, d data) (*trainer, error) {
	if cfg.lists < 1 {
		return nil, fmt.Errorf("-batch %d: want >= 1", cfg.lists)
	}
	if !(cfg.lr > 0) {
		return nil, fmt.Errorf("-lr %v: want > 0", cfg.lr)
	}
	if cfg.topn < 1 {
		return nil, fmt.Errorf("-topn %d: want >= 1", cfg.topn)
	}
	if !(cfg.alpha > 0 && cfg.alpha < 1) {
		return nil, fmt.Errorf("-alpha %v: want 0 < alpha < 1", cfg.alpha)
	}
	for _, s := range []struct {
		name string
		d    *ltrdata.Dataset
	}{{"training", d.train}, {"validation", d.valid}} {
		if s.d == nil || len(s.d.Queries) == 0 {
			return nil, fmt.Errorf("the %s split has no queries", s.name)
		}
	}
	docs := max(d.train.MaxLen(), d.valid.MaxLen())
	if d.test != nil {
		docs = max(docs, d.test.MaxLen())
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 0x5eed))
	m, err := newModel(cfg.model, cfg.hidden, cfg.lists, docs, d.train.NumFeatures, cfg.lr, rng)
	if err != nil {
		return nil, err
	}
	b, err := newBatcher(cfg.lists, docs, d.train.NumFeatures, newStandardizer(d.train))
	if err != nil {
		m.close()
		return nil, err
	}
	name := fmt.Sprintf("map@%d", cfg.topn)
	mapMetric, err := metric.NewMeanAveragePrecision(metric.WithTopN(cfg.topn), metric.WithRagged(true), metric.WithName(name))
	if err != nil {
		m.close()
		return nil, err
	}
	pq, err := adapters.NewPerQuery(mapMetric)
	if err != nil {
		m.close()
		return nil, err
	}
	ev, err := rmgorgonia.NewEvaluator(rmgorgonia.NewScoringVM(m.scores), m.scores, rmgorgonia.BindNodes(m.x, nil), []metric.Metric{pq})
	if err != nil {
		m.close()
		return nil, err
	}
	return &trainer{
		cfg: cfg, m: m, b: b, ev: ev, pq: pq, key: ev.Keys()[0],
		shuf:  rand.New(rand.NewPCG(cfg.seed, 0x5a17)),
		order: append([]ltrdata.Query(nil), d.train.Queries...),
	}, nil
}

// batches yields the evaluation batches of d, filled one at a time into the
// trainer's buffers.
func (t *trainer) batches(d *ltrdata.Dataset) iter.Seq[rmgorgonia.Batch] {
	return func(yield func(rmgorgonia.Batch) bool) {
		for i := range t.b.numBatches(len(d.Queries)) {
			qs := t.b.chunk(d.Queries, i)
			t.b.fill(qs)
			b := rmgorgonia.Batch{
				Inputs:  rmgorgonia.Feed{Input: t.b.xT},
				Labels:  t.b.labelsL,
				Lengths: t.b.lengths,
			}
			if len(qs) < t.b.lists {
				b.NumLists = len(qs)
			}
			if !yield(b) {
				return
			}
		}
	}
}

// evaluate returns the MAP of the current weights on d.
func (t *trainer) evaluate(ctx context.Context, d *ltrdata.Dataset) (float64, error) {
	m, err := t.ev.Evaluate(ctx, t.batches(d))
	if err != nil {
		return 0, err
	}
	return m[t.key], nil
}

// evaluateCI returns the metrics of the current weights on d with the
// (1 - alpha) t interval of the MAP over d's queries (adapters.WithInterval).
func (t *trainer) evaluateCI(ctx context.Context, d *ltrdata.Dataset) (map[string]float64, error) {
	m, err := t.ev.Evaluate(ctx, t.batches(d))
	if err != nil {
		return nil, err
	}
	return adapters.WithInterval(m, t.key, t.pq.Values(), t.cfg.alpha)
}

// epoch trains on every training query once, in a new random order, and
// returns the mean loss over the steps that had something to learn from.
func (t *trainer) epoch(ctx context.Context, bar *progressBar) (float64, error) {
	t.shuf.Shuffle(len(t.order), func(i, j int) { t.order[i], t.order[j] = t.order[j], t.order[i] })
	n := t.b.numBatches(len(t.order))
	total, steps := 0.0, 0
	for i := range n {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		withGain := t.b.fill(t.b.chunk(t.order, i))
		loss, err := t.m.step(t.b, withGain)
		if err != nil {
			return 0, fmt.Errorf("step %d: %w", i+1, err)
		}
		if withGain > 0 {
			total += loss
			steps++
		}
		bar.update(i+1, n, total/math.Max(float64(steps), 1))
	}
	if steps == 0 {
		return 0, fmt.Errorf("no training list has a positive label")
	}
	return total / float64(steps), nil
}

// train runs the whole job: untrained evaluation, epochs with early
// stopping, restoring the best weights and the test evaluation. It writes a
// line per epoch to out and the progress bar to progress (nil: none).
func train(ctx context.Context, cfg config, d data, out, progress io.Writer) (*result, error) {
	t, err := newTrainer(cfg, d)
	if err != nil {
		return nil, err
	}
	defer t.m.close()
	res := &result{metricKey: t.key, test: math.NaN(), history: adapters.NewHistory()}
	label := fmt.Sprintf("MAP@%d", cfg.topn)

	untrained, err := t.evaluateCI(ctx, d.valid)
	if err != nil {
		return nil, fmt.Errorf("evaluating the untrained model: %w", err)
	}
	res.untrained, res.untrainedCI = untrained[t.key], adapters.FormatMetric(untrained, t.key)
	fmt.Fprintf(out, "epoch %3d  %-12s  val %s %s  (untrained)\n", 0, "", label, res.untrainedCI)

	var best [][]float32
	es, err := adapters.NewEarlyStopping(t.key, adapters.WithPatience(cfg.patience), adapters.WithRestoreBest(
		func(adapters.Record) error { best = t.m.snapshot(); return nil },
		func(adapters.Record) error { t.m.restore(best); return nil }))
	if err != nil {
		return nil, err
	}
	// A second opinion on "better": an epoch counts only when a paired
	// t-test over the validation queries says it beats the best one.
	sig, err := adapters.NewBestCheckpoint(t.key, func(r adapters.Record) error { res.sigBest = r; return nil },
		adapters.WithSignificance(func(adapters.Event) ([]float64, error) { return t.pq.Values(), nil }, significance.PairedT, cfg.alpha))
	if err != nil {
		return nil, err
	}
	callbacks := adapters.Callbacks{es, sig, res.history}

	step := 0
	for epoch := 1; epoch <= cfg.epochs; epoch++ {
		t0 := time.Now()
		bar := newProgressBar(progress, fmt.Sprintf("epoch %d/%d", epoch, cfg.epochs))
		loss, err := t.epoch(ctx, bar)
		bar.done()
		if err != nil {
			return nil, fmt.Errorf("epoch %d: %w", epoch, err)
		}
		step += t.b.numBatches(len(d.train.Queries))
		t1 := time.Now()
		metrics, err := t.evaluateCI(ctx, d.valid)
		if err != nil {
			return nil, fmt.Errorf("epoch %d: validation: %w", epoch, err)
		}
		metrics["loss"] = loss
		st := epochStats{loss: loss, valMAP: metrics[t.key], valCI: adapters.FormatMetric(metrics, t.key), trainTook: t1.Sub(t0), valTook: time.Since(t1)}
		res.epochs = append(res.epochs, st)
		before := sig.NotSignificant()
		act, err := callbacks.EpochEnd(epoch, step, metrics)
		if err != nil {
			return nil, err
		}
		note := ""
		if sig.NotSignificant() > before {
			note = fmt.Sprintf("  better in mean than epoch %d, not significantly (paired t, p > %g)", res.sigBest.Epoch, cfg.alpha)
		}
		fmt.Fprintf(out, "epoch %3d  loss %-7.4f  val %s %s  (train %.3fs, validation %.3fs)%s\n",
			epoch, st.loss, label, st.valCI, st.trainTook.Seconds(), st.valTook.Seconds(), note)
		if act == adapters.Stop {
			res.stopped = true
			break
		}
	}
	if err := es.RestoreBest(); err != nil {
		return nil, err
	}
	res.best, _ = es.Best()
	res.notSignificant = sig.NotSignificant()
	if res.best.Epoch >= 1 && res.best.Epoch <= len(res.epochs) {
		res.bestCI = res.epochs[res.best.Epoch-1].valCI
	}
	if d.test != nil && len(d.test.Queries) > 0 {
		m, err := t.evaluateCI(ctx, d.test)
		if err != nil {
			return nil, fmt.Errorf("test evaluation: %w", err)
		}
		res.test, res.testCI = m[t.key], adapters.FormatMetric(m, t.key)
	}
	return res, nil
}
