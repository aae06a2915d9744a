// Command mapbench times rankmetrics' MAP kernel on an RKM1 data set held in
// memory (compute only), for the ratios of bench/README.md:
//
//	go run ./bench/mapbench -data bench/data/data.bin
//
// Each case updates fresh metrics with every list, in batches of -batch
// lists, and prints one JSON line: the median, minimum and maximum seconds
// of -reps repetitions, and the MAP. Repetitions go round-robin over the
// cases (every case once, then every case again), so that a slow spell of
// the shared machine falls on every case alike instead of on one case's
// block of repetitions, and ratios between cases stay fair. With -workers N the batches are
// shared by N goroutines, each with its own metric, merged at the end.
// Run it under taskset -c 0 for one-core figures.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mapbench:", err)
		os.Exit(1)
	}
}

// Data is an RKM1 data set as float32 arrays.
type Data struct {
	Q, L           int
	Labels, Scores []float32
}

// ReadRKM1 loads an RKM1 file.
func ReadRKM1(path string) (*Data, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(raw) < 12 || string(raw[:4]) != "RKM1" {
		return nil, fmt.Errorf("%s: not an RKM1 file", path)
	}
	q := int(binary.LittleEndian.Uint32(raw[4:]))
	l := int(binary.LittleEndian.Uint32(raw[8:]))
	if len(raw) != 12+5*q*l {
		return nil, fmt.Errorf("%s: %d bytes, want %d for Q=%d L=%d", path, len(raw), 12+5*q*l, q, l)
	}
	d := &Data{Q: q, L: l, Labels: make([]float32, q*l), Scores: make([]float32, q*l)}
	for i := range d.Labels {
		d.Labels[i] = float32(int8(raw[12+i]))
		d.Scores[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[12+q*l+4*i:]))
	}
	return d, nil
}

// Case is one measurement.
type Case struct {
	DType   metric.DType
	Ties    metric.TiePolicy
	TopN    int
	Workers int
}

func (c Case) String() string {
	m := "map"
	if c.TopN != metric.NoTopN {
		m = fmt.Sprintf("map@%d", c.TopN)
	}
	return fmt.Sprintf("compute %s %s %s, %d worker(s)", c.DType, m, c.Ties, c.Workers)
}

// Once computes the case over every list of d once and returns the MAP.
func Once(d *Data, c Case, batch int) (float64, error) {
	opts := []metric.Option{metric.WithDType(c.DType), metric.WithTies(c.Ties)}
	if c.TopN != metric.NoTopN {
		opts = append(opts, metric.WithTopN(c.TopN))
	}
	nb := (d.Q + batch - 1) / batch
	ms := make([]*metric.MeanAveragePrecision, c.Workers)
	errs := make([]error, c.Workers)
	var wg sync.WaitGroup
	for w := range c.Workers {
		m, err := metric.NewMeanAveragePrecision(opts...)
		if err != nil {
			return 0, err
		}
		ms[w] = m
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := w; b < nb; b += c.Workers {
				lo, hi := b*batch, min((b+1)*batch, d.Q)
				labels, err := tensor.Dense(d.Labels[lo*d.L:hi*d.L], hi-lo, d.L)
				if err == nil {
					var scores tensor.Lists
					if scores, err = tensor.Dense(d.Scores[lo*d.L:hi*d.L], hi-lo, d.L); err == nil {
						err = m.Update(labels, scores, tensor.Weights{})
					}
				}
				if err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	if err := ms[0].Merge(ms[1:]...); err != nil {
		return 0, err
	}
	return ms[0].Result(), nil
}

// Result is one JSON line of output.
type Result struct {
	Peer    string    `json:"peer"`
	What    string    `json:"what"`
	Seconds float64   `json:"seconds"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Runs    []float64 `json:"runs"`
	MAP     float64   `json:"map,omitempty"`
	Items   int       `json:"items"`
	Procs   int       `json:"gomaxprocs"`
}

// measureAll times every case reps times, round-robin over the cases.
func measureAll(ctx context.Context, d *Data, cases []Case, batch, reps int) ([]Result, error) {
	runs := make([][]float64, len(cases))
	maps := make([]float64, len(cases))
	for range reps {
		for i, c := range cases {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t := time.Now()
			v, err := Once(d, c, batch)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c, err)
			}
			runs[i] = append(runs[i], time.Since(t).Seconds())
			maps[i] = v
		}
	}
	out := make([]Result, len(cases))
	for i, c := range cases {
		s := slices.Clone(runs[i])
		slices.Sort(s)
		out[i] = Result{Peer: "rankmetrics", What: c.String(), Seconds: s[len(s)/2], Min: s[0], Max: s[len(s)-1],
			Runs: runs[i], MAP: maps[i], Items: d.Q * d.L, Procs: runtime.GOMAXPROCS(0)}
	}
	return out, nil
}

// spinSink keeps the spin loop's result alive.
var spinSink atomic.Uint64

// spinControl times a fixed amount of pure arithmetic split over w
// goroutines: on an idle 2-core machine 2 goroutines take half the time of
// one. It shows whether the scaling figures could scale at all.
func spinControl(w, reps int) Result {
	const n = 200_000_000
	var runs []float64
	for range reps {
		t := time.Now()
		var wg sync.WaitGroup
		for range w {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x := uint64(1)
				for i := range n / w {
					x = x*6364136223846793005 + uint64(i)
				}
				spinSink.Add(x)
			}()
		}
		wg.Wait()
		runs = append(runs, time.Since(t).Seconds())
	}
	s := slices.Clone(runs)
	slices.Sort(s)
	return Result{Peer: "control", What: fmt.Sprintf("spin loop, %d worker(s)", w), Seconds: s[len(s)/2], Min: s[0], Max: s[len(s)-1],
		Runs: runs, Procs: runtime.GOMAXPROCS(0)}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mapbench", flag.ContinueOnError)
	data := fs.String("data", "bench/data/data.bin", "RKM1 data set")
	reps := fs.Int("reps", 5, "repetitions per case")
	batch := fs.Int("batch", 1024, "lists per update")
	set := fs.String("cases", "one-core", "case set: one-core (every tie policy, map and map@10, float32 and float64, 1 worker) or scaling (stable and random, 1 and 2 workers)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *reps < 1 || *batch < 1 {
		return fmt.Errorf("-reps and -batch must be at least 1")
	}
	d, err := ReadRKM1(*data)
	if err != nil {
		return err
	}
	var cases []Case
	switch *set {
	case "one-core":
		for _, p := range []metric.TiePolicy{metric.Stable, metric.Random, metric.Pessimistic, metric.Optimistic, metric.Expected} {
			cases = append(cases, Case{metric.Float32, p, metric.NoTopN, 1})
		}
		for _, p := range []metric.TiePolicy{metric.Stable, metric.Random} {
			cases = append(cases, Case{metric.Float32, p, 10, 1})
			cases = append(cases, Case{metric.Float64, p, metric.NoTopN, 1})
		}
	case "scaling":
		for _, p := range []metric.TiePolicy{metric.Stable, metric.Random} {
			for _, w := range []int{1, 2} {
				cases = append(cases, Case{metric.Float32, p, metric.NoTopN, w})
			}
		}
	default:
		return fmt.Errorf("unknown case set %q", *set)
	}
	enc := json.NewEncoder(stdout)
	if *set == "scaling" {
		// The control: can this machine, now, run two goroutines at once?
		for _, w := range []int{1, 2} {
			if err := enc.Encode(spinControl(w, *reps)); err != nil {
				return err
			}
		}
	}
	results, err := measureAll(ctx, d, cases, *batch, *reps)
	if err != nil {
		return err
	}
	for _, r := range results {
		if err := enc.Encode(r); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, strings.TrimSpace(fmt.Sprintf("mapbench: %-55s median %.3f s, fastest %.3f s", r.What, r.Seconds, r.Min)))
	}
	return nil
}
