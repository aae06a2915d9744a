package evaluate

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/runio"
)

// TestIRMeasuresDiversityGolden runs ir_measures' diversity measures
// through the engine, as eval does (the TREC pair joined with --dedupe
// first, the qrels read again as subtopic qrels), on the goldens the real
// pyndeval made (testdata/irmeasures/ndeval_*.jsonl.gz): every per-query
// value to the bit (NaN as NaN), the same queries, and the summary within
// a few ulps of ir_measures' mean in its order (ours is correctly
// rounded). Measures ir_measures refuses must be refused by the parser.
func TestIRMeasuresDiversityGolden(t *testing.T) {
	num := func(v any) float64 {
		f, ok := golden.Num(v)
		if !ok {
			t.Fatalf("bad golden value %v", v)
		}
		return f
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	passed, failed := 0, 0
	// RANKMETRICS_NDEVAL_GOLDEN: parity/irmeasures/check_family.sh ndeval's file,
	// drawn with a fresh seed.
	files := golden.Files(t, "RANKMETRICS_NDEVAL_GOLDEN", "../testdata/irmeasures/ndeval_*.jsonl.gz")
	golden.Each(t, files, func(_ string, _ int, g *divCase) {
		qrels := strings.Join(g.Qrels, "\n") + "\n"
		sub, err := runio.ReadSubtopicQrels(context.Background(), strings.NewReader(qrels), "qrels")
		if err != nil {
			t.Fatal(err)
		}
		// Every measure of the case in one plan too: measures of
		// different settings share a query's memo, and must not mix.
		var all []Measure
		var allWant []map[string]float64
		for _, r := range g.Results {
			if r.Error != "" {
				continue
			}
			m, err := measure.Parse(r.Measure)
			if err != nil {
				continue // failed below
			}
			all = append(all, m)
			w := map[string]float64{}
			for _, x := range r.PerQ {
				w[x[0].(string)] = num(x[1])
			}
			allWant = append(allWant, w)
		}
		if len(all) > 0 {
			o := options(t, "float64", "stable")
			o.Measures = all
			o.QrelsOnly = Keep
			o.SubtopicQrels = sub
			rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(strings.Join(g.Run, "\n")+"\n"), "qrels", "run",
				runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup, Dedupe: runio.DedupeFirst})
			if err != nil {
				t.Fatal(err)
			}
			_, pq := run(t, rd, o)
			rd.Close()
			for k, w := range allWant {
				for qid, v := range w {
					if got := pq.values[qid]; !same(got[k], v) {
						t.Errorf("seed %d case %d, all measures together: %s query %s = %v, alone (ir_measures) %v", g.Seed, g.Case, all[k].Name, qid, got[k], v)
					}
				}
			}
		}
		for _, r := range g.Results {
			name := fmt.Sprintf("seed %d case %d %s", g.Seed, g.Case, r.Measure)
			m, err := measure.Parse(r.Measure)
			if r.Error != "" {
				if err == nil {
					t.Errorf("%s: ir_measures fails (%s), the parser accepts it", name, r.Error)
					failed++
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				failed++
				continue
			}
			o := options(t, "float64", "stable")
			o.Measures = []Measure{m}
			o.QrelsOnly = Keep
			o.SubtopicQrels = sub
			rd, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(strings.Join(g.Run, "\n")+"\n"), "qrels", "run",
				runio.Options{KeepDocs: true, Unsorted: runio.UnsortedGroup, Dedupe: runio.DedupeFirst})
			if err != nil {
				t.Fatal(err)
			}
			res, pq := run(t, rd, o)
			rd.Close()
			ok := len(pq.values) == len(r.PerQ)
			if !ok {
				t.Errorf("%s: %d queries, ir_measures %d", name, len(pq.values), len(r.PerQ))
			}
			for _, x := range r.PerQ {
				got, has := pq.values[x[0].(string)]
				if w := num(x[1]); !has || !same(got[0], w) {
					t.Errorf("%s: query %s = %v, ir_measures %v", name, x[0], got, w)
					ok = false
				}
			}
			all, got := num(r.All), res.Values[0]
			if !same(got, all) && !(math.Abs(got-all) <= 4e-16*math.Max(1, math.Abs(all))) {
				t.Errorf("%s: summary %v, ir_measures %v", name, got, all)
				ok = false
			}
			if ok {
				passed++
			} else {
				failed++
			}
		}
	})
	t.Logf("%d passed, %d failed", passed, failed)
}

// divCase is one case of the diversity goldens: a qrels file with
// subtopics, a run, and what ir_measures gave for each measure.
type divCase = golden.IRCase
