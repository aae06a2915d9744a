package metric

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// suiteBenchNames is the suite of issue 6's target: five metrics and
// cutoffs, which should cost no more than 1.5x MAP alone.
var suiteBenchNames = []string{"map", "map@10", "ndcg@5", "ndcg@10", "mrr"}

// BenchmarkSuiteVsMAP updates MeanAveragePrecision and a Suite alternately
// on the same 1024x100 batch (benchBatch), timing each, and reports their
// ratio: the cost of the suite in units of MAP alone, measured in the same
// run, in wall time (suite/map) and in the thread's CPU time
// (cpu-suite/map, on Linux). The suites are the five metrics of
// suiteBenchNames ("five") and MAP alone ("map"): one engine, which runs
// its MAP specialisation for MAP alone in a suite as in
// MeanAveragePrecision, so that ratio is 1 but for noise.
func BenchmarkSuiteVsMAP(b *testing.B) {
	const bsz, n = 1024, 100
	lab, sc := benchBatch(bsz, n)
	labels, _ := tensor.Dense(lab, bsz, n)
	scores, _ := tensor.Dense(sc, bsz, n)
	for _, suite := range []struct {
		name  string
		names []string
	}{{"five", suiteBenchNames}, {"map", []string{"map"}}} {
		for _, d := range []DType{Float32, Float64} {
			for _, ties := range []TiePolicy{Random, Stable} {
				b.Run(fmt.Sprintf("%s/%s/%s", suite.name, d, ties), func(b *testing.B) {
					benchSuiteVsMAP(b, suite.names, d, ties, labels, scores)
				})
			}
		}
	}
}

// benchSuiteVsMAP is one run of BenchmarkSuiteVsMAP: the suite of names
// against MeanAveragePrecision, both in dtype d with tie policy ties.
func benchSuiteVsMAP(b *testing.B, names []string, d DType, ties TiePolicy, labels, scores tensor.Lists) {
	bsz := labels.Len()
	m, err := NewMeanAveragePrecision(WithDType(d), WithTies(ties))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSuite(names, WithDType(d), WithTies(ties))
	if err != nil {
		b.Fatal(err)
	}
	// Wall time, and the CPU time of the thread, which a shared
	// machine's load does not inflate.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var tm, ts, cm, cs time.Duration
	for b.Loop() {
		c0, t0 := threadCPU(), time.Now()
		if err := m.Update(labels, scores, tensor.Weights{}); err != nil {
			b.Fatal(err)
		}
		c1, t1 := threadCPU(), time.Now()
		if err := s.Update(labels, scores, tensor.Weights{}); err != nil {
			b.Fatal(err)
		}
		c2, t2 := threadCPU(), time.Now()
		tm, ts = tm+t1.Sub(t0), ts+t2.Sub(t1)
		cm, cs = cm+c1-c0, cs+c2-c1
	}
	b.ReportMetric(float64(tm.Nanoseconds())/float64(b.N*bsz), "map-ns/list")
	b.ReportMetric(float64(ts.Nanoseconds())/float64(b.N*bsz), "suite-ns/list")
	b.ReportMetric(float64(ts)/float64(tm), "suite/map")
	if cm > 0 {
		b.ReportMetric(float64(cs)/float64(cm), "cpu-suite/map")
	}
}

// BenchmarkSuite updates a suite of the given metrics on the 1024x100
// batch, one metric at a time and all five, for the cost of each.
func BenchmarkSuite(b *testing.B) {
	const bsz, n = 1024, 100
	lab, sc := benchBatch(bsz, n)
	labels, _ := tensor.Dense(lab, bsz, n)
	scores, _ := tensor.Dense(sc, bsz, n)
	for _, names := range [][]string{{"map"}, {"map@10"}, {"ndcg@10"}, {"mrr"}, {"precision@10"}, {"arp"}, suiteBenchNames} {
		b.Run(fmt.Sprint(names), func(b *testing.B) {
			s, err := NewSuite(names)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := s.Update(labels, scores, tensor.Weights{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*bsz), "ns/list")
		})
	}
}
