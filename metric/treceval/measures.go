package treceval

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/internal/crlog"
)

// avgKind says how a measure's per-topic values become the "all" value.
type avgKind int

const (
	avgMean   avgKind = iota // arithmetic mean over topics
	avgSum                   // sum over topics
	avgGeo                   // geometric mean (values are logarithms)
	avgNumQ                  // number of topics
	avgNumRel                // sum, or with -c the judged relevant documents of every topic
	avgNone                  // no summary value (relstring)
)

// printKind says how a measure's values are printed.
type printKind int

const (
	prDouble      printKind = iota // "%6.4f" per topic and in the summary
	prLong                         // "%ld" per topic and in the summary
	prSummary                      // "%6.4f" in the summary only
	prSummaryLong                  // "%ld" in the summary only
	prRunid                        // the run's id, summary only
	prRelstring                    // a quoted string per topic only
)

// measureDef defines one trec_eval measure.
type measureDef struct {
	name      string
	v10       bool // only in trec_eval 10.0
	params    paramKind
	defLong   []int64
	defDouble []float64
	calc      func(e *Evaluator, m *measure, r *Ranked, v []float64) error
	avg       avgKind
	print     printKind
}

var (
	stdCuts    = []int64{5, 10, 15, 20, 30, 100, 200, 500, 1000}
	recallFrac = []float64{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
)

// measureDefs lists every measure in trec_eval's output order.
var measureDefs = []*measureDef{
	{name: "runid", calc: calcNone, avg: avgNone, print: prRunid},
	{name: "num_q", calc: calcNumQ, avg: avgNumQ, print: prSummaryLong},
	{name: "num_ret", calc: calcNumRet, avg: avgSum, print: prLong},
	{name: "num_rel", calc: calcNumRel, avg: avgNumRel, print: prLong},
	{name: "num_rel_ret", calc: calcNumRelRet, avg: avgSum, print: prLong},
	{name: "map", calc: calcMap},
	{name: "gm_map", calc: calcGmMap, avg: avgGeo, print: prSummary},
	{name: "Rprec", calc: calcRprec},
	{name: "bpref", calc: calcBpref},
	{name: "recip_rank", calc: calcRecipRank},
	{name: "iprec_at_recall", params: doubleCuts, defDouble: recallFrac, calc: calcIprecAtRecall},
	{name: "P", params: longCuts, defLong: stdCuts, calc: calcP},
	{name: "relstring", params: doubleParams, defDouble: []float64{10}, calc: calcRelstring, avg: avgNone, print: prRelstring},
	{name: "recall", params: longCuts, defLong: stdCuts, calc: calcRecall},
	{name: "infAP", calc: calcInfAP},
	{name: "gm_bpref", calc: calcGmBpref, avg: avgGeo, print: prSummary},
	{name: "Rprec_mult", params: doubleCuts, defDouble: []float64{0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0}, calc: calcRprecMult},
	{name: "utility", params: doubleParams, defDouble: []float64{1, -1, 0, 0}, calc: calcUtility},
	{name: "11pt_avg", params: doubleParams, defDouble: recallFrac, calc: calc11ptAvg},
	{name: "binG", calc: calcBinG},
	{name: "G", params: pairParams, calc: calcG},
	{name: "dcg", v10: true, params: pairParams, calc: calcDcg},
	{name: "ideal_dcg", v10: true, params: pairParams, calc: calcIdealDcg},
	{name: "ndcg", params: pairParams, calc: calcNdcg},
	{name: "ndcg_rel", params: pairParams, calc: calcNdcgRel},
	{name: "Rndcg", params: pairParams, calc: calcRndcg},
	{name: "ndcg_cut", params: longCuts, defLong: stdCuts, calc: calcNdcgCut},
	{name: "map_cut", params: longCuts, defLong: stdCuts, calc: calcMapCut},
	{name: "relative_P", params: longCuts, defLong: stdCuts, calc: calcRelativeP},
	{name: "success", params: longCuts, defLong: []int64{1, 5, 10}, calc: calcSuccess},
	{name: "set_P", calc: calcSetP},
	{name: "set_relative_P", calc: calcSetRelativeP},
	{name: "set_recall", calc: calcSetRecall},
	{name: "set_map", calc: calcSetMap},
	{name: "set_F", params: doubleParams, defDouble: []float64{1}, calc: calcSetF},
	{name: "num_nonrel_judged_ret", calc: calcNumNonrelJudgedRet, avg: avgSum, print: prLong},
	{name: "yaap", calc: calcYaap},
	{name: "rbp", v10: true, params: pairParams, calc: calcRbp},
	{name: "rbp_resid", v10: true, params: pairParams, calc: calcRbpResid},
	{name: "unj", v10: true, params: longCuts, defLong: []int64{5, 10, 20}, calc: calcUnj},
}

// Measure sets trec_eval knows by a nickname.
var (
	officialNames = []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
		"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"}
	setNames = []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
		"set_recall", "set_relative_P", "set_map", "set_F"}
	allTrec908 = []string{"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
		"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP",
		"gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut",
		"ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P",
		"set_map", "set_F", "num_nonrel_judged_ret"}
	allTrec10 = append(append([]string{}, allTrec908...), "unj", "rbp", "rbp_resid")
)

// Errors of measure selection. ErrIllegalMeasure is what trec_eval
// reports (exit status 1) for an unknown name; ErrMeasureInit is a bad
// parameter (exit status 2).
var (
	ErrIllegalMeasure = errors.New("illegal measure")
	ErrMeasureInit    = errors.New("cannot initialize measure")
	ErrUnsupported    = errors.New("not supported by rankmetrics trec_eval")
	errUtilityParams  = errors.New("utility needs exactly 4 coefficients")
)

// unsupported names the measures and nicknames of trec_eval's preference
// and judgement-group formats, which this package refuses.
func unsupported(name string) bool {
	switch name {
	case "all_prefs", "prefs", "qrels_jg", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg":
		return true
	}
	return strings.HasPrefix(name, "prefs_")
}

// measure is a requested measure with its parameters.
type measure struct {
	def     *measureDef
	off     int
	names   []string
	cuts    []int64
	dcuts   []float64
	dparams []float64
	pairs   []pair
}

// Evaluator computes the requested trec_eval measures topic by topic. It
// is not safe for concurrent use; it reuses its buffers so that
// evaluating a topic allocates nothing in steady state.
type Evaluator struct {
	cfg     Config
	ms      []*measure
	nvals   int
	ranker  *Ranker
	relstr  []byte
	longs   []int64
	gainSet gainSet
	gainTmp []relGain
	// topic counts the rankings made (Evaluate, Follow; 0: none, as
	// for a direct call of gains); gainSet was made for ranking
	// gainTopic with the parameters gainPairs, and the measures of that
	// topic with the same parameters share it.
	topic, gainTopic uint64
	gainPairs        []pair
	// rank is false when no measure uses the ranking (runid, num_q).
	rank bool
	// ctx is the context of the topic being evaluated, nil outside
	// EvaluateContext.
	ctx   context.Context
	log2s []float64
}

// lg returns log2(k) for an integer k >= 1, correctly rounded as
// glibc's log2 (crlog.Log2), from a table grown on demand (computed once per
// rank).
func (e *Evaluator) lg(k int64) float64 {
	if k < int64(len(e.log2s)) && k >= 1 {
		return e.log2s[k]
	}
	if k < 1 || k > 1<<24 {
		return crlog.Log2(k)
	}
	n := max(2*k, 64)
	for i := int64(len(e.log2s)); i < n; i++ {
		e.log2s = append(e.log2s, crlog.Log2(i))
	}
	return e.log2s[k]
}

// NewEvaluator selects measures as trec_eval's -m options do: each spec
// is a measure name or nickname (official, all_trec, set), optionally
// followed by '.' and parameters (P.5,10; ndcg.1=0.5,2=3). With no specs
// it selects "official". Measures come out in trec_eval's fixed order.
func NewEvaluator(cfg Config, specs []string) (*Evaluator, error) {
	if len(specs) == 0 {
		specs = []string{"official"}
	}
	if cfg.MaxRet < 0 {
		return nil, fmt.Errorf("treceval: negative -M %d (trec_eval crashes)", cfg.MaxRet)
	}
	marked := map[string]bool{}
	params := map[string]string{}
	for _, spec := range specs {
		name, par, hasPar := strings.Cut(spec, ".")
		if hasPar {
			if par == "" {
				return nil, fmt.Errorf("%w %q: empty parameters", ErrIllegalMeasure, spec)
			}
			if _, ok := params[name]; !ok {
				params[name] = par
			}
		}
		if unsupported(name) {
			return nil, fmt.Errorf("%w: %q needs the prefs or qrels_jg formats, which are refused", ErrUnsupported, name)
		}
		var set []string
		switch name {
		case "official":
			set = officialNames
		case "set":
			set = setNames
		case "all_trec":
			set = allTrec10
			if cfg.Version == V908 {
				set = allTrec908
			}
		default:
			set = []string{name}
		}
		for _, n := range set {
			if findDef(n, cfg.Version) == nil {
				return nil, fmt.Errorf("%w %q (trec_eval %s)", ErrIllegalMeasure, spec, cfg.Version)
			}
			marked[n] = true
		}
	}
	if cfg.Version == V10 {
		// dcg, ideal_dcg and ndcg share one parameter block in trec_eval
		// 10.0, which frees it once per measure: two of them with
		// parameters crash it (double free) after printing.
		n, withParams := 0, false
		for _, name := range []string{"dcg", "ideal_dcg", "ndcg"} {
			if marked[name] {
				n++
				_, has := params[name]
				withParams = withParams || has
			}
		}
		if n >= 2 && withParams {
			return nil, fmt.Errorf("%w: trec_eval 10.0 crashes (double free) when two of dcg, ideal_dcg and ndcg are requested and one has parameters; request them in separate runs", ErrUnsupported)
		}
	}
	e := &Evaluator{cfg: cfg, ranker: NewRanker(cfg)}
	for _, d := range measureDefs {
		if !marked[d.name] || d.v10 && cfg.Version != V10 {
			continue
		}
		m := &measure{def: d, off: e.nvals}
		par, has := params[d.name]
		if err := m.init(par, has); err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrMeasureInit, d.name, err)
		}
		e.ms = append(e.ms, m)
		e.nvals += len(m.names)
		// trec_eval ranks a topic (and checks it: duplicates, levels)
		// only when a measure other than runid and num_q asks for it.
		e.rank = e.rank || d.name != "runid" && d.name != "num_q"
	}
	return e, nil
}

func findDef(name string, v Version) *measureDef {
	for _, d := range measureDefs {
		if d.name == name && (!d.v10 || v == V10) {
			return d
		}
	}
	return nil
}

// init reads the measure's parameters (or its defaults) and names its
// values.
func (m *measure) init(par string, has bool) error {
	d := m.def
	switch d.params {
	case noParams:
		m.names = []string{d.name}
	case longCuts:
		m.cuts = d.defLong
		if has {
			c, err := parseLongCuts(par)
			if err != nil {
				return err
			}
			m.cuts = c
		}
		for _, c := range m.cuts {
			m.names = append(m.names, fmt.Sprintf("%s_%d", d.name, c))
		}
	case doubleCuts:
		m.dcuts = d.defDouble
		if has {
			c, err := parseDoubleCuts(par)
			if err != nil {
				return err
			}
			m.dcuts = c
		}
		for _, c := range m.dcuts {
			m.names = append(m.names, cutName(d.name, c))
		}
	case doubleParams:
		m.dparams = d.defDouble
		m.names = []string{d.name}
		if has {
			m.dparams = parseDoubles(par)
			m.names[0] = d.name + "_" + par
		}
	case pairParams:
		m.names = []string{d.name}
		if has {
			p, err := parsePairs(par)
			if err != nil {
				return err
			}
			m.pairs = p
			m.names[0] = d.name + "_" + par
		}
	}
	return nil
}

// Names returns the names of the values the Evaluator computes, in order.
func (e *Evaluator) Names() []string {
	var out []string
	for _, m := range e.ms {
		out = append(out, m.names...)
	}
	return out
}

// NumValues is the length of a topic's value vector.
func (e *Evaluator) NumValues() int { return e.nvals }

// Config returns the evaluator's configuration.
func (e *Evaluator) Config() Config { return e.cfg }

func (e *Evaluator) isRel(rel int64) bool { return rel >= e.cfg.RelLevel }

// longBuf returns a reusable scratch slice of n integers.
func (e *Evaluator) longBuf(n int) []int64 {
	if cap(e.longs) < n {
		e.longs = make([]int64, n)
	}
	return e.longs[:n]
}
