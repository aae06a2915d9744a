package metric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// zeroCase runs every method of the zero value of metric type T, and Merge
// on a nil *T: none may panic; those that return an error return one
// wrapping ErrConfig that says how to make the metric, the others report an
// empty metric.
func zeroCase[T any, M interface {
	*T
	Metric
	Merge(...M) error
}](t *testing.T, name string, made M) {
	t.Helper()
	labels, _ := tensor.DenseRows([][]float32{{1, 0}})
	var z T
	m := M(&z)
	errs := map[string]error{"Update": m.Update(labels, labels, tensor.Weights{})}
	_, errs["Compute"] = m.Compute(labels, labels, tensor.Weights{})
	errs["SetState"] = m.SetState(made.State())
	errs["Merge into zero"] = m.Merge(made)
	errs["Merge a zero"] = made.Merge(m)
	errs["Merge into nil"] = M(nil).Merge(made)
	for what, err := range errs {
		if !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %s: %v, want an error wrapping ErrConfig", name, what, err)
		}
	}
	for _, what := range []string{"Update", "Compute", "SetState", "Merge into zero", "Merge a zero"} {
		if err := errs[what]; err != nil && !strings.Contains(err.Error(), "the zero value of a metric has no configuration; make it with its New function") {
			t.Errorf("%s: %s: %v, want it to say how to make the metric", name, what, err)
		}
	}
	if err := errs["Merge into nil"]; err != nil && !strings.Contains(err.Error(), "the receiver is nil") {
		t.Errorf("%s: Merge into nil: %v", name, err)
	}
	m.Reset()
	if m.Name() != "" || m.Result() != 0 || m.State().Count != 0 || m.Config().Name != "" {
		t.Errorf("%s: the zero value reports %q, %v, %v", name, m.Name(), m.Result(), m.State())
	}
}

// TestZeroAndNilMetrics checks the zero value of every metric type and of
// Suite, and nil receivers of Merge and of Suite's methods.
func TestZeroAndNilMetrics(t *testing.T) {
	mapm, _ := NewMeanAveragePrecision()
	zeroCase(t, "MeanAveragePrecision", mapm)
	mrr, _ := NewMRR()
	zeroCase(t, "MRR", mrr)
	hits, _ := NewHits()
	zeroCase(t, "Hits", hits)
	arp, _ := NewARP()
	zeroCase(t, "ARP", arp)
	prec, _ := NewPrecision()
	zeroCase(t, "Precision", prec)
	rec, _ := NewRecall()
	zeroCase(t, "Recall", rec)
	ndcg, _ := NewNDCG()
	zeroCase(t, "NDCG", ndcg)
	dcg, _ := NewDCG()
	zeroCase(t, "DCG", dcg)
	opa, _ := NewOPA()
	zeroCase(t, "OPA", opa)
	pia, _ := NewPrecisionIA(WithSubtopics(2))
	zeroCase(t, "PrecisionIA", pia)
	adcg, _ := NewAlphaDCG(WithSubtopics(2))
	zeroCase(t, "AlphaDCG", adcg)

	labels, _ := tensor.DenseRows([][]float32{{1, 0}})
	made, _ := NewSuite([]string{"map"})
	var zero Suite
	var null *Suite
	for name, s := range map[string]*Suite{"zero Suite": &zero, "nil Suite": null} {
		errs := map[string]error{"Update": s.Update(labels, labels, tensor.Weights{}), "Merge": s.Merge(made)}
		_, errs["Compute"] = s.Compute(labels, labels, tensor.Weights{})
		for what, err := range errs {
			if !errors.Is(err, ErrConfig) {
				t.Errorf("%s: %s: %v, want an error wrapping ErrConfig", name, what, err)
			}
		}
		s.Reset()
		s.Reseed(1)
		if v, ok := s.Result("map"); ok || v != 0 || len(s.Results()) != 0 || len(s.State()) != 0 || len(s.Names()) != 0 || len(s.Configs()) != 0 {
			t.Errorf("%s reports metrics", name)
		}
	}
	if err := made.Merge(&zero); !errors.Is(err, ErrConfig) {
		t.Errorf("merging a zero Suite: %v", err)
	}
}
