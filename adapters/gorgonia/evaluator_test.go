package gorgonia

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	gt "gorgonia.org/tensor"

	"github.com/rankmetrics/rankmetrics/adapters"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// linear is a real Gorgonia graph: scores = reshape(x · w, [B, L]) with
// w = (1, -1), so an item's score is x0 - x1; a label node y enters a toy
// loss, so it is part of the graph.
type linear struct {
	g            *G.ExprGraph
	x, y, scores *G.Node
	dt           gt.Dtype
	b, l         int
}

func newLinear(t *testing.T, dt gt.Dtype, b, l int) *linear {
	t.Helper()
	g := G.NewGraph()
	x := G.NewMatrix(g, dt, G.WithShape(b*l, 2), G.WithName("x"))
	w := G.NewMatrix(g, dt, G.WithShape(2, 1), G.WithName("w"), G.WithValue(denseOf(dt, []int{2, 1}, []float64{1, -1})))
	scores := G.Must(G.Reshape(G.Must(G.Mul(x, w)), gt.Shape{b, l}))
	y := G.NewMatrix(g, dt, G.WithShape(b, l), G.WithName("y"))
	G.Must(G.Mean(G.Must(G.HadamardProd(scores, y))))
	return &linear{g: g, x: x, y: y, scores: scores, dt: dt, b: b, l: l}
}

func denseOf(dt gt.Dtype, shape []int, v []float64) *gt.Dense {
	if dt == gt.Float32 {
		f := make([]float32, len(v))
		for i, x := range v {
			f[i] = float32(x)
		}
		return gt.New(gt.WithShape(shape...), gt.WithBacking(f))
	}
	return gt.New(gt.WithShape(shape...), gt.WithBacking(slices.Clone(v)))
}

// feed builds a batch whose scores will be exactly scores: item features
// (s + 1, 1) give x0 - x1 = s.
func (m *linear) feed(scores, labels [][]float64) Feed {
	var x, y []float64
	for i, row := range scores {
		for j, s := range row {
			x = append(x, s+1, 1)
			y = append(y, labels[i][j])
		}
	}
	return Feed{Input: denseOf(m.dt, []int{m.b * m.l, 2}, x), Label: denseOf(m.dt, []int{m.b, m.l}, y)}
}

func newMAP(t *testing.T, opts ...metric.Option) *metric.MeanAveragePrecision {
	t.Helper()
	m, err := metric.NewMeanAveragePrecision(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Batch 1 is TF-Ranking's keras test case (labels [[0,0,1],[0,1,2]], scores
// [[1,3,2],[1,2,3]]: APs 1/2 and 1). Batch 2 has APs 1 and 1/3. MAP over the
// four lists: (1/2 + 1 + 1 + 1/3) / 4 = 17/24. MAP@1 divides by all relevant
// items of a list, as TF-Ranking does: (0 + 1/2 + 1 + 0) / 4 = 3/8.
func TestEvaluatorLinearGraph(t *testing.T) {
	for _, dt := range []gt.Dtype{gt.Float32, gt.Float64} {
		for _, fromLabelNode := range []bool{false, true} {
			t.Run(dt.String()+map[bool]string{false: "/Batch.Labels", true: "/Feed.Label"}[fromLabelNode], func(t *testing.T) {
				m := newLinear(t, dt, 2, 3)
				vm := NewScoringVM(m.scores)
				defer vm.Close()
				ev, err := NewEvaluator(vm, m.scores, BindNodes(m.x, m.y),
					[]metric.Metric{newMAP(t), newMAP(t, metric.WithTopN(1), metric.WithName("map@1"))})
				if err != nil {
					t.Fatal(err)
				}
				data := []struct{ scores, labels [][]float64 }{
					{[][]float64{{1, 3, 2}, {1, 2, 3}}, [][]float64{{0, 0, 1}, {0, 1, 2}}},
					{[][]float64{{3, 2, 1}, {1, 2, 3}}, [][]float64{{1, 0, 0}, {1, 0, 0}}},
				}
				var batches []Batch
				for _, d := range data {
					b := Batch{Inputs: m.feed(d.scores, d.labels)}
					if !fromLabelNode {
						b.Labels, _ = tensor.DenseRows(d.labels)
					}
					batches = append(batches, b)
				}
				got, err := ev.Evaluate(context.Background(), slices.Values(batches))
				if err != nil {
					t.Fatal(err)
				}
				if g := got["val_mean_average_precision_metric"]; math.Abs(g-17.0/24) > 1e-7 {
					t.Errorf("MAP = %.9f, want 17/24 = %.9f", g, 17.0/24)
				}
				if g := got["val_map@1"]; g != 0.375 {
					t.Errorf("MAP@1 = %v, want 3/8", g)
				}
				if !slices.Equal(ev.Keys(), []string{"val_mean_average_precision_metric", "val_map@1"}) {
					t.Errorf("Keys = %v", ev.Keys())
				}
			})
		}
	}
}

// TF-Ranking's ragged keras case (MAP 25/36), as a fixed-shape [4, 4] graph
// batch: lists padded to 4 items and one dummy list. The padding scores
// highest and has label 2, so it would change the result if it took part.
func TestEvaluatorPaddedBatch(t *testing.T) {
	m := newLinear(t, gt.Float32, 4, 4)
	// A VM over the whole graph (score, then the toy loss) keeps the score
	// value only with TraceExec.
	vm := G.NewTapeMachine(m.g, G.TraceExec())
	defer vm.Close()
	ev, err := NewEvaluator(vm, m.scores, BindNodes(m.x, m.y), []metric.Metric{newMAP(t, metric.WithRagged(true))})
	if err != nil {
		t.Fatal(err)
	}
	scores := [][]float64{{1, 2, 0, 9}, {1, 2, 9, 9}, {3, 4, 2, 1}, {9, 9, 9, 9}}
	labels := [][]float64{{1, 0, 0, 2}, {0, 2, 2, 2}, {2, 0, 1, 0}, {2, 2, 2, 2}}
	b := Batch{Inputs: m.feed(scores, labels), Lengths: []int{3, 2, 4, 0}, NumLists: 3}
	got, err := ev.Evaluate(context.Background(), slices.Values([]Batch{b}))
	if err != nil {
		t.Fatal(err)
	}
	if g := got["val_mean_average_precision_metric"]; math.Abs(g-25.0/36) > 1e-7 {
		t.Fatalf("MAP = %.9f, want 25/36 = %.9f", g, 25.0/36)
	}
}

// The same case with the padding given as a Gorgonia mask tensor, read
// zero-copy, and the dummy list dropped through NumLists.
func TestEvaluatorMaskFromGorgonia(t *testing.T) {
	m := newLinear(t, gt.Float64, 4, 4)
	vm := NewScoringVM(m.scores)
	defer vm.Close()
	ev, err := NewEvaluator(vm, m.scores, BindNodes(m.x, m.y), []metric.Metric{newMAP(t, metric.WithRagged(true))})
	if err != nil {
		t.Fatal(err)
	}
	scores := [][]float64{{1, 2, 9, 0}, {9, 1, 2, 9}, {3, 4, 2, 1}, {9, 9, 9, 9}}
	labels := [][]float64{{1, 0, 2, 0}, {2, 0, 2, 2}, {2, 0, 1, 0}, {2, 2, 2, 2}}
	maskT := denseOf(gt.Float64, []int{4, 4}, []float64{1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0})
	mask, err := tensor.FromGorgonia(maskT)
	if err != nil {
		t.Fatal(err)
	}
	b := Batch{Inputs: m.feed(scores, labels), Mask: mask, NumLists: 3}
	got, err := ev.Evaluate(context.Background(), slices.Values([]Batch{b}))
	if err != nil {
		t.Fatal(err)
	}
	if g := got["val_mean_average_precision_metric"]; math.Abs(g-25.0/36) > 1e-7 { // a float32 result
		t.Fatalf("MAP = %.15f, want 25/36 = %.15f", g, 25.0/36)
	}
}

func TestEvaluatorShapeMismatch(t *testing.T) {
	m := newLinear(t, gt.Float64, 2, 3)
	vm := NewScoringVM(m.scores)
	defer vm.Close()
	ev, err := NewEvaluator(vm, m.scores, BindNodes(m.x, nil), []metric.Metric{newMAP(t)})
	if err != nil {
		t.Fatal(err)
	}
	f := m.feed([][]float64{{1, 2, 3}, {1, 2, 3}}, [][]float64{{0, 1, 0}, {1, 0, 0}})
	labels, _ := tensor.DenseRows([][]float64{{0, 1, 0, 0}, {1, 0, 0, 0}})
	_, err = ev.Evaluate(context.Background(), slices.Values([]Batch{{Inputs: f, Labels: labels}}))
	want := `gorgonia: adapters: validation batch 0: scoring: score node "` + m.scores.Name() + `" value has shape (2, 3) but labels have shape [2, 4]`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

func TestEvaluatorBindAndRunErrors(t *testing.T) {
	m := newLinear(t, gt.Float64, 2, 3)
	good := m.feed([][]float64{{1, 2, 3}, {1, 2, 3}}, [][]float64{{0, 1, 0}, {1, 0, 0}})
	tests := []struct {
		name  string
		label *G.Node
		feed  Feed
		opts  []G.VMOpt
		want  string
	}{
		{"no input", nil, Feed{Label: good.Label}, nil, `batch 0: scoring: batch has no Input for input node "x"`},
		{"input shape", nil, Feed{Input: denseOf(gt.Float64, []int{5, 2}, make([]float64, 10)), Label: good.Label}, nil,
			`batch 0: scoring: binding input node "x": Node's expected shape is (6, 2). Got (5, 2) instead`},
		{"input dtype", nil, Feed{Input: denseOf(gt.Float32, []int{6, 2}, make([]float64, 12)), Label: good.Label}, nil,
			`batch 0: scoring: binding input node "x": Unable to let x be`},
		{"no label", m.y, Feed{Input: good.Input}, nil, `no Label for label node "y"`},
		{"label shape", m.y, Feed{Input: good.Input, Label: denseOf(gt.Float64, []int{3, 2}, make([]float64, 6))}, nil,
			`binding label node "y": Node's expected shape is (2, 3). Got (3, 2) instead`},
		{"label not a tensor", m.y, Feed{Input: good.Input, Label: G.NewF64(1)}, nil,
			`gorgonia: validation batch 0: labels from Feed.Label: value of type *gorgonia.F64, want a *tensor.Dense of shape [B, L]`},
		{"NaN watch", nil, Feed{Input: denseOf(gt.Float64, []int{6, 2}, []float64{math.NaN(), 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0}), Label: good.Label},
			[]G.VMOpt{G.WithNaNWatch()}, "batch 0: scoring: running the graph: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vm := NewScoringVM(m.scores, tc.opts...)
			defer vm.Close()
			ev, err := NewEvaluator(vm, m.scores, BindNodes(m.x, tc.label), []metric.Metric{newMAP(t)})
			if err != nil {
				t.Fatal(err)
			}
			_, err = ev.Evaluate(context.Background(), slices.Values([]Batch{{Inputs: tc.feed}}))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to contain %s", err, tc.want)
			}
		})
	}
}

func TestNewEvaluatorErrors(t *testing.T) {
	m := newLinear(t, gt.Float64, 2, 3)
	vm := NewScoringVM(m.scores)
	defer vm.Close()
	bind := BindNodes(m.x, nil)
	ints := G.NewMatrix(m.g, gt.Int, G.WithShape(2, 3), G.WithName("ints"))
	vec := G.NewVector(m.g, gt.Float64, G.WithShape(6), G.WithName("vec"))
	mets := []metric.Metric{newMAP(t)}
	tests := []struct {
		name  string
		vm    G.VM
		score *G.Node
		bind  BindFunc
		mets  []metric.Metric
		want  string
	}{
		{"nil vm", nil, m.scores, bind, mets, "vm is nil"},
		{"nil score", vm, nil, bind, mets, "score node is nil"},
		{"nil bind", vm, m.scores, nil, mets, "bind function is nil"},
		{"int score", vm, ints, bind, mets, `score node "ints" has dtype int, want float32 or float64`},
		{"vector score", vm, vec, bind, mets, `score node "vec" has shape (6), want [B, L]`},
		{"no metrics", vm, m.scores, bind, nil, "gorgonia: adapters: NewValidator: no metrics"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEvaluator(tc.vm, tc.score, tc.bind, tc.mets)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// A training graph with gradients, evaluated through a VM compiled for the
// scoring subgraph only, with a custom bind function that reads Extra.
func TestEvaluatorSubgraphVMAndCustomBind(t *testing.T) {
	g := G.NewGraph()
	x := G.NewMatrix(g, gt.Float32, G.WithShape(3, 2), G.WithName("x"))
	w := G.NewMatrix(g, gt.Float32, G.WithShape(2, 1), G.WithName("w"), G.WithValue(denseOf(gt.Float32, []int{2, 1}, []float64{2, 0})))
	scores := G.Must(G.Reshape(G.Must(G.Mul(x, w)), gt.Shape{1, 3}))
	y := G.NewMatrix(g, gt.Float32, G.WithShape(1, 3), G.WithName("y"))
	loss := G.Must(G.Mean(G.Must(G.Square(G.Must(G.Sub(scores, y))))))
	if _, err := G.Grad(loss, w); err != nil {
		t.Fatal(err)
	}
	vm := NewScoringVM(scores)
	defer vm.Close()
	bind := func(b Batch) error {
		return G.Let(x, denseOf(gt.Float32, []int{3, 2}, b.Inputs.Extra.([]float64)))
	}
	ev, err := NewEvaluator(vm, scores, bind, []metric.Metric{newMAP(t)}, adapters.WithPrefix("eval/"))
	if err != nil {
		t.Fatal(err)
	}
	labels, _ := tensor.DenseRows([][]float32{{0, 1, 1}})
	// Scores 2·x0 = (6, 4, 2): the relevant items sit at ranks 2 and 3, so
	// AP = (1/2 + 2/3) / 2 = 7/12.
	b := Batch{Inputs: Feed{Extra: []float64{3, 9, 2, 9, 1, 9}}, Labels: labels}
	got, err := ev.Evaluate(context.Background(), slices.Values([]Batch{b}))
	if err != nil {
		t.Fatal(err)
	}
	if g := got["eval/mean_average_precision_metric"]; math.Abs(g-7.0/12) > 1e-7 {
		t.Fatalf("MAP = %v, want 7/12", g)
	}
}

// The score value is read without copying: the lists see later writes to
// the tensor's memory.
func TestValueListsZeroCopy(t *testing.T) {
	for _, dt := range []gt.Dtype{gt.Float32, gt.Float64} {
		d := denseOf(dt, []int{2, 2}, []float64{1, 2, 3, 4})
		l, err := valueLists(d)
		if err != nil {
			t.Fatal(err)
		}
		var seven any = 7.0
		if dt == gt.Float32 {
			seven = float32(7)
		}
		if err := d.SetAt(seven, 1, 0); err != nil {
			t.Fatal(err)
		}
		if l.At(1, 0) != 7 || l.Len() != 2 || l.Width() != 2 {
			t.Fatalf("%v: lists %s see %v at [1, 0], want 7", dt, l.Shape(), l.At(1, 0))
		}
	}
	if _, err := valueLists(gt.New(gt.WithShape(4), gt.WithBacking([]float64{1, 2, 3, 4}))); err == nil || !strings.Contains(err.Error(), "value has shape (4), want [B, L]") {
		t.Fatalf("vector: %v", err)
	}
}
