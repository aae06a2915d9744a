package evaluate

import (
	"context"
	"errors"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// The TREC fixture: every value below is worked out by hand.
//
//	q1: run d1 (rel 1), d2 (rel 0), d3 (rel 2); qrels judge all three.
//	    AP = (1/1 + 2/3) / 2 = 5/6; AP@1 = (1/1) / 2 = 1/2.
//	q2: run d4 (unjudged), d5 (rel 1); the qrels also judge d9 relevant,
//	    which the run misses: AP = (1/2) / 2 = 1/4; AP@1 = 0.
//	q3: run only (no judgment): skipped, or AP 0 when kept.
//	q4: qrels only: skipped, or AP 0 when kept.
const (
	fixtureQrels = "q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq2 0 d5 1\nq2 0 d9 1\nq4 0 d1 1\n"
	fixtureRun   = "q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n" +
		"q2 Q0 d4 1 0.9 t\nq2 Q0 d5 2 0.8 t\n" +
		"q3 Q0 d7 1 1 t\n"
)

func TestRunOneSidedQueries(t *testing.T) {
	tests := []struct {
		name                string
		runOnly, qrelsOnly  Policy
		batch               int
		ragged              bool
		want                map[string]float64 // per query, map then map@1
		mean, mean1         float64
		evald, items        int64
		runSkipped, qrSkipd int64
	}{
		{"skip both", Skip, Skip, 1024, true, map[string]float64{"q1": 5.0 / 6, "q2": 0.25}, (5.0/6 + 0.25) / 2, 0.25, 2, 5, 1, 1},
		{"keep run-only", Keep, Skip, 1024, true, map[string]float64{"q1": 5.0 / 6, "q2": 0.25, "q3": 0}, (5.0/6 + 0.25) / 3, 0.5 / 3, 3, 6, 0, 1},
		{"keep both", Keep, Keep, 1024, true, map[string]float64{"q1": 5.0 / 6, "q2": 0.25, "q3": 0, "q4": 0}, (5.0/6 + 0.25) / 4, 0.125, 4, 6, 0, 0},
		// One query per update: the qrels-only query is an update alone.
		{"keep both, batch 1", Keep, Keep, 1, true, map[string]float64{"q1": 5.0 / 6, "q2": 0.25, "q3": 0, "q4": 0}, (5.0/6 + 0.25) / 4, 0.125, 4, 6, 0, 0},
		{"keep both, dense", Keep, Keep, 1, false, map[string]float64{"q1": 5.0 / 6, "q2": 0.25, "q3": 0, "q4": 0}, (5.0/6 + 0.25) / 4, 0.125, 4, 6, 0, 0},
		{"skip both, dense", Skip, Skip, 1024, false, map[string]float64{"q1": 5.0 / 6, "q2": 0.25}, (5.0/6 + 0.25) / 2, 0.25, 2, 5, 1, 1},
	}
	for _, tc := range tests {
		for _, dtype := range []string{"float32", "float64"} {
			t.Run(tc.name+" "+dtype, func(t *testing.T) {
				o := options(t, dtype, "stable", "map", "map@1")
				o.RunOnly, o.QrelsOnly, o.Batch, o.Config.Ragged = tc.runOnly, tc.qrelsOnly, tc.batch, tc.ragged
				res, pq := run(t, trecReader(t, fixtureQrels, fixtureRun), o)
				tol := 1e-15
				if dtype == "float32" {
					tol = 1e-7
				}
				if math.Abs(res.Values[0]-tc.mean) > tol || math.Abs(res.Values[1]-tc.mean1) > tol {
					t.Errorf("map, map@1 = %v, want %v, %v", res.Values, tc.mean, tc.mean1)
				}
				if len(pq.values) != len(tc.want) {
					t.Errorf("per-query rows %v, want %v", pq.values, tc.want)
				}
				for q, want := range tc.want {
					if got, ok := pq.values[q]; !ok || math.Abs(got[0]-want) > tol {
						t.Errorf("query %s: %v, want map %v", q, got, want)
					}
				}
				if res.Read != 4 || res.Evaluated != tc.evald || res.Items != tc.items || res.RunOnlySkipped != tc.runSkipped || res.QrelsOnlySkipped != tc.qrSkipd {
					t.Errorf("read %d evaluated %d items %d skipped %d/%d; want 4 %d %d %d/%d", res.Read, res.Evaluated, res.Items,
						res.RunOnlySkipped, res.QrelsOnlySkipped, tc.evald, tc.items, tc.runSkipped, tc.qrSkipd)
				}
				if st := res.Stats; st.RunOnlyQueries != 1 || st.QrelsOnlyQueries != 1 || st.UnrankedRelevant != 2 {
					t.Errorf("reader stats %+v", st)
				}
			})
		}
	}
}

// TestRunTies checks every tie policy on one list where a non-relevant and
// a relevant item tie at the top, followed by a relevant item:
// stable (input order) ranks non-rel, rel, rel: AP = (1/2 + 2/3)/2 = 7/12;
// optimistic ranks rel first: (1 + 2/3)/2 = 5/6; pessimistic = stable;
// expected = mean of the two orders = (7/12 + 5/6)/2 = 17/24.
func TestRunTies(t *testing.T) {
	q := []runio.Query{{QID: "q", Labels: []float64{0, 1, 1}, Scores: []float64{1, 1, 0.5}}}
	for ties, want := range map[string]float64{"stable": 7.0 / 12, "optimistic": 5.0 / 6, "pessimistic": 7.0 / 12, "expected": 17.0 / 24} {
		res, _ := run(t, &sliceReader{qs: q}, options(t, "float64", ties, "map"))
		if got := res.Values[0]; math.Abs(got-want) > 1e-15 {
			t.Errorf("ties %s: map = %v, want %v", ties, got, want)
		}
	}
	// Random ties give one of the two orders, reproducibly for a seed.
	seen := map[float64]bool{}
	for seed := range uint64(40) {
		o := options(t, "float64", "random", "map")
		o.Config.Seed = seed
		a, _ := run(t, &sliceReader{qs: q}, o)
		b, _ := run(t, &sliceReader{qs: q}, o)
		if a.Values[0] != b.Values[0] {
			t.Fatalf("seed %d: %v then %v", seed, a.Values[0], b.Values[0])
		}
		if v := a.Values[0]; math.Abs(v-7.0/12) > 1e-15 && math.Abs(v-5.0/6) > 1e-15 {
			t.Fatalf("seed %d: random map %v is neither order", seed, v)
		}
		seen[a.Values[0]] = true
	}
	if len(seen) != 2 {
		t.Errorf("40 seeds gave %d distinct orders, want both", len(seen))
	}
}

// TestRunAgainstNaive compares Run on random TREC data (ties, unjudged and
// unranked relevant documents) with naiveAP, per query and overall: to
// 1e-12 in float64, and to float32 rounding (1e-6) in float32.
func TestRunAgainstNaive(t *testing.T) {
	for _, topn := range []int{-1, 5} {
		qrels, runText, want := randomTREC(uint64(topn+10), 300, topn)
		m := "map"
		if topn >= 0 {
			m = measure.MAPAt(topn).Name
		}
		for _, dt := range []struct {
			dtype string
			tol   float64
		}{{"float64", 1e-12}, {"float32", 1e-6}} {
			o := options(t, dt.dtype, "stable", m)
			o.RunOnly = Keep // queries without any judgment have AP 0
			o.Batch = 64
			res, pq := run(t, trecReader(t, qrels, runText), o)
			if len(pq.values) != len(want) {
				t.Fatalf("%s: %d per-query rows, want %d", dt.dtype, len(pq.values), len(want))
			}
			mean := 0.0
			for qid, w := range want {
				if got := pq.values[qid][0]; math.Abs(got-w) > dt.tol {
					t.Errorf("%s %s query %s: %v, naive %v", dt.dtype, m, qid, got, w)
				}
				mean += w
			}
			mean /= float64(len(want))
			if got := res.Values[0]; math.Abs(got-mean) > dt.tol {
				t.Errorf("%s %s = %v, naive mean %v", dt.dtype, m, got, mean)
			}
		}
	}
}

// sameBits reports whether a and b hold the same float64 bit patterns.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// checkWorkers runs the input of newReader with 1 worker and then with each
// of workers, and fails unless every result, per query and overall, has
// the same bits.
func checkWorkers(t *testing.T, name string, newReader func() runio.Reader, o Options, workers ...int) {
	t.Helper()
	o.Workers = 1
	base, basePQ := run(t, newReader(), o)
	for _, w := range workers {
		o.Workers = w
		res, pq := run(t, newReader(), o)
		if !sameBits(res.Values, base.Values) || !sameBits(res.Curve, base.Curve) || !slices.Equal(res.Hist, base.Hist) {
			t.Errorf("%s: %d workers give %v %v %v, 1 worker %v %v %v", name, w, res.Values, res.Curve, res.Hist, base.Values, base.Curve, base.Hist)
		}
		if !slices.Equal(pq.order, basePQ.order) {
			t.Errorf("%s: %d workers give the queries in another order", name, w)
			continue
		}
		for _, q := range pq.order {
			if !sameBits(pq.values[q], basePQ.values[q]) {
				t.Errorf("%s: %d workers: query %s: %v, 1 worker %v", name, w, q, pq.values[q], basePQ.values[q])
				break
			}
		}
	}
}

// TestRunWorkersBitIdentical: every result, per query and overall, is the
// same for any worker count, tie policy and dtype.
func TestRunWorkersBitIdentical(t *testing.T) {
	qs := randomQueries(1, 700, true)
	for _, ties := range []string{"random", "stable", "expected"} {
		for _, dtype := range []string{"float32", "float64"} {
			o := options(t, dtype, ties, "map", "map@3")
			o.Batch, o.CurveK = 64, 4
			checkWorkers(t, ties+" "+dtype, func() runio.Reader { return &sliceReader{qs: qs} }, o, 2, 3, 8)
		}
	}
}

// TestRunWorkersBitIdenticalTREC: the same for TREC input with unranked
// relevant documents, whose counts go with each update to the metric.
func TestRunWorkersBitIdenticalTREC(t *testing.T) {
	qrels, runText, _ := randomTREC(21, 500, -1)
	for _, dtype := range []string{"float32", "float64"} {
		o := options(t, dtype, "random", "map", "map@4")
		o.Batch, o.RunOnly = 16, Keep
		checkWorkers(t, dtype, func() runio.Reader { return trecReader(t, qrels, runText) }, o, 2, 5)
	}
}

// TestRunInFlightBitIdentical: every result, per query and overall, is the
// same with 2 or 3 updates in flight as with the default, for 1 to 4
// workers.
func TestRunInFlightBitIdentical(t *testing.T) {
	qrels, runText, _ := randomTREC(22, 400, -1)
	o := options(t, "float32", "random", "map", "map@4")
	o.Batch, o.RunOnly = 16, Keep
	o.Workers = 1
	base, basePQ := run(t, trecReader(t, qrels, runText), o)
	for _, n := range []int{2, 3} {
		for _, w := range []int{1, 2, 4} {
			o.InFlight, o.Workers = n, w
			res, pq := run(t, trecReader(t, qrels, runText), o)
			if !sameBits(res.Values, base.Values) || !slices.Equal(pq.order, basePQ.order) {
				t.Fatalf("%d in flight, %d workers: %v, default %v", n, w, res.Values, base.Values)
			}
			for _, q := range pq.order {
				if !sameBits(pq.values[q], basePQ.values[q]) {
					t.Fatalf("%d in flight, %d workers: query %s: %v, default %v", n, w, q, pq.values[q], basePQ.values[q])
				}
			}
		}
	}
}

// TestRunCurveAndHistogram: the curve is MAP@k as a run of map@k alone
// gives it, and the histogram bins the per-query values of the first map
// (or of the first measure without one).
func TestRunCurveAndHistogram(t *testing.T) {
	qs := randomQueries(5, 400, false)
	for _, measures := range [][]string{{"map@3", "map"}, {"map@3"}} {
		o := options(t, "float32", "stable", measures...)
		o.CurveK = 6
		res, pq := run(t, &sliceReader{qs: qs}, o)
		if len(res.Curve) != 6 {
			t.Fatalf("curve %v, want 6 values", res.Curve)
		}
		for k := 1; k <= 6; k++ {
			alone, _ := run(t, &sliceReader{qs: qs}, options(t, "float32", "stable", measure.MAPAt(k).Name))
			if res.Curve[k-1] != alone.Values[0] {
				t.Errorf("%v: curve at %d = %v, map@%d alone %v", measures, k, res.Curve[k-1], k, alone.Values[0])
			}
		}
		wantM := len(measures) - 1 // map when there is one, else the first
		if res.HistMeasure != wantM {
			t.Errorf("%v: histogram of measure %d, want %d", measures, res.HistMeasure, wantM)
		}
		counts := make([]int64, HistBins)
		for _, q := range pq.order {
			b := int(math.Floor(pq.values[q][wantM] * HistBins))
			if b == HistBins {
				b--
			}
			counts[b]++
		}
		if !slices.Equal(res.Hist, counts) {
			t.Errorf("%v: histogram %v, per-query values give %v", measures, res.Hist, counts)
		}
		var total int64
		for _, c := range counts {
			total += c
		}
		if total != 400 || res.Evaluated != 400 {
			t.Errorf("%v: %d queries in the histogram, %d evaluated, want 400", measures, total, res.Evaluated)
		}
	}
}

// TestRunDistinctValuesAndLongest: HistValues counts the per-query values
// one by one while there are at most MaxDistinct of them, and Longest is
// the longest list evaluated (a skipped run-only query does not count).
func TestRunDistinctValuesAndLongest(t *testing.T) {
	qs := randomQueries(7, 300, false)
	longest := 0
	for _, q := range qs {
		longest = max(longest, len(q.Scores))
	}
	skipped := runio.Query{QID: "zz", Match: runio.MatchRunOnly, Labels: make([]float64, longest+5), Scores: make([]float64, longest+5)}
	for _, tc := range []struct {
		measure  string
		distinct bool
	}{{"precision@4", true}, {"hits@3", true}, {"map", false}} {
		o := options(t, "float64", "stable", tc.measure)
		o.Batch, o.Workers = 16, 2
		res, pq := run(t, &sliceReader{qs: append(slices.Clone(qs), skipped)}, o)
		if res.Longest != longest {
			t.Errorf("%s: longest %d, want %d", tc.measure, res.Longest, longest)
		}
		want := map[float64]int64{}
		for _, q := range pq.order {
			want[pq.values[q][0]]++
		}
		if len(want) > MaxDistinct == tc.distinct {
			t.Fatalf("%s: %d distinct values: the case does not test what it should", tc.measure, len(want))
		}
		switch {
		case tc.distinct && !maps.Equal(res.HistValues, want):
			t.Errorf("%s: distinct values %v, per-query values give %v", tc.measure, res.HistValues, want)
		case !tc.distinct && res.HistValues != nil:
			t.Errorf("%s: %d distinct values counted, want nil over %d", tc.measure, len(res.HistValues), MaxDistinct)
		}
	}
}

// TestRunQIDSamples: the first SampleQIDs qids of each kind of TREC query,
// in input order, whether skipped or evaluated.
func TestRunQIDSamples(t *testing.T) {
	var qs []runio.Query
	kinds := []runio.Match{runio.MatchRunOnly, runio.MatchBoth, runio.MatchQrelsOnly, runio.MatchRunOnly}
	for i := range 20 {
		q := runio.Query{QID: fmt.Sprintf("q%02d", i), Match: kinds[i%4], Labels: []float64{1}, Scores: []float64{1}}
		if q.Match == runio.MatchQrelsOnly {
			q.Labels, q.Scores, q.UnrankedLabels = nil, nil, []float64{1}
		}
		qs = append(qs, q)
	}
	for _, keep := range []Policy{Skip, Keep} {
		o := options(t, "float32", "stable", "map")
		o.RunOnly, o.QrelsOnly = keep, keep
		res, _ := run(t, &sliceReader{qs: qs}, o)
		if !slices.Equal(res.RunOnlyQIDs, []string{"q00", "q03", "q04"}) || !slices.Equal(res.BothQIDs, []string{"q01", "q05", "q09"}) ||
			!slices.Equal(res.QrelsOnlyQIDs, []string{"q02", "q06", "q10"}) {
			t.Errorf("%v: samples run-only %v, both %v, qrels-only %v", keep, res.RunOnlyQIDs, res.BothQIDs, res.QrelsOnlyQIDs)
		}
	}
}

// TestRunProgress: the progress counters end at the queries and items
// evaluated.
func TestRunProgress(t *testing.T) {
	qs := randomQueries(6, 300, false)
	var items int64
	for _, q := range qs {
		items += int64(len(q.Scores))
	}
	o := options(t, "float32", "stable", "map")
	o.Batch, o.Workers = 7, 2
	var p Progress
	o.Progress = &p
	res, _ := run(t, &sliceReader{qs: qs}, o)
	if p.Queries.Load() != 300 || p.Items.Load() != items || res.Items != items {
		t.Errorf("progress %d queries, %d items; result %d items; want 300, %d", p.Queries.Load(), p.Items.Load(), res.Items, items)
	}
}

func TestRunErrors(t *testing.T) {
	good := func() runio.Reader { return &sliceReader{qs: randomQueries(7, 50, false)} }
	ctx := context.Background()
	base := options(t, "float32", "stable", "map")
	tests := []struct {
		name   string
		ctx    func() context.Context
		reader func() runio.Reader
		opts   func(o *Options)
		want   string
	}{
		{"no measure", nil, good, func(o *Options) { o.Measures = nil }, "no measure"},
		{"batch 0", nil, good, func(o *Options) { o.Batch = 0 }, "batch 0"},
		{"workers 0", nil, good, func(o *Options) { o.Workers = 0 }, "workers 0"},
		{"curve -1", nil, good, func(o *Options) { o.CurveK = -1 }, "curve k -1"},
		{"one update in flight", nil, good, func(o *Options) { o.InFlight = 1 }, "1 updates in flight"},
		{"bad dtype", nil, good, func(o *Options) { o.Config.DType = 9 }, "unknown dtype 9"},
		{"infinite weight", nil, func() runio.Reader {
			return &sliceReader{qs: []runio.Query{
				{QID: "a", Labels: []float64{1}, Scores: []float64{1}, Weights: []float64{1}},
				{QID: "b", Labels: []float64{1, 0}, Scores: []float64{1, 2}, Weights: []float64{1, math.Inf(-1)}},
			}}
		}, nil, `query "b" (line 2): item 2: weight -Inf is not finite`},
		{"per-query error", nil, good, func(o *Options) {
			o.Batch = 5
			o.PerQuery = func(b *Batch) error {
				if b.QID(0) == "11" {
					return errors.New("sink full")
				}
				return nil
			}
		}, "sink full"},
		{"canceled", func() context.Context {
			c, cancel := context.WithCancel(ctx)
			cancel()
			return c
		}, good, nil, context.Canceled.Error()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			if tc.opts != nil {
				tc.opts(&o)
			}
			c := ctx
			if tc.ctx != nil {
				c = tc.ctx()
			}
			res, err := Run(c, tc.reader(), o)
			if res != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run: error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestRunMetricErrorNamesQueries: an error of the metric names the first
// and last query of the update.
func TestRunMetricErrorNamesQueries(t *testing.T) {
	// Per-item weights and unranked relevant documents cannot go together.
	qs := []runio.Query{
		{QID: "x", Labels: []float64{1}, Scores: []float64{1}, Weights: []float64{1}},
		{QID: "y", Labels: []float64{0}, Scores: []float64{1}, Weights: []float64{1}, UnrankedLabels: []float64{2}},
	}
	_, err := Run(context.Background(), &sliceReader{qs: qs}, options(t, "float64", "stable", "map"))
	if err == nil || !strings.Contains(err.Error(), `queries "x" to "y"`) || !errors.Is(err, metric.ErrInput) {
		t.Errorf("Run: error %v, want one naming queries x to y and wrapping metric.ErrInput", err)
	}
}

func TestBatchSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for s := range uint64(4) {
		for i := range 1000 {
			seen[batchSeed(s, i)] = true
		}
	}
	if len(seen) != 4000 {
		t.Errorf("batch seeds collide: %d distinct of 4000", len(seen))
	}
}

// blockingReader yields its queries, then blocks in Next until release is
// closed, as a reader of a pipe that has no more data yet; blocked is
// closed when it starts to block.
type blockingReader struct {
	sliceReader
	blocked, release chan struct{}
}

func (r *blockingReader) Next(q *runio.Query) error {
	if r.i < len(r.qs) {
		return r.sliceReader.Next(q)
	}
	close(r.blocked)
	<-r.release
	return io.EOF
}

// TestRunInterruptWhileReading: when the context ends while the reader is
// blocked, Run returns the context's error at once, not when the input
// ends.
func TestRunInterruptWhileReading(t *testing.T) {
	r := &blockingReader{sliceReader: sliceReader{qs: randomQueries(9, 50, false)}, blocked: make(chan struct{}), release: make(chan struct{})}
	defer close(r.release)
	o := options(t, "float32", "stable", "map")
	o.Batch, o.Workers = 10, 2
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, r, o)
		done <- err
	}()
	<-r.blocked
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run still waits for the blocked reader 10 s after the interrupt")
	}
}
