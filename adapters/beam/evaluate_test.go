package beam

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

func cfg(name string, topn int, d metric.DType, ties metric.TiePolicy, ragged bool) metric.Config {
	return metric.Config{Name: name, TopN: topn, DType: d, Ties: ties, Ragged: ragged}
}

func TestEvaluatorHandWorked(t *testing.T) {
	f64 := cfg("map", metric.NoTopN, metric.Float64, metric.Stable, true)
	top2 := cfg("map@2", 2, metric.Float64, metric.Stable, true)
	dense := cfg("map", metric.NoTopN, metric.Float64, metric.Stable, false)
	tests := []struct {
		name   string
		m      metric.Config
		l      List
		ap, lw float64
	}{
		// (1 + 2/3) / 2: the denominator counts every relevant item.
		{"full list", f64, List{Query: Query{Labels: []float64{1, 0, 1, 0}, Scores: []float64{4, 3, 2, 1}}}, 5.0 / 6, 1},
		// Only the first relevant item is in the top 2: 1/2, not 1.
		{"topn 2", top2, List{Query: Query{Labels: []float64{1, 0, 1, 0}, Scores: []float64{4, 3, 2, 1}}}, 0.5, 1},
		// Ranked AP 1 over one relevant item; one relevant document was
		// not retrieved, so AP is 1·1/(1+1).
		{"unranked relevant", f64, List{Query: Query{Labels: []float64{1, 0}, Scores: []float64{2, 1}, UnrankedLabels: []float64{1, 0}}}, 0.5, 1},
		// (1·2 + 2/3·4) / (2+4) = 7/9; the list weighs the mean weight of
		// its relevant items, (2+4)/2.
		{"weights", f64, List{Query: Query{Labels: []float64{1, 0, 1}, Scores: []float64{3, 2, 1}, Weights: []float64{2, 1, 4}}}, 7.0 / 9, 3},
		// No relevant item: alone in its update, the list weighs 1.
		{"no relevant, weighted", f64, List{Query: Query{Labels: []float64{0, 0}, Scores: []float64{2, 1}, Weights: []float64{5, 5}}}, 0, 1},
		// An empty list is evaluated as one non-relevant item: AP 0, and
		// alone in its update it weighs 1.
		{"empty list", f64, List{Query: Query{Labels: []float64{}, Scores: []float64{}}}, 0, 1},
		// Its relevant documents are all unranked: AP 0, weight 1.
		{"qrels only", f64, List{Query: Query{UnrankedLabels: []float64{1, 2}, Match: MatchQrelsOnly}}, 0, 1},
		// A ragged row keeps the -1 item as a non-relevant item ranked
		// first; a dense one masks it.
		{"ragged negative label", f64, List{Query: Query{Labels: []float64{-1, 1}, Scores: []float64{5, 1}}}, 0.5, 1},
		{"dense negative label", dense, List{Query: Query{Labels: []float64{-1, 1}, Scores: []float64{5, 1}}}, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := NewEvaluator([]metric.Config{tc.m})
			if err != nil {
				t.Fatal(err)
			}
			tc.l.QID = "q"
			v, err := e.Eval(&tc.l)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(v.Value[0]-tc.ap) > 1e-15 || v.Weight[0] != tc.lw {
				t.Errorf("AP %v weight %v, want %v %v", v.Value[0], v.Weight[0], tc.ap, tc.lw)
			}
			if v.Counts.Queries != 1 || v.Counts.Items != int64(len(tc.l.Scores)) {
				t.Errorf("counts %+v", v.Counts)
			}
		})
	}
}

func TestEvaluatorFloat32(t *testing.T) {
	e, err := NewEvaluator([]metric.Config{cfg("map", metric.NoTopN, metric.Float32, metric.Stable, true)})
	if err != nil {
		t.Fatal(err)
	}
	// AP = (1/2 + 2/3)/2 = 7/12, and with one more unranked relevant
	// document 7/12·2/3 = 7/18, each rounded to float32.
	l := List{Query: Query{QID: "q", Labels: []float64{0, 1, 1}, Scores: []float64{3, 2, 1}}}
	v, err := e.Eval(&l)
	if err != nil {
		t.Fatal(err)
	}
	if want := float64(float32(7.0 / 12)); math.Abs(v.Value[0]-want) > 1e-7 || float64(float32(v.Value[0])) != v.Value[0] {
		t.Errorf("AP %v, want the float32 %v", v.Value[0], want)
	}
	l.UnrankedLabels = []float64{3}
	v, err = e.Eval(&l)
	if err != nil {
		t.Fatal(err)
	}
	if want := 7.0 / 18; math.Abs(v.Value[0]-want) > 1e-7 || float64(float32(v.Value[0])) != v.Value[0] {
		t.Errorf("AP with unranked %v, want the float32 near %v", v.Value[0], want)
	}
}

func TestEvaluatorRandomTiesPerQuery(t *testing.T) {
	m := cfg("map", metric.NoTopN, metric.Float64, metric.Random, true)
	m.Seed = 7
	// Every score ties: the AP depends only on the draw.
	mk := func(qid string) List {
		labels := make([]float64, 30)
		for i := range labels {
			if i%5 == 0 {
				labels[i] = 1
			}
		}
		return List{Query: Query{QID: qid, Labels: labels, Scores: make([]float64, 30)}}
	}
	e1, _ := NewEvaluator([]metric.Config{m})
	e2, _ := NewEvaluator([]metric.Config{m})
	// e1 sees q1 first; e2 sees other queries first.
	l := mk("q1")
	a, err := e1.Eval(&l)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[float64]bool{}
	for i := range 20 {
		o := mk(fmt.Sprintf("other%d", i))
		v, err := e2.Eval(&o)
		if err != nil {
			t.Fatal(err)
		}
		distinct[v.Value[0]] = true
	}
	l = mk("q1")
	b, err := e2.Eval(&l)
	if err != nil {
		t.Fatal(err)
	}
	if a.Value[0] != b.Value[0] {
		t.Errorf("q1 got AP %v and %v from evaluators in different states", a.Value[0], b.Value[0])
	}
	if len(distinct) < 5 {
		t.Errorf("20 qids drew only %d distinct APs: seeds do not vary with the qid", len(distinct))
	}
}

func TestQuerySeedDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for i := range 10000 {
		seen[querySeed(3, fmt.Sprint(i))] = true
	}
	if len(seen) != 10000 {
		t.Errorf("%d distinct seeds of 10000", len(seen))
	}
	if querySeed(1, "q") == querySeed(2, "q") {
		t.Error("the seed does not change the query seed")
	}
}

func TestNormalize(t *testing.T) {
	good := cfg("map", metric.NoTopN, metric.Float32, metric.Stable, true)
	out, err := Normalize([]metric.Config{good})
	if err != nil || out[0].Accumulation != metric.Exact {
		t.Fatalf("Normalize = %+v, %v; want exact accumulation", out, err)
	}
	seq := good
	seq.Accumulation = metric.Sequential
	bad := good
	bad.TopN = -5
	tests := []struct {
		name string
		in   []metric.Config
		want string
	}{
		{"empty", nil, "no measure"},
		{"sequential", []metric.Config{seq}, "sequential accumulation"},
		{"duplicate names", []metric.Config{good, good}, `both named "map"`},
		{"invalid", []metric.Config{bad}, "topn is -5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Normalize(tc.in)
			if !errors.Is(err, ErrMeasures) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %q wrapping ErrMeasures", err, tc.want)
			}
		})
	}
}

func TestEvaluatorRejects(t *testing.T) {
	e, _ := NewEvaluator([]metric.Config{cfg("map", metric.NoTopN, metric.Float64, metric.Stable, true)})
	tests := []struct {
		name string
		l    List
		want string
	}{
		{"length mismatch", List{Query: Query{Labels: []float64{1}, Scores: []float64{1, 2}}}, "1 labels, 2 scores"},
		{"weighted unranked", List{Query: Query{Labels: []float64{1}, Scores: []float64{1}, Weights: []float64{1}, UnrankedLabels: []float64{1}}}, "unranked relevant items take the list's weight"},
		{"infinite weight", List{Query: Query{Labels: []float64{1}, Scores: []float64{1}, Weights: []float64{math.Inf(1)}}}, "weight"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.l.QID = "q7"
			_, err := e.Eval(&tc.l)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `"q7"`) {
				t.Errorf("err %v, want %q naming the qid", err, tc.want)
			}
		})
	}
}

// TestEvaluatorSubtopics: a diversity measure reads the subtopic qrels
// given to NewEvaluatorSubtopics, and is refused without them. Worked by
// hand (alpha 0.5, discount log2(1+rank)): subtopic x judges a and b,
// subtopic y judges c; the run ranks a, b, c, whose gains are 1 (x seen
// first), 0.5 (x seen again) and 1 (y), and the greedy ideal ranking is
// a, c, b with gains 1, 1, 0.5.
func TestEvaluatorSubtopics(t *testing.T) {
	m := []metric.Config{cfg("alpha_nDCG@10", metric.NoTopN, metric.Float64, metric.Stable, true), cfg("map", metric.NoTopN, metric.Float64, metric.Stable, true)}
	if got := ReadsSubtopics(m); got != "alpha_nDCG@10" {
		t.Errorf("ReadsSubtopics %q", got)
	}
	if got := ReadsSubtopics(m[1:]); got != "" {
		t.Errorf("ReadsSubtopics(map) %q", got)
	}
	if _, err := Normalize(m); err != nil {
		t.Errorf("Normalize: %v", err)
	}
	if _, err := NewEvaluator(m); err == nil || !strings.Contains(err.Error(), "reads subtopic qrels") {
		t.Errorf("NewEvaluator without subtopic qrels: %v", err)
	}
	sub, err := runio.ReadSubtopicQrels(context.Background(), strings.NewReader("q x a 1\nq x b 1\nq y c 1\n"), "sub")
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluatorSubtopics(m, sub)
	if err != nil {
		t.Fatal(err)
	}
	l := List{Query: Query{QID: "q", Docs: []string{"a", "b", "c"}, Labels: []float64{1, 1, 1}, Scores: []float64{3, 2, 1}}}
	v, err := e.Eval(&l)
	if err != nil {
		t.Fatal(err)
	}
	want := (1 + 0.5/math.Log2(3) + 1/math.Log2(4)) / (1 + 1/math.Log2(3) + 0.5/math.Log2(4))
	if math.Abs(v.Value[0]-want) > 1e-12 || v.Value[1] != 1 {
		t.Errorf("alpha_nDCG@10 %v, want %v; map %v, want 1", v.Value[0], want, v.Value[1])
	}
	_, s := beam.NewPipelineWithRoot()
	if _, err := EvaluateLists(s, beam.CreateList(s, []List{l}), m, EvalOptions{}); err == nil || !strings.Contains(err.Error(), "EvalOptions.SubtopicQrels is nil") {
		t.Errorf("EvaluateLists without subtopic qrels: %v", err)
	}
}
