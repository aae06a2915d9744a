package evaluate_test

import (
	"context"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"strings"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
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
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType, cfg.Ties, cfg.Ragged = metric.Float64, metric.Stable, true
	res, err := evaluate.Run(context.Background(), r, evaluate.Options{
		Measures: []evaluate.Measure{measure.MAP(), measure.MAPAt(1)},
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

// ExampleRun_trecEval evaluates trec_eval's measures, computed as
// trec_eval computes them, on the run of ExampleRun (the reader keeps the
// document ids, which trec_eval's tie order needs). Query 301 ranks labels
// 0 1 2: recip_rank 1/2, P_2 1/2, map_cut_2 (1/2)/2 = 1/4, and ndcg_cut_3
// (gain = label) (1/log2(3) + 2/2) / (2 + 1/log2(3)) = 0.6199. Query 302
// ranks d5 (1) and d6 (unjudged) and misses d9 (relevant): recip_rank 1,
// P_2 1/2, map_cut_2 (1/1)/2 = 1/2 (d9 counts), ndcg_cut_3 1 / (1 +
// 1/log2(3)) = 0.6131 (d9 is in the ideal ranking).
func ExampleRun_trecEval() {
	qrels := "301 0 d1 1\n301 0 d2 0\n301 0 d7 2\n302 0 d5 1\n302 0 d9 1\n"
	run := "301 Q0 d2 1 2.5 demo\n301 Q0 d1 2 1.5 demo\n301 Q0 d7 3 0.5 demo\n" +
		"302 Q0 d5 1 0.9 demo\n302 Q0 d6 2 0.8 demo\n"
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{KeepDocs: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var measures []evaluate.Measure
	for _, name := range []string{"recip_rank", "P_2", "map_cut_2", "ndcg_cut_3"} {
		m, err := measure.Parse(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		measures = append(measures, m)
	}
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType, cfg.Ragged = metric.Float64, true
	res, err := evaluate.Run(context.Background(), r, evaluate.Options{
		Measures: measures, Config: cfg, Batch: 1024, Workers: 2,
		PerQuery: func(b *evaluate.Batch) error {
			for i := range b.Len() {
				fmt.Printf("%s", b.QID(i))
				for m := range measures {
					fmt.Printf(" %.4f", b.Value(m, i))
				}
				fmt.Println()
			}
			return nil
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for m, x := range measures {
		fmt.Printf("%s %.4f\n", x.Name, res.Values[m])
	}
	// Output:
	// 301 0.5000 0.5000 0.2500 0.6199
	// 302 1.0000 0.5000 0.5000 0.6131
	// recip_rank 0.7500
	// P_2 0.5000
	// map_cut_2 0.3750
	// ndcg_cut_3 0.6165
}
