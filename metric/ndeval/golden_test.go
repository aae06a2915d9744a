package ndeval

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
	"github.com/rankmetrics/rankmetrics/runio"
)

// ndGolden is one case of testdata/irmeasures/ndeval_*.jsonl.gz: subtopic
// qrels, a run, and what ir_measures 0.4.3's pyndeval provider gave for
// each measure (parity/irmeasures/generate_ndeval.py). NaN is written
// "NaN".
type ndGolden = golden.IRCase

func readNDGolden(t *testing.T) []ndGolden {
	t.Helper()
	// RANKMETRICS_NDEVAL_GOLDEN: parity/irmeasures/check_family.sh ndeval's file,
	// drawn with a fresh seed.
	return golden.All[ndGolden](t, golden.Files(t, "RANKMETRICS_NDEVAL_GOLDEN", "../../testdata/irmeasures/ndeval_*.jsonl.gz"))
}

// goldenNum reads a recorded value: a number, or "NaN".
func goldenNum(t *testing.T, v any) float64 {
	f, ok := golden.Num(v)
	if !ok {
		t.Fatalf("bad golden value %v", v)
	}
	return f
}

// ndMeasureOf builds the Measure from the parameters ir_measures recorded.
func ndMeasureOf(name string, p map[string]any) (Measure, error) {
	var m Measure
	for k := ERRIA; k <= StRecall; k++ {
		if k.String() == name {
			m.Kind = k
		}
	}
	if m.Kind == 0 {
		return m, fmt.Errorf("unknown measure %q", name)
	}
	num := func(key string, def float64) float64 {
		if v, ok := p[key].(float64); ok {
			return v
		}
		return def
	}
	m.Cutoff = int(num("cutoff", 0))
	m.Rel = int64(num("rel", 1))
	// ir_measures passes its defaults (0.5) for the parameters a measure
	// does not have.
	m.Alpha = num("alpha", 0.5)
	m.Beta = num("beta", 0.5)
	m.JudgedOnly, _ = p["judged_only"].(bool)
	return m, nil
}

// TestGolden checks every measure against what ir_measures' pyndeval
// provider computed, per query (to the bit) and overall.
func TestGolden(t *testing.T) {
	passed, failed, refused := 0, 0, 0
	for _, g := range readNDGolden(t) {
		qrels, err := runio.ReadSubtopicQrels(context.Background(), strings.NewReader(strings.Join(g.Qrels, "\n")+"\n"), "qrels")
		if err != nil {
			t.Fatal(err)
		}
		// The run: consecutive lines of a topic, ranked as pyndeval ranks.
		type topicRun struct {
			qid  string
			docs []string
		}
		var runs []topicRun
		var docs []string
		var scores []float64
		cur := ""
		flush := func() {
			if docs == nil {
				return
			}
			o := Order(docs, scores)
			ranked := make([]string, len(o))
			for r, i := range o {
				ranked[r] = docs[i]
			}
			runs = append(runs, topicRun{cur, ranked})
			docs, scores = nil, nil
		}
		for _, l := range g.Run {
			f := strings.Fields(l)
			if f[0] != cur {
				flush()
				cur = f[0]
			}
			s, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, f[2])
			scores = append(scores, s)
		}
		flush()
		for _, r := range g.Results {
			name := fmt.Sprintf("seed %d case %d %s", g.Seed, g.Case, r.Measure)
			if r.Error != "" {
				// Measures ir_measures refuses or fails on must be refused here.
				m, err := ndMeasureOf(r.Name, r.Params)
				if r.Name != "" && err == nil && m.Validate() == nil {
					t.Errorf("%s: ir_measures fails (%s), Validate accepts it", name, r.Error)
				}
				refused++
				continue
			}
			m, err := ndMeasureOf(r.Name, r.Params)
			if err == nil {
				err = m.Validate()
			}
			if err != nil {
				t.Errorf("%s: %v", name, err)
				failed++
				continue
			}
			got := map[string]float64{}
			for _, q := range qrels.QIDs {
				got[q] = 0 // a judged topic the run lacks
			}
			topics := map[string]*Topic{}
			for _, tr := range runs {
				js, ok := qrels.Topics[tr.qid]
				if !ok {
					continue
				}
				top := topics[tr.qid]
				if top == nil {
					jj := make([]Judgment, len(js))
					for i, j := range js {
						jj[i] = Judgment{Subtopic: j.Subtopic, Doc: j.Doc, Label: j.Rel}
					}
					top = NewTopic(jj, m.Params)
					topics[tr.qid] = top
				}
				got[tr.qid] = top.Eval(tr.docs).Get(m)
			}
			ok := len(r.PerQ) == len(got)
			if !ok {
				t.Errorf("%s: %d topics, ir_measures %d", name, len(got), len(r.PerQ))
			}
			sum := 0.0
			for _, x := range r.PerQ {
				qid, want := x[0].(string), goldenNum(t, x[1])
				v, has := got[qid]
				if !has || !(v == want || math.IsNaN(v) && math.IsNaN(want)) {
					t.Errorf("%s: topic %s = %v, ir_measures %v", name, qid, v, want)
					ok = false
				}
				sum += v
			}
			// ir_measures' mean adds the values in the order it yields them.
			mean, all := sum/float64(len(r.PerQ)), goldenNum(t, r.All)
			if !(mean == all || math.IsNaN(mean) && math.IsNaN(all)) {
				t.Errorf("%s: mean %v, ir_measures %v", name, mean, all)
				ok = false
			}
			if ok {
				passed++
			} else {
				failed++
			}
		}
	}
	t.Logf("%d refused as ir_measures refuses them; %d passed, %d failed", refused, passed, failed)
}
