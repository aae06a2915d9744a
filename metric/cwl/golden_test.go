package cwl

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/golden"
)

// cwlGolden is one case of testdata/irmeasures/cwl_*.jsonl.gz: a qrels and
// run pair and what ir_measures 0.4.3's cwl_eval provider gave for each
// measure (parity/irmeasures/generate_cwl.py).
type cwlGolden = golden.IRCase

func readCWLGolden(t *testing.T) []cwlGolden {
	t.Helper()
	// RANKMETRICS_CWL_GOLDEN: parity/irmeasures/check_family.sh cwl's file, drawn
	// with a fresh seed.
	return golden.All[cwlGolden](t, golden.Files(t, "RANKMETRICS_CWL_GOLDEN", "../../testdata/irmeasures/cwl_*.jsonl.gz"))
}

// measureOf builds the Measure from the parameters ir_measures recorded
// (defaults filled in).
func measureOf(name string, p map[string]any) (Measure, error) {
	kinds := map[string]Kind{}
	for k := RBP; k <= NERR11; k++ {
		kinds[k.String()] = k
	}
	k, ok := kinds[name]
	if !ok {
		return Measure{}, fmt.Errorf("unknown measure %q", name)
	}
	num := func(key string) float64 {
		v, _ := p[key].(float64)
		return v
	}
	m := Measure{Kind: k, Rel: int64(num("rel")), MinRel: int64(num("min_rel")), MaxRel: int64(num("max_rel")),
		P: num("p"), T: num("T"), K: int(num("cutoff"))}
	return m, nil
}

// goldenQuery is one topic of a case: the gains in cwl_eval's order.
type goldenQuery struct {
	qid   string
	gains func(Measure) []float64
}

// joinCase does what ir_measures does before cwl_eval scores: the run's
// documents of each judged topic ranked by score (ties in file order),
// each with its qrels label; topics of the run without judgments left
// out.
func joinCase(t *testing.T, g cwlGolden) (map[string]bool, []goldenQuery) {
	t.Helper()
	labels := map[string]map[string]int64{}
	for _, l := range g.Qrels {
		f := strings.Fields(l)
		v, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		if labels[f[0]] == nil {
			labels[f[0]] = map[string]int64{}
		}
		labels[f[0]][f[2]] = v // the last line of a document wins, as in cwl_eval
	}
	judged := map[string]bool{}
	for q := range labels {
		judged[q] = true
	}
	type doc struct {
		no    string
		score float64
	}
	var qs []goldenQuery
	seen := map[string]bool{}
	flush := func(qid string, docs []doc) {
		if !judged[qid] {
			return
		}
		if seen[qid] {
			t.Fatalf("seed %d case %d: topic %s in two runs of lines", g.Seed, g.Case, qid)
		}
		seen[qid] = true
		scores := make([]float64, len(docs))
		for i, d := range docs {
			scores[i] = d.score
		}
		order := Order(scores)
		lab := labels[qid]
		qs = append(qs, goldenQuery{qid: qid, gains: func(m Measure) []float64 {
			gs := make([]float64, len(order))
			for r, i := range order {
				if l, ok := lab[docs[i].no]; ok {
					gs[r] = m.Gain(l)
				}
			}
			return gs
		}})
	}
	cur := ""
	var docs []doc
	for _, l := range g.Run {
		f := strings.Fields(l)
		s, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			t.Fatal(err)
		}
		if f[0] != cur && docs != nil {
			flush(cur, docs)
			docs = nil
		}
		cur = f[0]
		docs = append(docs, doc{f[2], s})
	}
	if docs != nil {
		flush(cur, docs)
	}
	return judged, qs
}

// ulpDist is the number of float64 values between a and b.
func ulpDist(a, b float64) uint64 {
	if a == b {
		return 0
	}
	ia, ib := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if ia < 0 {
		ia = math.MinInt64 - ia
	}
	if ib < 0 {
		ib = math.MinInt64 - ib
	}
	if ia > ib {
		return uint64(ia - ib)
	}
	return uint64(ib - ia)
}

// TestGolden checks every measure against what ir_measures' cwl_eval
// provider computed, per query and overall, within 4 ulps (glibc's
// pow(x, 2.0) is not always x*x, and another processor's OpenBLAS kernel
// adds the last sum in another order; the ulp counts are logged).
func TestGolden(t *testing.T) {
	const maxULP = 4
	passed, exact, failed := 0, 0, 0
	hist := map[uint64]int{}
	for _, g := range readCWLGolden(t) {
		judged, qs := joinCase(t, g)
		for _, r := range g.Results {
			name := fmt.Sprintf("seed %d case %d %s", g.Seed, g.Case, r.Measure)
			if r.Error != "" {
				continue
			}
			m, err := measureOf(r.Name, r.Params)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				failed++
				continue
			}
			s, err := New(m)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				failed++
				continue
			}
			got := map[string]float64{}
			for q := range judged {
				got[q] = 0 // a judged topic the run lacks
			}
			for _, q := range qs {
				got[q.qid] = s.Score(q.gains(m))
			}
			ok, allExact := true, true
			if len(r.PerQ) != len(got) {
				t.Errorf("%s: %d topics, ir_measures %d", name, len(got), len(r.PerQ))
				ok = false
			}
			sum := 0.0
			for _, x := range r.PerQ {
				qid, want := x[0].(string), x[1].(float64)
				v, has := got[qid]
				d := ulpDist(v, want)
				hist[d]++
				if !has || d > maxULP {
					t.Errorf("%s: topic %s = %v, ir_measures %v (%d ulps)", name, qid, v, want, d)
					ok = false
				} else if d != 0 {
					t.Logf("%s: topic %s = %v, ir_measures %v (%d ulps)", name, qid, v, want, d)
					allExact = false
				}
				sum += v
			}
			mean := sum / float64(len(r.PerQ))
			all, isNum := golden.Num(r.All)
			if !isNum {
				t.Fatalf("%s: summary %v is not a number", name, r.All)
			}
			if d := ulpDist(mean, all); d > maxULP {
				t.Errorf("%s: mean %v, ir_measures %v (%d ulps)", name, mean, all, d)
				ok = false
			}
			switch {
			case !ok:
				failed++
			case allExact:
				exact++
				passed++
			default:
				passed++
			}
		}
	}
	t.Logf("ulp distance of per-topic values: %v", hist)
	t.Logf("%d to the bit; %d passed, %d failed", exact, passed, failed)
}
