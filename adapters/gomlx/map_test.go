package gomlx

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gomlx/gomlx/pkg/core/dtypes"
	"github.com/gomlx/gomlx/pkg/core/shapes"
	"github.com/gomlx/gomlx/pkg/core/tensors"

	"github.com/rankmetrics/rankmetrics/metric"
)

// Every expected value below is worked out by hand from TF-Ranking's
// definition: AP = Σ_k P@k·w_k·rel_k / Σ_i w_i·rel_i with rel = label >= 1,
// and MAP the list-weight-weighted mean of the APs.
func TestMAPHandWorked(t *testing.T) {
	// list A: relevant at ranks 2 and 4: AP = (1/2 + 2/4) / 2 = 0.5.
	listAScores := []float32{0.4, 0.3, 0.2, 0.1}
	listALabels := []float32{0, 1, 0, 1}
	// list B: relevant at rank 1 only: AP = 1.
	listBScores := []float32{0.9, 0.8, 0.7, 0.6}
	listBLabels := []float32{1, 0, 0, 0}
	two := func(a, b []float32) []float32 { return append(append([]float32{}, a...), b...) }
	T, F := true, false

	tests := []struct {
		name    string
		opts    []metric.Option
		batches []batchFn
		want    float64
	}{
		{"single list", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), listAScores...)}, []*tensors.Tensor{f32(dims(1, 4), listALabels...)}
		}}, 0.5},
		{"two lists", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...)}
		}}, 0.75},
		{"two batches of one list", nil, []batchFn{
			func() ([]*tensors.Tensor, []*tensors.Tensor) {
				return []*tensors.Tensor{f32(dims(1, 4), listAScores...)}, []*tensors.Tensor{f32(dims(1, 4), listALabels...)}
			},
			func() ([]*tensors.Tensor, []*tensors.Tensor) {
				return []*tensors.Tensor{f32(dims(1, 4), listBScores...)}, []*tensors.Tensor{f32(dims(1, 4), listBLabels...)}
			},
		}, 0.75},
		// Scores reverse the input order: labels 0,3,0,2 by rank, relevant at 2 and 4.
		{"graded labels count as relevant from 1", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.1, 0.2, 0.3, 0.4)}, []*tensors.Tensor{f32(dims(1, 4), 2, 0, 3, 0)}
		}}, 0.5},
		// Unmasked ranking: 1,0,0,1 -> (1 + 2/4) / 2.
		{"no mask", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.9, 0.1, 0.95, 0.7)}, []*tensors.Tensor{f32(dims(1, 4), 0, 1, 1, 0)}
		}}, 0.75},
		// The mask leaves items 0 and 1: ranking 0,1 -> 1/2.
		{"item mask removes padding", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.9, 0.1, 0.95, 0.7)},
				[]*tensors.Tensor{f32(dims(1, 4), 0, 1, 1, 0), bools(dims(1, 4), T, T, F, F)}
		}}, 0.5},
		// Label -1 is TF-Ranking's padding: ranking of items 0,3,1 is 0,0,1 -> 1/3.
		{"negative label pads", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.9, 0.1, 0.95, 0.7)}, []*tensors.Tensor{f32(dims(1, 4), 0, 1, -1, 0)}
		}}, float64(float32(1.0 / 3.0))},
		{"fully masked list does not count", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...), bools(dims(2, 4), T, T, T, T, F, F, F, F)}
		}}, 0.5},
		{"list mask", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...), bools(dims(2), T, F)}
		}}, 0.5},
		// (0.5·1 + 1·3) / (1 + 3).
		{"per-list weights [B]", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...), f32(dims(2), 1, 3)}
		}}, 0.875},
		{"per-list weights [B, 1]", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...), f32(dims(2, 1), 1, 3)}
		}}, 0.875},
		// Relevant at ranks 1 and 3 with weights 1 and 3: (1·1 + 2/3·3) / (1 + 3).
		{"per-item weights", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 3), 0.3, 0.2, 0.1)},
				[]*tensors.Tensor{f32(dims(1, 3), 1, 0, 1), f32(dims(1, 3), 1, 1, 3)}
		}}, 0.75},
		// The masked 4th item (relevant, top score, weight 5) leaves the list above.
		{"per-item weights and mask, any order", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.3, 0.2, 0.1, 0.9)},
				[]*tensors.Tensor{f32(dims(1, 4), 1, 0, 1, 1), bools(dims(1, 4), T, T, T, F), f32(dims(1, 4), 1, 1, 3, 5)}
		}}, 0.75},
		// List A has nothing relevant at rank 1 (AP 0/2), list B has (AP 1).
		{"top-n 1", []metric.Option{metric.WithTopN(1)}, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 4), two(listAScores, listBScores)...)},
				[]*tensors.Tensor{f32(dims(2, 4), two(listALabels, listBLabels)...)}
		}}, 0.5},
		{"float64 scores [B, L, 1], int32 labels", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{tensors.FromFlatDataAndDimensions([]float64{0.4, 0.3, 0.2, 0.1}, 1, 4, 1)},
				[]*tensors.Tensor{tensors.FromFlatDataAndDimensions([]int32{0, 1, 0, 1}, 1, 4)}
		}}, 0.5},
		// Label 0.9999999999 is below 1 in float64 but rounds to 1 in
		// float32: the metric's dtype decides, not the packing.
		{"float64 labels, float64 metric", []metric.Option{metric.WithDType(metric.Float64)}, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.4, 0.3, 0.2, 0.1)},
				[]*tensors.Tensor{tensors.FromFlatDataAndDimensions([]float64{0.9999999999, 1, 0, 0}, 1, 4)}
		}}, 0.5},
		{"float64 labels, float32 metric", nil, []batchFn{func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 0.4, 0.3, 0.2, 0.1)},
				[]*tensors.Tensor{tensors.FromFlatDataAndDimensions([]float64{0.9999999999, 1, 0, 0}, 1, 4)}
		}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMeanAveragePrecision(tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got, err := evalWithIdentity(t, m, tc.batches...)
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			if err := m.Err(); err != nil {
				t.Fatalf("Err: %v", err)
			}
			if got.DType() != dtypes.Float64 || !got.Shape().IsScalar() {
				t.Fatalf("ReadGo gave %s, want a Float64 scalar", got.Shape())
			}
			v := got.Value().(float64)
			if math.Abs(v-tc.want) > 1e-7 {
				t.Errorf("MAP = %.9f, want %.9f", v, tc.want)
			}
			if r := m.Result(); r != v {
				t.Errorf("Result() = %v, but Eval returned %v", r, v)
			}
		})
	}
}

func TestMAPBadInput(t *testing.T) {
	tests := []struct {
		name  string
		batch batchFn
		want  []string // substrings of the error
	}{
		{"labels shape differs from predictions", func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 1, 2, 3, 4)}, []*tensors.Tensor{f32(dims(1, 3), 0, 1, 0)}
		}, []string{"labels[0]", shapes.Make(dtypes.Float32, 1, 3).String(), shapes.Make(dtypes.Float32, 1, 4).String()}},
		{"unknown extra label", func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 4), 1, 2, 3, 4)}, []*tensors.Tensor{f32(dims(1, 4), 0, 1, 0, 1), f32(dims(1, 5), 1, 1, 1, 1, 1)}
		}, []string{"labels[1]", shapes.Make(dtypes.Float32, 1, 5).String()}},
		{"two item masks", func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 2), 1, 2)},
				[]*tensors.Tensor{f32(dims(1, 2), 0, 1), bools(dims(1, 2), true, true), bools(dims(1, 2), true, false)}
		}, []string{"labels[2]", "at most once"}},
		{"predictions of rank 1", func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(4), 1, 2, 3, 4)}, []*tensors.Tensor{f32(dims(4), 0, 1, 0, 1)}
		}, []string{"predictions[0]", shapes.Make(dtypes.Float32, 4).String()}},
		{"integer predictions", func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{tensors.FromFlatDataAndDimensions([]int32{1, 2}, 1, 2)}, []*tensors.Tensor{f32(dims(1, 2), 0, 1)}
		}, []string{"predictions[0]", "Int32"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMeanAveragePrecision()
			if err != nil {
				t.Fatal(err)
			}
			_, err = evalWithIdentity(t, m, tc.batch)
			if err == nil {
				t.Fatal("Eval succeeded, want an error")
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
		})
	}
}

// A NaN score is found on the host, where UpdateGo cannot return an error:
// the metric keeps it, ReadGo gives NaN, and Reset clears it.
func TestMAPKeepsHostError(t *testing.T) {
	m, err := NewMeanAveragePrecision()
	if err != nil {
		t.Fatal(err)
	}
	nan := float32(math.NaN())
	got, err := evalWithIdentity(t, m,
		func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(1, 2), 0.5, 0.1)}, []*tensors.Tensor{f32(dims(1, 2), 1, 0)}
		},
		func() ([]*tensors.Tensor, []*tensors.Tensor) {
			return []*tensors.Tensor{f32(dims(2, 2), 0.5, 0.1, 0.3, nan)}, []*tensors.Tensor{f32(dims(2, 2), 1, 0, 0, 1)}
		})
	if err != nil {
		t.Fatalf("Eval: %v", err)
	}
	if v := got.Value().(float64); !math.IsNaN(v) {
		t.Errorf("ReadGo = %v after a bad batch, want NaN", v)
	}
	herr := m.Err()
	if herr == nil {
		t.Fatal("Err() = nil after a NaN score")
	}
	for _, s := range []string{"evaluation batch 1", "predictions[1][1]"} {
		if !strings.Contains(herr.Error(), s) {
			t.Errorf("error %q does not contain %q", herr, s)
		}
	}
	if !errors.Is(herr, metric.ErrInput) {
		t.Errorf("error %q does not wrap metric.ErrInput", herr)
	}
	m.Reset(nil)
	if m.Err() != nil {
		t.Errorf("Err() = %v after Reset, want nil", m.Err())
	}
}

func TestNewMAP(t *testing.T) {
	tests := []struct {
		name      string
		opts      []metric.Option
		wantShort string
		wantErr   error
	}{
		{"default", nil, "MAP", nil},
		{"top-n", []metric.Option{metric.WithTopN(10)}, "MAP@10", nil},
		{"ragged", []metric.Option{metric.WithRagged(true)}, "", ErrInput},
		{"bad top-n", []metric.Option{metric.WithTopN(-5)}, "", metric.ErrConfig},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := NewMeanAveragePrecision(tc.opts...)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("NewMeanAveragePrecision error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.ShortName() != tc.wantShort {
				t.Errorf("ShortName = %q, want %q", m.ShortName(), tc.wantShort)
			}
			if m.MetricType() != MetricType || m.Name() != metric.DefaultMAPName {
				t.Errorf("MetricType, Name = %q, %q", m.MetricType(), m.Name())
			}
		})
	}
}

func TestMAPPrettyPrint(t *testing.T) {
	m, err := NewMeanAveragePrecision()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		in   *tensors.Tensor
		want string
	}{
		{tensors.FromScalar(0.123456), "0.1235"},
		{tensors.FromScalar(float32(0.5)), "0.5000"},
		{f32(dims(2, 1, 1), 1, 2), "n/a"},
		{nil, "n/a"},
	}
	for _, tc := range tests {
		if got := m.PrettyPrint(tc.in); got != tc.want {
			t.Errorf("PrettyPrint = %q, want %q", got, tc.want)
		}
	}
}
