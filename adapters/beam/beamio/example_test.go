package beamio_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	rmbeam "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

// A whole pipeline on prism: read TSV, group by query, evaluate, write the
// report. q1 has AP (1 + 2/3)/2 = 5/6 and q2 AP 1/2, so MAP is 2/3.
func ExampleReadDelimited() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	data := "qid\tlabel\tscore\nq1\t1\t0.9\nq1\t0\t0.8\nq1\t1\t0.7\nq2\t0\t0.9\nq2\t1\t0.8\n"
	if err := os.WriteFile(filepath.Join(dir, "run.tsv"), []byte(data), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	measures := []metric.Config{{Name: "map", TopN: metric.NoTopN, DType: metric.Float64, Ties: metric.Stable, Ragged: true}}

	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadDelimited(s, []string{filepath.Join(dir, "*.tsv")}, '\t', beamio.Options{})
	lists, err := rmbeam.GroupChunks(s, rows.Output, rmbeam.DedupeError)
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := rmbeam.Evaluate(s, lists, measures, rmbeam.EvalOptions{}, rows)
	if err != nil {
		fmt.Println(err)
		return
	}
	report := filepath.Join(dir, "report.json")
	if err := rmbeam.Write(s, out, measures, rmbeam.Paths{Report: report}); err != nil {
		fmt.Println(err)
		return
	}
	if err := ptest.Run(p); err != nil { // the prism runner, in process
		fmt.Println(err)
		return
	}
	r, err := rmbeam.ReadReport(context.Background(), report)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %.4f over %d queries, %d items, %d dead letters\n",
		r.Measures[0].Name, r.Measures[0].Value, r.Counts.Queries, r.Counts.Items, r.Counts.DeadLetters)
	// Output: map 0.6667 over 2 queries, 5 items, 0 dead letters
}
