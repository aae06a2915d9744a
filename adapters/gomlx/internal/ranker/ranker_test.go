package ranker

import (
	"math"
	"testing"

	"github.com/gomlx/gomlx/backends"
	_ "github.com/gomlx/gomlx/backends/simplego"
	"github.com/gomlx/gomlx/pkg/core/graph"
	"github.com/gomlx/gomlx/pkg/core/tensors"
	"github.com/gomlx/gomlx/pkg/ml/context"
)

func newBackend(t *testing.T) backends.Backend {
	t.Helper()
	b, err := backends.New()
	if err != nil {
		t.Fatalf("backend (run with GOMLX_BACKEND=go): %v", err)
	}
	return b
}

// Hand-worked: list 0 has two valid items with equal scores and labels 1, 0,
// so its loss is −log(1/2) = ln 2 whatever the masked third item holds;
// list 1 has no positive label and does not count.
func TestListwiseSoftmaxLoss(t *testing.T) {
	tests := []struct {
		name   string
		scores []float32
		labels []float32
		mask   []bool
		want   float64
	}{
		{"masked item ignored", []float32{0, 0, 100, 1, 2, 3}, []float32{1, 0, 4, 0, 0, 0}, []bool{true, true, false, true, true, true}, math.Ln2},
		// Labels 3 and 1 on scores ln 3 and 0: softmax 3/4 and 1/4, targets 3/4 and 1/4:
		// −(3/4·ln(3/4) + 1/4·ln(1/4)).
		{"graded targets", []float32{float32(math.Log(3)), 0, 0, 0, 0, 0}, []float32{3, 1, 0, 0, 0, 0}, []bool{true, true, false, true, false, false},
			-(0.75*math.Log(0.75) + 0.25*math.Log(0.25))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exec, err := graph.NewExec(newBackend(t), func(s, y, m *graph.Node) *graph.Node {
				return ListwiseSoftmaxLoss([]*graph.Node{y, m}, []*graph.Node{s})
			})
			if err != nil {
				t.Fatal(err)
			}
			out, err := exec.Exec(tensors.FromFlatDataAndDimensions(tc.scores, 2, 3),
				tensors.FromFlatDataAndDimensions(tc.labels, 2, 3), tensors.FromFlatDataAndDimensions(tc.mask, 2, 3))
			if err != nil {
				t.Fatal(err)
			}
			got := float64(out[0].Value().(float32))
			if math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("loss = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestModelShapes(t *testing.T) {
	for _, hidden := range [][]int{nil, {5}, {5, 3}} {
		ctx := context.New()
		exec, err := context.NewExec(newBackend(t), ctx, func(ctx *context.Context, x *graph.Node) *graph.Node {
			return Model(hidden...)(ctx, nil, []*graph.Node{x})[0]
		})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Exec(tensors.FromFlatDataAndDimensions(make([]float32, 2*7*4), 2, 7, 4))
		if err != nil {
			t.Fatal(err)
		}
		if d := out[0].Shape().Dimensions; len(d) != 2 || d[0] != 2 || d[1] != 7 {
			t.Errorf("hidden %v: scores have shape %v, want [2 7]", hidden, d)
		}
	}
}
