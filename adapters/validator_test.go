package adapters

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// rows is the input of the test scoring function: the predictions
// themselves, so the tests control exactly what the metric sees.
type rows = [][]float32

func echoScore(_ context.Context, b Batch[rows]) (tensor.Lists, error) {
	return tensor.DenseRows(b.Inputs)
}

func mustMAP(t *testing.T, opts ...metric.Option) *metric.MeanAveragePrecision {
	t.Helper()
	m, err := metric.NewMeanAveragePrecision(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func dense(t *testing.T, r [][]float32) tensor.Lists {
	t.Helper()
	l, err := tensor.DenseRows(r)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func ragged(t *testing.T, r [][]float32) tensor.Lists {
	t.Helper()
	l, err := tensor.RaggedRows(r)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(b)) }

// TF-Ranking's keras metrics_test: labels [[0,0,1],[0,1,2]], predictions
// [[1,3,2],[1,2,3]] give MAP 0.75 and MAP@1 0.25. The lists are fed in two
// batches of one list each; with unit weights the batching does not matter.
func TestValidatorTFCase(t *testing.T) {
	v, err := NewValidator(echoScore, []metric.Metric{mustMAP(t), mustMAP(t, metric.WithTopN(1), metric.WithName("map_1"))})
	if err != nil {
		t.Fatal(err)
	}
	batches := []Batch[rows]{
		{Inputs: rows{{1, 3, 2}}, Labels: dense(t, rows{{0, 0, 1}})},
		{Inputs: rows{{1, 2, 3}}, Labels: dense(t, rows{{0, 1, 2}})},
	}
	for run := range 2 { // a second Evaluate starts from reset metrics
		got, err := v.Evaluate(context.Background(), slices.Values(batches))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["val_mean_average_precision_metric"] != 0.75 || got["val_map_1"] != 0.25 {
			t.Fatalf("run %d: %v, want val_mean_average_precision_metric 0.75 and val_map_1 0.25", run, got)
		}
	}
	if k := v.Keys(); !slices.Equal(k, []string{"val_mean_average_precision_metric", "val_map_1"}) {
		t.Fatalf("Keys = %v", k)
	}
}

// The ragged cases of TF-Ranking's keras metrics_test (MAP 0.69444 and, with
// weights, 0.63889), given as padded dense batches. The padding holds values
// that would change the result if they took part: label 2, a top score and a
// large weight.
func TestValidatorPadding(t *testing.T) {
	// Row 3 is a dummy list, dropped through NumLists = 3.
	labels := rows{{1, 0, 0, 2}, {0, 2, 2, 2}, {2, 0, 1, 0}, {0, 0, 0, 1}}
	preds := rows{{1, 2, 0, 9}, {1, 2, 9, 9}, {3, 4, 2, 1}, {4, 3, 2, 1}}
	weights := rows{{2, 1, 4, 50}, {2, 1, 50, 50}, {2, 1, 4, 8}, {1, 1, 1, 1}}
	mask := rows{{1, 1, 1, 0}, {1, 1, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}}
	lengths := []int{3, 2, 4, 4}
	tests := []struct {
		name string
		b    Batch[rows]
		want float64
	}{
		{"lengths", Batch[rows]{Lengths: lengths, NumLists: 3}, 0.6944444444444443},
		{"mask", Batch[rows]{Mask: dense(t, mask), NumLists: 3}, 0.6944444444444443},
		{"lengths, item weights", Batch[rows]{Lengths: lengths, Weights: tensor.PerItem(dense(t, weights)), NumLists: 3}, 0.6388888888888888},
		{"mask, item weights", Batch[rows]{Mask: dense(t, mask), Weights: tensor.PerItem(dense(t, weights)), NumLists: 3}, 0.6388888888888888},
		// The dummy list alone has AP 1/4; with the three real lists the mean
		// would move from 25/36 to (25/12 + 1/4) / 4 = 7/12.
		{"lengths, dummy list kept", Batch[rows]{Lengths: lengths}, 7.0 / 12},
		// Per-list weights 1, 2, 3 on the ragged per-list APs 1/2, 1, 7/12:
		// (1/2 + 2 + 21/12) / 6 = 17/24.
		{"lengths, list weights", Batch[rows]{Lengths: lengths, Weights: tensor.PerList([]float32{1, 2, 3, 100}), NumLists: 3}, 17.0 / 24},
		{"lengths, float64 list weights", Batch[rows]{Lengths: lengths, Weights: tensor.PerList([]float64{1, 2, 3, 100}), NumLists: 3}, 17.0 / 24},
	}
	for _, tc := range tests {
		for _, f64 := range []bool{false, true} {
			name := tc.name
			b := tc.b
			b.Inputs, b.Labels = preds, dense(t, labels)
			score := echoScore
			if f64 {
				name += ", float64 scores"
				score = func(_ context.Context, b Batch[rows]) (tensor.Lists, error) {
					r := make([][]float64, len(b.Inputs))
					for i, row := range b.Inputs {
						for _, x := range row {
							r[i] = append(r[i], float64(x))
						}
					}
					return tensor.DenseRows(r)
				}
			}
			t.Run(name, func(t *testing.T) {
				v, err := NewValidator(score, []metric.Metric{mustMAP(t, metric.WithRagged(true))}, WithPrefix(""))
				if err != nil {
					t.Fatal(err)
				}
				got, err := v.Evaluate(context.Background(), slices.Values([]Batch[rows]{b, b}))
				if err != nil {
					t.Fatal(err)
				}
				if g := got[metric.DefaultMAPName]; !near(g, tc.want) {
					t.Fatalf("MAP = %.9f, want %.9f", g, tc.want)
				}
			})
		}
	}
}

// Dense lists without padding inside, in a batch with one dummy list.
func TestValidatorNumListsOnly(t *testing.T) {
	v, err := NewValidator(echoScore, []metric.Metric{mustMAP(t, metric.WithRagged(true))})
	if err != nil {
		t.Fatal(err)
	}
	b := Batch[rows]{Inputs: rows{{1, 3, 2}, {1, 2, 3}, {9, 9, 9}}, Labels: dense(t, rows{{0, 0, 1}, {0, 1, 2}, {0, 0, 0}}), NumLists: 2}
	got, err := v.Evaluate(context.Background(), slices.Values([]Batch[rows]{b}))
	if err != nil {
		t.Fatal(err)
	}
	if g := got["val_mean_average_precision_metric"]; g != 0.75 {
		t.Fatalf("MAP = %v, want 0.75 (the TF case without the dummy list)", g)
	}
}

func TestValidatorErrors(t *testing.T) {
	lab := func() tensor.Lists { return dense(t, rows{{0, 1, 0}, {1, 0, 0}}) }
	in := rows{{1, 2, 3}, {3, 2, 1}}
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		score   ScoreFunc[rows]
		metric  *metric.MeanAveragePrecision
		batches []Batch[rows]
		want    string
	}{
		{name: "shape mismatch", batches: []Batch[rows]{{Inputs: rows{{1, 2}, {3, 4}}, Labels: lab()}},
			want: "validation batch 0: tensor: predictions has shape [2, 2] but labels has shape [2, 3]"},
		{name: "row mismatch", batches: []Batch[rows]{{Inputs: in, Labels: lab()}, {Inputs: in, Labels: dense(t, rows{{1, 0, 0}})}},
			want: "validation batch 1: tensor: predictions has shape [2, 3] but labels has shape [1, 3]"},
		{name: "score error", score: func(context.Context, Batch[rows]) (tensor.Lists, error) {
			return tensor.Lists{}, errors.New("device lost")
		},
			batches: []Batch[rows]{{Inputs: in, Labels: lab()}}, want: "validation batch 0: scoring: device lost"},
		{name: "no batches", want: "validation: no batches"},
		{name: "cancelled", ctx: cancelled, batches: []Batch[rows]{{Inputs: in, Labels: lab()}}, want: "validation stopped before batch 0: context canceled"},
		{name: "dense metric, padded batch", batches: []Batch[rows]{{Inputs: in, Labels: lab(), Lengths: []int{2, 3}}},
			want: `metric "mean_average_precision_metric" is dense; make it with metric.WithRagged(true)`},
		{name: "lengths count", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), Lengths: []int{2}}},
			want: "field Lengths has 1 entries but labels have 2 lists (shape [2, 3])"},
		{name: "lengths range", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), Lengths: []int{2, 4}}},
			want: "field Lengths[1] = 4 is outside [0, 3] for labels of shape [2, 3]"},
		{name: "num lists range", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), NumLists: 3}},
			want: "field NumLists = 3 is outside [0, 2] for labels of shape [2, 3]"},
		{name: "ragged labels padded", metric: mustMAP(t, metric.WithRagged(true)), score: func(context.Context, Batch[rows]) (tensor.Lists, error) {
			return tensor.RaggedRows([][]float32{{1}, {2, 3}})
		},
			batches: []Batch[rows]{{Labels: ragged(t, [][]float32{{1}, {0, 1}}), NumLists: 1}},
			want:    "labels are ragged [2, <=2]; Lengths, Mask and NumLists describe padding of dense batches"},
		{name: "both", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), Lengths: []int{2, 3}, Mask: lab()}},
			want: "both Lengths and Mask are set"},
		{name: "mask shape", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), Mask: dense(t, rows{{1, 1}, {1, 1}})}},
			want: "Mask has shape [2, 2] but labels has shape [2, 3]"},
		{name: "mask NaN", metric: mustMAP(t, metric.WithRagged(true)), batches: []Batch[rows]{{Inputs: in, Labels: lab(), Mask: dense(t, rows{{1, 1, 1}, {1, float32(math.NaN()), 1}})}},
			want: "field Mask[1][1] is NaN"},
		{name: "metric error", batches: []Batch[rows]{{Inputs: rows{{1, float32(math.NaN()), 3}, {3, 2, 1}}, Labels: lab()}},
			want: `validation batch 0: metric "mean_average_precision_metric": `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			score, m, c := tc.score, tc.metric, tc.ctx
			if score == nil {
				score = echoScore
			}
			if m == nil {
				m = mustMAP(t)
			}
			if c == nil {
				c = ctx
			}
			v, err := NewValidator(score, []metric.Metric{m})
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.Evaluate(c, slices.Values(tc.batches))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestNewValidatorErrors(t *testing.T) {
	m := mustMAP(t)
	tests := []struct {
		name    string
		score   ScoreFunc[rows]
		metrics []metric.Metric
		opts    []ValidatorOption
		want    string
	}{
		{"nil score", nil, []metric.Metric{m}, nil, "score function is nil"},
		{"no metrics", echoScore, nil, nil, "no metrics"},
		{"nil metric", echoScore, []metric.Metric{m, nil}, nil, "metric 1 is nil"},
		{"duplicate names", echoScore, []metric.Metric{m, mustMAP(t)}, nil, `metrics 0 and 1 are both named "mean_average_precision_metric"`},
		{"nil option", echoScore, []metric.Metric{m}, []ValidatorOption{nil}, "option 0 is nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewValidator(tc.score, tc.metrics, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
