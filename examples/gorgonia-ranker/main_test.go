package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	gt "gorgonia.org/tensor"

	"github.com/rankmetrics/rankmetrics/internal/ltrdata"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// learnMargin is the stated margin: after training, validation MAP@10 must
// exceed the untrained model's by at least this much (absolute). On the
// embedded data the gain is about 0.46 (0.21 to 0.67).
const learnMargin = 0.25

func embedded() data {
	s := ltrdata.Default()
	return data{train: s.Train, valid: s.Validation, test: s.Test}
}

// TestLearning trains with fixed seeds and checks that
//   - validation MAP@10 beats the untrained model by learnMargin, and beats
//     the exact expected MAP@10 of a random ranking (computed by the metric's
//     Expected tie policy on all-equal scores);
//   - the MAP@10 reported through the Gorgonia adapter equals what
//     metric.MeanAveragePrecision computes directly on the same scores read
//     from the graph, and a naive AP@10 written here agrees to 1e-6.
func TestLearning(t *testing.T) {
	d := embedded()
	cfg := defaultConfig()
	tr, err := newTrainer(cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.m.close()
	ctx := context.Background()

	untrained, err := tr.evaluate(ctx, d.valid)
	if err != nil {
		t.Fatal(err)
	}
	random := randomRankingMAP(t, d.valid, cfg.topn)
	bar := newProgressBar(nil, "")
	for range 4 {
		if _, err := tr.epoch(ctx, bar); err != nil {
			t.Fatal(err)
		}
	}
	trained, err := tr.evaluate(ctx, d.valid)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("validation MAP@10: untrained %.4f, random ranking %.4f, after 4 epochs %.4f", untrained, random, trained)
	if trained < untrained+learnMargin {
		t.Errorf("trained MAP@10 %.4f does not beat the untrained %.4f by %.2f", trained, untrained, learnMargin)
	}
	if trained < random+learnMargin {
		t.Errorf("trained MAP@10 %.4f does not beat a random ranking (%.4f) by %.2f", trained, random, learnMargin)
	}

	// The same scores, read from the graph by hand, fed to the metric
	// directly in the same batches (the float32 accumulation depends on the
	// batching) and to a naive implementation.
	batchLabels, batchScores := scoreByHand(t, tr, d.valid)
	direct, err := metric.NewMeanAveragePrecision(metric.WithTopN(cfg.topn), metric.WithRagged(true))
	if err != nil {
		t.Fatal(err)
	}
	var labels, scores [][]float32
	for i := range batchLabels {
		if err := direct.Update(ragged(t, batchLabels[i]), ragged(t, batchScores[i]), tensor.Weights{}); err != nil {
			t.Fatal(err)
		}
		labels = append(labels, batchLabels[i]...)
		scores = append(scores, batchScores[i]...)
	}
	if got := direct.Result(); got != trained {
		t.Errorf("adapter MAP@10 %v != metric.MeanAveragePrecision on the same scores %v", trained, got)
	}
	if naive := naiveMAP(labels, scores, cfg.topn); math.Abs(naive-trained) > 1e-6 {
		t.Errorf("adapter MAP@10 %v, naive MAP@10 %v", trained, naive)
	}
}

// scoreByHand runs the scoring graph on every validation batch without the
// adapter and returns, batch by batch, the real lists' labels and a copy of
// their scores.
func scoreByHand(t *testing.T, tr *trainer, d *ltrdata.Dataset) (labels, scores [][][]float32) {
	t.Helper()
	vm := G.NewTapeMachine(tr.m.g.ExactSubgraphRoots(tr.m.scores))
	defer vm.Close()
	for b := range tr.batches(d) {
		vm.Reset()
		if err := G.Let(tr.m.x, b.Inputs.Input); err != nil {
			t.Fatal(err)
		}
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		s := tr.m.scores.Value().Data().([]float32)
		n := tr.b.lists
		if b.NumLists > 0 {
			n = b.NumLists
		}
		var bl, bs [][]float32
		for r := range n {
			k := b.Lengths[r]
			bs = append(bs, slices.Clone(s[r*tr.b.docs:r*tr.b.docs+k]))
			lab := make([]float32, k)
			for i := range k {
				lab[i] = float32(b.Labels.At(r, i))
			}
			bl = append(bl, lab)
		}
		labels, scores = append(labels, bl), append(scores, bs)
	}
	i := 0
	for _, bl := range labels {
		for _, l := range bl {
			q := d.Queries[i]
			if len(l) != q.Len() || float64(l[0]) != q.Labels[0] {
				t.Fatalf("list %d does not line up with query %s", i, q.ID)
			}
			i++
		}
	}
	if i != len(d.Queries) {
		t.Fatalf("scored %d lists, want %d", i, len(d.Queries))
	}
	return labels, scores
}

func ragged(t *testing.T, rows [][]float32) tensor.Lists {
	t.Helper()
	l, err := tensor.RaggedRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// naiveMAP is AP@n with TF-Ranking's conventions (relevant = label >= 1;
// the denominator counts all relevant items of the list; lists without
// relevant items count with AP 0), averaged over lists, in float64. It
// fails on tied scores, which the trained model does not produce.
func naiveMAP(labels, scores [][]float32, n int) float64 {
	total := 0.0
	for i := range labels {
		idx := make([]int, len(labels[i]))
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return scores[i][idx[a]] > scores[i][idx[b]] })
		rel := 0
		for _, l := range labels[i] {
			if l >= 1 {
				rel++
			}
		}
		hits, sum := 0, 0.0
		for k, j := range idx {
			if k >= n {
				break
			}
			if k > 0 && scores[i][j] == scores[i][idx[k-1]] {
				return math.NaN()
			}
			if labels[i][j] >= 1 {
				hits++
				sum += float64(hits) / float64(k+1)
			}
		}
		if rel > 0 {
			total += sum / float64(rel)
		}
	}
	return total / float64(len(labels))
}

// randomRankingMAP is the exact expected MAP@n of a uniformly random
// ranking: every score ties, and the Expected tie policy averages over all
// orders.
func randomRankingMAP(t *testing.T, d *ltrdata.Dataset, n int) float64 {
	t.Helper()
	m, err := metric.NewMeanAveragePrecision(metric.WithTopN(n), metric.WithRagged(true), metric.WithTies(metric.Expected))
	if err != nil {
		t.Fatal(err)
	}
	var labels, scores [][]float64
	for _, q := range d.Queries {
		labels = append(labels, q.Labels)
		scores = append(scores, make([]float64, q.Len()))
	}
	l, _ := tensor.RaggedRows(labels)
	s, _ := tensor.RaggedRows(scores)
	if err := m.Update(l, s, tensor.Weights{}); err != nil {
		t.Fatal(err)
	}
	return m.Result()
}

// TestTrainEndToEnd runs the whole job as main does, with a short patience,
// and checks the report and the early stopping.
func TestTrainEndToEnd(t *testing.T) {
	cfg := defaultConfig()
	cfg.patience = 1
	var out bytes.Buffer
	res, err := train(context.Background(), cfg, embedded(), &out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.stopped || len(res.epochs) >= cfg.epochs {
		t.Fatalf("early stopping did not fire with patience 1 (%d epochs)", len(res.epochs))
	}
	last := res.epochs[len(res.epochs)-1].valMAP
	prev := res.epochs[len(res.epochs)-2].valMAP
	if best := res.best.Value; last > best || prev > best || best != res.epochs[res.best.Epoch-1].valMAP {
		t.Fatalf("best %+v is not the maximum of the epochs %+v", res.best, res.epochs)
	}
	if res.best.Value < res.untrained+learnMargin || math.IsNaN(res.test) || res.test < res.untrained+learnMargin {
		t.Fatalf("best %v, test %v, untrained %v", res.best.Value, res.test, res.untrained)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(res.epochs)+1 || !strings.Contains(lines[0], "(untrained)") {
		t.Fatalf("output:\n%s", out.String())
	}
	if got := res.history.Values(0, res.metricKey); len(got) != len(res.epochs) {
		t.Fatalf("history has %d values, want %d", len(got), len(res.epochs))
	}
}

// TestRestoreBestWeights checks that the weights left in the graph after
// training are those of the best epoch: evaluating them again gives the best
// epoch's validation MAP.
func TestRestoreBestWeights(t *testing.T) {
	cfg := defaultConfig()
	cfg.patience, cfg.epochs = 2, 12
	d := embedded()
	d.test = d.valid // the "test" evaluation then re-scores the validation set
	res, err := train(context.Background(), cfg, d, &bytes.Buffer{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.stopped || res.best.Epoch == len(res.epochs) {
		t.Fatalf("want a run that stops early after a better epoch (best %d of %d), so that weights are restored", res.best.Epoch, len(res.epochs))
	}
	if res.test != res.best.Value {
		t.Fatalf("MAP of the restored weights %v, want the best epoch's %v (epoch %d of %d)", res.test, res.best.Value, res.best.Epoch, len(res.epochs))
	}
}

func TestRunWithLETORFiles(t *testing.T) {
	c := ltrdata.DefaultConfig()
	c.Queries = 120
	s, err := ltrdata.Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	trainPath := filepath.Join(dir, "train.txt")
	testPath := filepath.Join(dir, "test.txt")
	if err := ltrdata.WriteFile(trainPath, s.Train); err != nil {
		t.Fatal(err)
	}
	if err := ltrdata.WriteFile(testPath, s.Test); err != nil {
		t.Fatal(err)
	}
	histPath := filepath.Join(dir, "history.json")
	var out, errOut bytes.Buffer
	args := []string{"-train", trainPath, "-test", testPath, "-epochs", "3", "-model", "linear", "-history", histPath, "-progress=false"}
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	// 72 training queries: the last 20% (15) are held out for validation.
	for _, want := range []string{"data: train.txt: train 57 queries", "validation 15 queries", "test 24 queries", "model: linear", "epoch   3", "best epoch", "significance: ", "paired t-test over 15 queries", "test MAP@10"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	raw, err := os.ReadFile(histPath)
	if err != nil {
		t.Fatal(err)
	}
	var hist []struct {
		Hook    string             `json:"hook"`
		Epoch   int                `json:"epoch"`
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal(raw, &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist) != 3 || hist[2].Epoch != 3 || hist[2].Hook != "epoch" {
		t.Fatalf("history %+v", hist)
	}
	if _, ok := hist[0].Metrics["val_map@10"]; !ok {
		t.Fatalf("history lacks val_map@10: %+v", hist[0])
	}
	// Each epoch's validation MAP comes with its t interval, in the
	// history and in the epoch's line.
	for _, h := range hist {
		v, lo, hi := h.Metrics["val_map@10"], h.Metrics["val_map@10_ci_low"], h.Metrics["val_map@10_ci_high"]
		if !(lo < v && v < hi) {
			t.Errorf("epoch %d: val_map@10 %v not inside its interval [%v, %v]", h.Epoch, v, lo, hi)
		}
		line := fmt.Sprintf("epoch %3d  loss", h.Epoch)
		want := fmt.Sprintf("val MAP@10 %.4f [%.4f, %.4f]", v, lo, hi)
		found := false
		for l := range strings.Lines(out.String()) {
			if strings.HasPrefix(l, line) {
				found = strings.Contains(l, want)
			}
		}
		if !found {
			t.Errorf("no line %q... with %q:\n%s", line, want, out.String())
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("1 qid:1 1:0.5\n0 qid:1 1:x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-model", "tree"}, `-model "tree": want linear or mlp`},
		{[]string{"-batch", "0"}, "-batch 0: want >= 1"},
		{[]string{"-lr", "-1"}, "-lr -1: want > 0"},
		{[]string{"-topn", "0"}, "-topn 0: want >= 1"},
		{[]string{"-valid", "x.txt"}, "-valid and -test need -train"},
		{[]string{"-train", bad}, "bad.txt:2: field 3 \"1:x\": feature 1: not a number"},
		{[]string{"-train", filepath.Join(dir, "missing.txt")}, "no such file or directory"},
		{[]string{"extra"}, `unexpected arguments ["extra"]`},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		err := run(context.Background(), append([]string{"-epochs", "1", "-progress=false"}, tc.args...), &out, &errOut)
		if err == nil || !strings.Contains(err.Error()+errOut.String(), tc.want) {
			t.Errorf("run(%q) = %v (stderr %q), want %q", tc.args, err, errOut.String(), tc.want)
		}
	}
}

func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := newProgressBar(&buf, "epoch 1/2")
	p.width = 10
	p.update(3, 10, 1.5)
	p.update(10, 10, 1.25)
	p.done()
	want := "\repoch 1/2 [===>      ] 3/10 loss 1.5000" +
		"\repoch 1/2 [==========] 10/10 loss 1.2500" +
		"\r" + strings.Repeat(" ", len("epoch 1/2 [==========] 10/10 loss 1.2500")) + "\r"
	if buf.String() != want {
		t.Fatalf("bar output %q, want %q", buf.String(), want)
	}
	newProgressBar(nil, "x").update(1, 2, 0) // a nil writer draws nothing
}

// TestLogSoftmaxRows checks the hand-built log-softmax against a direct
// float64 computation, on a row of ordinary scores, a row that is all
// padding, and a row whose first element is not its maximum (where
// Gorgonia's own LogSoftMax goes wrong).
func TestLogSoftmaxRows(t *testing.T) {
	in := []float64{1, 2, 3, 0.5, -1e4, -1e4, -1e4, -1e4, -1e4, 40, 3, 2}
	g := G.NewGraph()
	s := G.NewMatrix(g, gt.Float32, G.WithShape(3, 4), G.WithName("s"))
	out, err := logSoftmaxRows(s)
	if err != nil {
		t.Fatal(err)
	}
	f := make([]float32, len(in))
	for i, v := range in {
		f[i] = float32(v)
	}
	if err := G.Let(s, gt.New(gt.WithShape(3, 4), gt.WithBacking(f))); err != nil {
		t.Fatal(err)
	}
	vm := G.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	got := out.Value().Data().([]float32)
	for r := range 3 {
		row := in[r*4 : r*4+4]
		mx := slices.Max(row)
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(v - mx)
		}
		for i, v := range row {
			want := v - mx - math.Log(sum)
			if g := float64(got[r*4+i]); math.Abs(g-want) > 1e-4*math.Max(1, math.Abs(want)) {
				t.Errorf("row %d item %d: %v, want %v", r, i, g, want)
			}
		}
	}
}
