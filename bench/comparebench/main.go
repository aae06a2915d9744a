// Command comparebench times the statistics of "rankmetrics compare
// --test randomization --all-pairs" on per-query values held in memory, for
// the ratio against ranx's compare in bench/README.md:
//
//	go run ./bench/comparebench -runs 100 -queries 10000 -samples 10000 -values /tmp/values.f64
//
// It draws -runs systems' per-query values on -queries queries (float32
// values in [0, 1], like AP, with a small per-system effect), writes them
// as little-endian float64, runs x queries, to -values for the Python peer
// (bench/py/ranx_compare_peer.py), then compares every pair of the first
// -compare runs as the command does (summary, randomization test with
// -samples samples, Holm correction) and prints one JSON line with the
// wall and CPU seconds.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"time"

	"github.com/rankmetrics/rankmetrics/significance"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "comparebench:", err)
		os.Exit(1)
	}
}

// values returns runs x queries values in [0, 1]: a per-query difficulty,
// a per-run effect of 0.002 per run index and noise, rounded to float32.
func values(runs, queries int, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 0xc0))
	base := make([]float64, queries)
	for q := range base {
		base[q] = rng.Float64()
	}
	out := make([][]float64, runs)
	for r := range out {
		out[r] = make([]float64, queries)
		for q := range out[r] {
			v := base[q] + 0.002*float64(r) + 0.15*rng.NormFloat64()
			out[r][q] = float64(float32(min(1, max(0, v))))
		}
	}
	return out
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("comparebench", flag.ContinueOnError)
	runs := fs.Int("runs", 100, "systems")
	queries := fs.Int("queries", 10000, "queries")
	samples := fs.Int("samples", 10000, "randomization samples")
	compare := fs.Int("compare", 0, "compare all pairs of the first N runs (default all)")
	seed := fs.Uint64("seed", 1, "seed of the values and of the test")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "workers of the test")
	out := fs.String("values", "", "write the values to `FILE` (float64, runs x queries)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *compare <= 0 || *compare > *runs {
		*compare = *runs
	}
	vals := values(*runs, *queries, *seed)
	if *out != "" {
		buf := make([]byte, 0, *runs**queries*8)
		for _, r := range vals {
			for _, v := range r {
				buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
			}
		}
		if err := os.WriteFile(*out, buf, 0o644); err != nil {
			return err
		}
	}
	opts := []significance.Option{significance.WithSamples(*samples), significance.WithSeed(*seed), significance.WithWorkers(*workers)}
	t0, c0 := time.Now(), cpuSeconds()
	var ps []float64
	for i := range *compare {
		for j := i + 1; j < *compare; j++ {
			if _, err := significance.Summarize(vals[i], vals[j], significance.DefaultAlpha); err != nil {
				return err
			}
			d, err := significance.Differences(vals[i], vals[j])
			if err != nil {
				return err
			}
			r, err := significance.Randomization(ctx, d, append(opts, significance.WithStream(uint64(i)<<21|uint64(j)))...)
			if err != nil {
				return err
			}
			ps = append(ps, r.P)
		}
	}
	if _, err := significance.Holm.Adjust(ps); err != nil {
		return err
	}
	wall, cpu := time.Since(t0).Seconds(), cpuSeconds()-c0
	significant := 0
	for _, p := range ps {
		if p <= significance.DefaultAlpha {
			significant++
		}
	}
	return json.NewEncoder(stdout).Encode(map[string]any{
		"peer": "rankmetrics", "what": "all-pairs randomization (summary + test + holm)",
		"runs": *compare, "queries": *queries, "samples": *samples, "pairs": len(ps), "workers": *workers,
		"seconds": wall, "cpu_seconds": cpu, "significant_raw": significant,
	})
}
