package evaluate_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/evaluate"
	"github.com/rankmetrics/rankmetrics/internal/runio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// ExampleRun evaluates a small TREC run. Query 301 ranks its relevant
// documents d1 and d7 at 2 and 3: AP = (1/2 + 2/3) / 2 = 7/12. Query 302
// ranks d5 first but misses d9, also judged relevant: AP = 1/2. Query 303
// has no judgment and is skipped, as trec_eval does.
func ExampleRun() {
	qrels := "301 0 d1 1\n301 0 d2 0\n301 0 d7 2\n302 0 d5 1\n302 0 d9 1\n"
	run := "301 Q0 d2 1 2.5 demo\n301 Q0 d1 2 1.5 demo\n301 Q0 d7 3 0.5 demo\n" +
		"302 Q0 d5 1 0.9 demo\n302 Q0 d6 2 0.8 demo\n" +
		"303 Q0 d4 1 1.0 demo\n"
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	cfg := metric.DefaultConfig(metric.DefaultMAPName)
	cfg.DType, cfg.Ties, cfg.Ragged = metric.Float64, metric.Stable, true
	res, err := evaluate.Run(context.Background(), r, evaluate.Options{
		Measures: []evaluate.Measure{evaluate.MAP(), evaluate.MAPAt(1)},
		Config:   cfg,
		Batch:    1024,
		Workers:  2,
		PerQuery: func(b *evaluate.Batch) error {
			for i := range b.Len() {
				fmt.Printf("%s map %.4f map@1 %.4f\n", b.QID(i), b.Value(0, i), b.Value(1, i))
			}
			return nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("all map %.4f map@1 %.4f\n", res.Values[0], res.Values[1])
	fmt.Printf("read %d, evaluated %d, run-only skipped %d\n", res.Read, res.Evaluated, res.RunOnlySkipped)
	// Output:
	// 301 map 0.5833 map@1 0.0000
	// 302 map 0.5000 map@1 0.5000
	// all map 0.5417 map@1 0.2500
	// read 3, evaluated 2, run-only skipped 1
}
