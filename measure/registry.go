package measure

import (
	"fmt"
	"strings"
	"sync"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// Family is the reference whose definitions a measure name follows.
type Family uint8

const (
	// TFRanking is TF-Ranking 0.5.x's Keras metrics (tfr.keras.metrics).
	TFRanking Family = iota + 1
	// Convention is MAP under a named convention (metric.Convention).
	Convention
	// TrecEval is trec_eval's measures, version 10.0 or 9.0.8.
	TrecEval
	// IRMeasures is ir_measures 0.4.3's measures, by their default
	// provider.
	IRMeasures
	// KerasRS is keras-rs 0.4.0's ranking metrics (metric.ProfileKerasRS).
	KerasRS
	// Torchmetrics is torchmetrics 1.9's retrieval metrics
	// (metric.ProfileTorchmetrics).
	Torchmetrics
)

// String returns "TF-Ranking", "convention", "trec_eval", "ir_measures",
// "keras-rs" or "torchmetrics".
func (f Family) String() string {
	switch f {
	case TFRanking:
		return "TF-Ranking"
	case Convention:
		return "convention"
	case TrecEval:
		return "trec_eval"
	case IRMeasures:
		return "ir_measures"
	case KerasRS:
		return "keras-rs"
	case Torchmetrics:
		return "torchmetrics"
	}
	return fmt.Sprintf("Family(%d)", uint8(f))
}

// Summary says how a measure's per-query values make its overall value.
type Summary uint8

const (
	// WeightedMean is TF-Ranking's: the Keras Mean of the per-list values
	// weighted by their list weights.
	WeightedMean Summary = iota
	// Mean is the arithmetic mean over the queries evaluated.
	Mean
	// Sum is the sum over the queries (trec_eval's counts).
	Sum
	// GeoMean is the geometric mean (trec_eval's gm_map, gm_bpref).
	GeoMean
	// Count is the number of queries (num_q).
	Count
	// NoSummary: no overall value (relstring, runid).
	NoSummary
)

// String returns the summary's name: "weighted mean", "mean", "sum",
// "geometric mean", "count" or "none".
func (s Summary) String() string {
	switch s {
	case WeightedMean:
		return "weighted mean"
	case Mean:
		return "mean"
	case Sum:
		return "sum"
	case GeoMean:
		return "geometric mean"
	case Count:
		return "count"
	case NoSummary:
		return "none"
	}
	return fmt.Sprintf("Summary(%d)", uint8(s))
}

// Def is one record of the registry: one measure and everything a front end
// needs to know of it.
type Def struct {
	// Key is the measure's key in its family: "ndcg" (TF-Ranking), "map"
	// under a convention ("treceval"), "ndcg_cut" (trec_eval).
	Key string
	// Family is the reference the measure follows.
	Family Family
	// Forms are the name forms it answers to, K standing for a cutoff:
	// "ndcg@K", "ndcg_metric"; "ndcg_cut_K", "ndcg_cut.K,K...".
	Forms []string
	// Reference names the definition it follows.
	Reference string
	// Engine is the code that computes it.
	Engine string
	// Doc is a one-line definition.
	Doc string
	// Summary is how per-query values make the overall value.
	Summary Summary
	// Unit reports whether its values lie in [0, 1] (a histogram of
	// per-query values can be drawn on [0, 1]).
	Unit bool
	// Cutoff reports whether a name form takes a cutoff K.
	Cutoff bool
	// V10Only is set for trec_eval measures that 9.0.8 does not have.
	V10Only bool
	// TrecEvalOnly is set for the trec_eval measures that only
	// rankmetrics trec_eval computes: those printed in the summary only
	// (num_q, gm_map, gm_bpref, runid), relstring, and map, whose name is
	// TF-Ranking's in the other front ends (map:treceval and map_cut_K are
	// trec_eval's definition there).
	TrecEvalOnly bool
	// Subtopics reports whether the measure reads labels with subtopics
	// (precision_ia, alpha_dcg), which TREC and prediction files do not
	// have.
	Subtopics bool

	kind    metric.Kind
	conv    metric.Convention
	trec    treceval.MeasureInfo
	concept string // what the measure is about, for suggestions ("ndcg", "precision")
	ir      *irDef // an ir_measures measure's parameters
	profile metric.Profile
}

// registry is every record, with the maps that parse names in constant
// time. It is built once and never changed.
type registry struct {
	defs     []*Def
	tf       map[string]*Def // TF-Ranking key, "opa", and Keras default names
	kerasDef map[string]bool // the Keras default names among tf's keys
	conv     map[string]*Def // convention name
	trec     map[string]*Def // trec_eval measure name
	ir       map[string]*Def // ir_measures measure name
	prof     map[metric.Profile]map[metric.Kind]*Def
}

// reg returns the registry, built on first use.
var reg = sync.OnceValue(newRegistry)

// Defs returns every record of the registry: TF-Ranking's metrics, then
// MAP's conventions, then trec_eval's measures in trec_eval's order, then
// ir_measures', then keras-rs' and torchmetrics'.
func Defs() []Def {
	r := reg()
	out := make([]Def, len(r.defs))
	for i, d := range r.defs {
		out[i] = *d
	}
	return out
}

// tfDocs defines each TF-Ranking metric in a line, and the concept a
// suggestion matches it by.
var tfDocs = map[metric.Kind][2]string{
	metric.KindMAP:         {"mean average precision: precision at each relevant rank within K, over the weighted count of every relevant item of the list", "ap"},
	metric.KindMRR:         {"reciprocal rank of the first relevant item within K", "rr"},
	metric.KindHits:        {"1 when a relevant item is within K, else 0", "hits"},
	metric.KindARP:         {"average relevance position: mean rank of the items weighted by their labels", "arp"},
	metric.KindPrecision:   {"relevant items within K, over K (or the list's length when shorter)", "precision"},
	metric.KindRecall:      {"relevant items within K, over the relevant items of the list", "recall"},
	metric.KindNDCG:        {"DCG over the ideal DCG, gain 2^label-1 and discount 1/log2(rank+1) by default", "ndcg"},
	metric.KindDCG:         {"discounted cumulative gain, gain 2^label-1 and discount 1/log2(rank+1) by default", "dcg"},
	metric.KindOPA:         {"ordered pair accuracy: pairs of items with different labels that the scores order correctly", "opa"},
	metric.KindPrecisionIA: {"intent-aware precision over subtopic labels", "precisionia"},
	metric.KindAlphaDCG:    {"alpha-DCG over subtopic labels", "alphadcg"},
}

// convDocs defines MAP under each convention in a line.
var convDocs = map[metric.Convention]string{
	metric.TFRanking:         "MAP as TF-Ranking's map, without the judged documents a TREC run missed",
	metric.TrecEval:          "AP within K over every judged relevant document, as trec_eval's map and map_cut_K",
	metric.MinRK:             "AP within K over min(R, K), as Kaggle's apk",
	metric.RetrievedRelevant: "AP over the relevant items retrieved within K, as torchmetrics' RetrievalMAP",
	metric.XGBoost:           "XGBoost's map@n: AP over min(R, K), a list without relevant items scores 1",
	metric.XGBoostMinus:      "XGBoost's map@n-: AP over min(R, K), a list without relevant items scores 0",
}

// trecDocs defines trec_eval's measures in a line each (our own words), and
// the concept a suggestion matches each by.
var trecDocs = map[string][2]string{
	"runid":                 {"the run's tag", "runid"},
	"num_q":                 {"number of topics evaluated", "numq"},
	"num_ret":               {"documents retrieved", "numret"},
	"num_rel":               {"relevant documents judged", "numrel"},
	"num_rel_ret":           {"relevant documents retrieved", "numrelret"},
	"map":                   {"mean average precision over every judged relevant document", "ap"},
	"gm_map":                {"geometric mean of average precision", "gmap"},
	"Rprec":                 {"precision after R documents, R the number of relevant ones", "rprec"},
	"bpref":                 {"binary preference: judged non-relevant documents ranked above each relevant one", "bpref"},
	"recip_rank":            {"reciprocal rank of the first relevant document", "rr"},
	"iprec_at_recall":       {"interpolated precision at recall level K", "iprec"},
	"P":                     {"precision at K: relevant documents in the top K, over K", "precision"},
	"relstring":             {"the relevance of the top documents as a string", "relstring"},
	"recall":                {"recall at K: relevant documents in the top K, over the relevant ones", "recall"},
	"infAP":                 {"inferred average precision, for sampled judgments", "infap"},
	"gm_bpref":              {"geometric mean of bpref", "gmbpref"},
	"Rprec_mult":            {"precision after K times R documents", "rprec"},
	"utility":               {"linear utility of the retrieved set with the given coefficients", "utility"},
	"11pt_avg":              {"interpolated precision averaged over 11 recall levels", "11pt"},
	"binG":                  {"binary gain, discounted by log2 rank", "bing"},
	"G":                     {"gain (trec_eval's levels: gain = label unless given), discounted by log2 rank", "g"},
	"dcg":                   {"discounted cumulative gain, gain = label unless given", "dcg"},
	"ideal_dcg":             {"the ideal DCG of the topic", "idealdcg"},
	"ndcg":                  {"NDCG over the whole ranking, gain = label unless given", "ndcg"},
	"ndcg_rel":              {"NDCG averaged over the relevant documents", "ndcgrel"},
	"Rndcg":                 {"NDCG at R, R the number of relevant documents", "rndcg"},
	"ndcg_cut":              {"NDCG at K, gain = label", "ndcg"},
	"map_cut":               {"average precision at K over every judged relevant document", "ap"},
	"relative_P":            {"precision at K over the best precision possible at K", "relativep"},
	"success":               {"1 when a relevant document is in the top K, else 0", "hits"},
	"set_P":                 {"precision of the whole retrieved set", "setp"},
	"set_relative_P":        {"set precision over the best possible", "setrelativep"},
	"set_recall":            {"recall of the whole retrieved set", "setrecall"},
	"set_map":               {"set precision times set recall", "setmap"},
	"set_F":                 {"F measure of the retrieved set", "setf"},
	"num_nonrel_judged_ret": {"judged non-relevant documents retrieved", "numnonreljudgedret"},
	"yaap":                  {"yet another average precision", "yaap"},
	"rbp":                   {"rank-biased precision", "rbp"},
	"rbp_resid":             {"rank-biased precision's residual", "rbp"},
	"unj":                   {"unjudged documents in the top K", "unj"},
}

func newRegistry() *registry {
	r := &registry{tf: map[string]*Def{}, kerasDef: map[string]bool{}, conv: map[string]*Def{}, trec: map[string]*Def{}}
	for _, k := range metric.Kinds() {
		doc := tfDocs[k]
		d := &Def{Key: k.String(), Family: TFRanking, Reference: "TF-Ranking 0.5.5 tfr.keras.metrics",
			Engine: "metric (generated float32/float64 kernels)", Doc: doc[0], Summary: WeightedMean,
			Unit:   k != metric.KindARP && k != metric.KindDCG && k != metric.KindAlphaDCG,
			Cutoff: k.TakesTopN(), Subtopics: k.Subtopics(), kind: k, concept: doc[1]}
		d.Forms = []string{k.String()}
		if k == metric.KindNDCG {
			// Bare ndcg is trec_eval's (but compute's "metric" key).
			d.Forms = nil
		}
		if k == metric.KindOPA {
			d.Forms = append(d.Forms, "opa")
			r.tf["opa"] = d
		}
		if d.Cutoff {
			d.Forms = append(d.Forms, k.String()+"@K")
		}
		if k != metric.KindMAP {
			d.Forms = append(d.Forms, k.DefaultName())
			r.tf[k.DefaultName()] = d
			r.kerasDef[k.DefaultName()] = true
		}
		r.tf[k.String()] = d
		r.defs = append(r.defs, d)
	}
	for _, c := range metric.Conventions() {
		d := &Def{Key: c.String(), Family: Convention, Forms: []string{"map:" + c.String(), "map@K:" + c.String()},
			Reference: "metric.Convention " + c.String(), Engine: "metric (generated kernels)",
			Doc: convDocs[c], Summary: WeightedMean,
			Unit: true, Cutoff: true, conv: c, concept: "ap"}
		r.conv[c.String()] = d
		r.defs = append(r.defs, d)
	}
	for _, m := range treceval.Measures() {
		doc := trecDocs[m.Name]
		d := &Def{Key: m.Name, Family: TrecEval, Reference: "trec_eval 10.0 / 9.0.8 (--compat)",
			Engine: "metric/treceval (float64)", Doc: doc[0], V10Only: m.V10Only, trec: m, concept: doc[1]}
		switch m.Summary {
		case treceval.SummaryMean:
			d.Summary = Mean
		case treceval.SummarySum:
			d.Summary = Sum
		case treceval.SummaryGeoMean:
			d.Summary = GeoMean
		case treceval.SummaryCount:
			d.Summary = Count
		default:
			d.Summary = NoSummary
		}
		d.Unit = !m.Integer && d.Summary == Mean && !strings.Contains("G binG dcg ideal_dcg utility rbp_resid", m.Name)
		switch m.Params {
		case treceval.Cutoffs, treceval.RealCutoffs:
			d.Cutoff = true
			d.Forms = []string{m.Name + "_K", m.Name + ".K,K..."}
		case treceval.NoParams:
			d.Forms = []string{m.Name}
		default:
			d.Forms = []string{m.Name, m.Name + ".PARAMS"}
		}
		switch {
		case !m.PerTopic || m.Summary == treceval.SummaryNone || m.Name == "map":
			d.Forms, d.TrecEvalOnly = nil, true
		case m.Name == "dcg":
			d.Forms = d.Forms[1:] // bare dcg is TF-Ranking's
		}
		r.trec[m.Name] = d
		r.defs = append(r.defs, d)
	}
	r.irRecords()
	r.profileRecords()
	return r
}

// Def returns the record of m's measure.
func (m Measure) Def() *Def {
	r := reg()
	switch {
	case m.IR != nil:
		return r.ir[m.IR.Key]
	case m.TrecEval != "":
		base, _, _ := strings.Cut(m.TrecEval, ".")
		return r.trec[base]
	case m.Family == nil:
		return r.tf["map"]
	case m.Family.Profile != metric.ProfileTFRanking:
		return r.prof[m.Family.Profile][m.Family.Kind]
	case m.Family.Convention != metric.TFRanking || strings.Contains(m.Name, ":"):
		return r.conv[m.Family.Convention.String()]
	}
	return r.tf[m.Family.Kind.String()]
}
