package measure

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/cwl"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/metric/ndeval"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// IRSpec says how a measure of ir_measures (family IRMeasures) is
// computed: by a provider of package metric/irm (Calc), or, for
// pytrec_eval's, by which trec_eval measure under which settings.
type IRSpec struct {
	// Key is ir_measures' name of the measure: "AP", "nDCG", "NumQ".
	Key string
	// Provider is the name of the ir_measures provider whose values the
	// measure has: "pytrec_eval" (computed by metric/treceval), "judged",
	// "msmarco", "gdeval", "compat", "accuracy"...
	Provider string
	// Calc computes the measure when its provider is not pytrec_eval.
	Calc irm.Measure
	// Repr is the name as ir_measures prints it: Name, but with the
	// parameters in the order they were written (ir_measures keeps it).
	Repr string
	// Params holds every parameter of the measure as ir_measures writes
	// it (the defaults included; "" for an absent one without default).
	Params map[string]string
	// RelLevel is the smallest label that counts as relevant: the rel
	// parameter, which ir_measures passes to pytrec_eval as its
	// relevance_level (trec_eval -l).
	RelLevel int64
	// JudgedOnly is the judged_only parameter, pytrec_eval's
	// judged_docs_only_flag (trec_eval -J).
	JudgedOnly bool
	// Gains, when not nil, maps the labels of the qrels before
	// pytrec_eval reads them (nDCG's gains parameter; a label it does not
	// list keeps its value).
	Gains map[int64]int64
	// Sum is set for the counts (NumQ, NumRel, NumRet, NumRelRet), whose
	// overall value is the sum of their per-query values; the others'
	// is the mean.
	Sum bool
	// Count is set for NumQ: 1 for a query the run ranks documents of.
	Count bool
}

// IRVersion is the trec_eval release whose code pytrec_eval (the
// pytrec-eval-terrier distribution ir_measures 0.4.3 uses) runs: 9.0.8,
// which keeps scores in a C float.
const IRVersion = treceval.V908

// TrecConfig returns the trec_eval configuration s's value is computed
// under.
func (s *IRSpec) TrecConfig() treceval.Config {
	c := treceval.DefaultConfig(IRVersion)
	c.RelLevel = s.RelLevel
	c.JudgedOnly = s.JudgedOnly
	return c
}

// irParam is one parameter of an ir_measures measure.
type irParam struct {
	name string
	kind byte   // 'i' int, 'b' bool, 'f' float, 's' str
	def  string // its default as ir_measures writes it; "" for none
}

// irDef is what the parser knows of one ir_measures measure.
type irDef struct {
	key    string
	params []irParam // in the order the canonical name writes them
	at     string    // the parameter @ sets: "cutoff", or "recall" (IPrec)
	needAt bool      // the @ parameter is required
	doc    string
	// trec returns the trec_eval -m specification of the measure with
	// these parameters (absent ones hold their defaults), "" when
	// pytrec_eval does not compute them, or an error for parameters no
	// provider takes.
	trec func(p map[string]string) (string, error)
	// provs are the other providers that compute the measure, in
	// ir_measures' order of preference: each returns the measure's
	// computation for these parameters, or errNotProvided.
	provs   []irProv
	sum     bool
	unit    bool
	concept string
}

// irProv is one provider of a measure other than pytrec_eval.
type irProv struct {
	name string
	calc func(p map[string]string) (irm.Measure, error)
}

// errNotProvided is an irProv's error for parameters its provider does
// not take.
var errNotProvided = errors.New("not provided")

// pytrecEval is the provider name of the measures metric/treceval computes.
const pytrecEval = "pytrec_eval"

var (
	pRel      = irParam{"rel", 'i', "1"}
	pJudged   = irParam{"judged_only", 'b', "False"}
	pCutoff   = irParam{"cutoff", 'i', ""}
	pMinRel   = irParam{"min_rel", 'i', "0"}
	pMaxRel   = irParam{"max_rel", 'i', ""}
	pAlpha    = irParam{"alpha", 'f', "0.5"}
	irDefList = []irDef{
		{key: "AP", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", unit: true, concept: "ap",
			doc:  "average precision (within the cutoff) over every judged relevant document, by pytrec_eval (trec_eval 9.0.8's map, map_cut)",
			trec: func(p map[string]string) (string, error) { return withCut("map", "map_cut", p), nil }},
		{key: "P", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "precision",
			doc:  "precision at the cutoff: relevant documents in the top K, over K, by pytrec_eval (trec_eval 9.0.8's P)",
			trec: func(p map[string]string) (string, error) { return "P." + p["cutoff"], nil }},
		{key: "R", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "recall",
			doc:  "recall at the cutoff, by pytrec_eval (trec_eval 9.0.8's recall)",
			trec: func(p map[string]string) (string, error) { return "recall." + p["cutoff"], nil }},
		{key: "nDCG", params: []irParam{pCutoff, {"dcg", 's', "'log2'"}, {"gains", 'd', ""}, pJudged}, at: "cutoff", unit: true, concept: "ndcg",
			doc: "NDCG (at the cutoff), gain = label (gains={label:gain,...} maps labels), by pytrec_eval (trec_eval 9.0.8's ndcg, ndcg_cut); with dcg='exp-log2' and a cutoff, gain 2^label-1 and discount 1/ln(rank+1), by gdeval",
			trec: func(p map[string]string) (string, error) {
				switch p["dcg"] {
				case "'log2'":
				case "'exp-log2'":
					return "", nil
				default:
					return "", fmt.Errorf("dcg is 'log2' or 'exp-log2', not %s", p["dcg"])
				}
				return withCut("ndcg", "ndcg_cut", p), nil
			},
			provs: []irProv{{"gdeval", gdevalCalc(false)}}},
		{key: "RR", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", unit: true, concept: "rr",
			doc: "reciprocal rank of the first relevant document, by pytrec_eval (trec_eval 9.0.8's recip_rank); with a cutoff, within the top K (ties by docno ascending), by msmarco",
			trec: func(p map[string]string) (string, error) {
				if p["cutoff"] != "" {
					return "", nil
				}
				return "recip_rank", nil
			},
			provs: []irProv{{"msmarco", msmarcoCalc}}},
		{key: "Rprec", params: []irParam{pRel, pJudged}, unit: true, concept: "rprec",
			doc:  "precision after R documents, R the number of relevant ones, by pytrec_eval (trec_eval 9.0.8's Rprec); write Rprec() for it without parameters, bare Rprec being trec_eval 10.0's",
			trec: constSpec("Rprec")},
		{key: "Bpref", params: []irParam{pRel}, unit: true, concept: "bpref",
			doc: "binary preference, by pytrec_eval (trec_eval 9.0.8's bpref)", trec: constSpec("bpref")},
		{key: "infAP", params: []irParam{pRel}, unit: true, concept: "infap",
			doc: "inferred average precision, by pytrec_eval (trec_eval 9.0.8's infAP)", trec: constSpec("infAP")},
		{key: "IPrec", params: []irParam{{"recall", 'f', ""}, pRel, pJudged}, at: "recall", needAt: true, unit: true, concept: "iprec",
			doc: "interpolated precision at the recall level after @ (written with a decimal point), by pytrec_eval (trec_eval 9.0.8's iprec_at_recall)",
			trec: func(p map[string]string) (string, error) {
				x, _ := strconv.ParseFloat(p["recall"], 64)
				return "iprec_at_recall." + strconv.FormatFloat(x, 'f', 2, 64), nil
			}},
		{key: "Success", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "hits",
			doc:  "1 when a relevant document is in the top K, else 0, by pytrec_eval (trec_eval 9.0.8's success)",
			trec: func(p map[string]string) (string, error) { return "success." + p["cutoff"], nil }},
		{key: "SetP", params: []irParam{pRel, {"relative", 'b', "False"}, pJudged}, unit: true, concept: "setp",
			doc: "precision of the retrieved set (relative=True: over the best possible), by pytrec_eval (trec_eval 9.0.8's set_P, set_relative_P)",
			trec: func(p map[string]string) (string, error) {
				if p["relative"] == "True" {
					return "set_relative_P", nil
				}
				return "set_P", nil
			}},
		{key: "SetR", params: []irParam{pRel}, unit: true, concept: "setrecall",
			doc: "recall of the retrieved set, by pytrec_eval (trec_eval 9.0.8's set_recall)", trec: constSpec("set_recall")},
		{key: "SetF", params: []irParam{pRel, {"beta", 'f', "1.0"}, pJudged}, unit: true, concept: "setf",
			doc: "F measure of the retrieved set, by pytrec_eval (trec_eval 9.0.8's set_F)",
			trec: func(p map[string]string) (string, error) {
				if p["beta"] == "1.0" {
					return "set_F", nil
				}
				return "set_F." + p["beta"], nil
			}},
		{key: "SetAP", params: []irParam{pRel, pJudged}, unit: true, concept: "setmap",
			doc: "set precision times set recall, by pytrec_eval (trec_eval 9.0.8's set_map)", trec: constSpec("set_map")},
		{key: "NumQ", sum: true, concept: "numq",
			doc: "1 for each query the run ranks documents of (the sum counts them), by pytrec_eval", trec: constSpec("num_ret")},
		{key: "NumRel", params: []irParam{pRel}, sum: true, concept: "numrel",
			doc: "relevant documents judged (rel=1 only, as pytrec_eval), by pytrec_eval (trec_eval 9.0.8's num_rel)",
			trec: func(p map[string]string) (string, error) {
				if p["rel"] != "1" {
					return "", fmt.Errorf("%w: ir_measures computes NumRel with rel=1 only", ErrNoProvider)
				}
				return "num_rel", nil
			}},
		{key: "NumRet", params: []irParam{{"rel", 'i', ""}}, sum: true, concept: "numret",
			doc:  "documents retrieved; with rel=N, relevant ones retrieved (NumRelRet), by pytrec_eval (trec_eval 9.0.8's num_ret, num_rel_ret)",
			trec: numRet},
		{key: "NumRelRet", params: []irParam{{"rel", 'i', "1"}}, sum: true, concept: "numrelret",
			doc: "relevant documents retrieved (NumRet(rel=1)), by pytrec_eval (trec_eval 9.0.8's num_rel_ret)", trec: numRet},
		{key: "Judged", params: []irParam{pCutoff}, at: "cutoff", unit: true, concept: "judged",
			doc:   "share of the top K documents (ties by docno ascending) the qrels judge, at any label; of all the run ranks without K, by the judged provider",
			provs: []irProv{{"judged", judgedCalc}}},
		{key: "ERR", params: []irParam{pCutoff}, at: "cutoff", needAt: true, unit: true, concept: "err",
			doc:   "expected reciprocal rank within the top K (ties by docno descending), stopping probability (2^label-1)/16, printed with 5 decimals, by gdeval",
			provs: []irProv{{"gdeval", gdevalCalc(true)}}},
		{key: "Compat", params: []irParam{{"p", 'f', "0.95"}, {"normalize", 'b', "True"}}, unit: true, concept: "compat",
			doc:   "compatibility: rank-biased overlap (persistence p) of the ranking with the ideal one, over the ideal's own (normalize), by the compat provider",
			provs: []irProv{{"compat", compatCalc}}},
		{key: "Accuracy", params: []irParam{pCutoff, pRel}, at: "cutoff", unit: true, concept: "accuracy",
			doc:   "share of the (relevant, non-relevant) pairs within the top K (ties in file order) that rank the relevant one first; queries without a relevant document ranked have no value, by the accuracy provider",
			provs: []irProv{{"accuracy", accuracyCalc}}},
		{key: "RBP", params: []irParam{{"p", 'f', "0.8"}, {"rel", 'i', ""}}, unit: true, concept: "rbp",
			doc:   "rank-biased precision, gain 1 at or above rel (required), p 0.8 by default (trec_eval's rbp is 0.9), over 1000 ranks, by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.RBP)}}},
		{key: "SDCG", params: []irParam{pCutoff, {"dcg", 's', "'log2'"}, pMinRel, pMaxRel}, at: "cutoff", needAt: true, unit: true, concept: "sdcg",
			doc:   "scaled DCG: DCG@K over that of K documents of the largest gain, gains (label-min_rel)/(max_rel-min_rel) (max_rel required), by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.SDCG)}}},
		{key: "BPM", params: []irParam{pCutoff, {"T", 'f', "1.0"}, pMinRel, pMaxRel}, at: "cutoff", needAt: true, unit: true, concept: "bpm",
			doc:   "static Bejeweled player model: read on while the gain is below T and the rank below K, by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.BPM)}}},
		{key: "NERR8", params: []irParam{pCutoff, pMinRel, pMaxRel}, at: "cutoff", needAt: true, unit: true, concept: "nerr8",
			doc:   "C/W/L approximation of ERR, equation 8 (continue with 1-gain, up to rank K), by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.NERR8)}}},
		{key: "NERR9", params: []irParam{pCutoff, pMinRel, pMaxRel}, at: "cutoff", needAt: true, unit: true, concept: "nerr9",
			doc:   "C/W/L approximation of ERR, equation 9 (continue with i/(i+1) (1-gain), up to rank K), by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.NERR9)}}},
		{key: "NERR10", params: []irParam{{"p", 'f', "0.9"}, pMinRel, pMaxRel}, unit: true, concept: "nerr10",
			doc:   "C/W/L approximation of ERR, equation 10 (continue with p (1-gain)), by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.NERR10)}}},
		{key: "NERR11", params: []irParam{{"T", 'f', "1.0"}, pMinRel, pMaxRel}, unit: true, concept: "nerr11",
			doc:   "C/W/L approximation of ERR, equation 11 (INSQ's continuation times 1-gain), by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.NERR11)}}},
		{key: "INST", params: []irParam{{"T", 'f', "1.0"}, pMinRel, pMaxRel}, unit: true, concept: "inst",
			doc:   "INST, the adaptive C/W/L measure with goal T, by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.INST)}}},
		{key: "INSQ", params: []irParam{{"T", 'f', "1.0"}, pMinRel, pMaxRel}, unit: true, concept: "insq",
			doc:   "INSQ, INST's predecessor with goal T, by cwl_eval",
			provs: []irProv{{"cwl_eval", cwlCalc(cwl.INSQ)}}},
		{key: "alpha_DCG", params: []irParam{pCutoff, pRel, pAlpha, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "alphadcg",
			doc:   "alpha-DCG@K over subtopic qrels, normalised by ndeval's ideal-ideal gains, by pyndeval (ndeval 4.5); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.AlphaDCG)}}},
		{key: "alpha_nDCG", params: []irParam{pCutoff, pRel, pAlpha, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "alphandcg",
			doc:   "alpha-nDCG@K over subtopic qrels (greedy ideal ranking, ties to the greater docno), by pyndeval (ndeval 4.5); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.AlphaNDCG)}}},
		{key: "ERR_IA", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "erria",
			doc:   "intent-aware ERR@K over subtopic qrels, normalised by ndeval's ideal-ideal gains, by pyndeval (ndeval 4.5); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.ERRIA)}}},
		{key: "nERR_IA", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "nerria",
			doc:   "intent-aware ERR@K over that of the greedy ideal ranking of the subtopic qrels, by pyndeval (ndeval 4.5); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.NERRIA)}}},
		{key: "NRBP", params: []irParam{pRel, pAlpha, {"beta", 'f', "0.5"}}, unit: true, concept: "nrbp",
			doc:   "novelty- and rank-biased precision over subtopic qrels, by pyndeval (ndeval 4.5)",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.NRBP)}}},
		{key: "nNRBP", params: []irParam{pRel, pAlpha, {"beta", 'f', "0.5"}}, unit: true, concept: "nnrbp",
			doc:   "NRBP over that of the greedy ideal ranking (NaN for a query without relevant documents, as ndeval's 0/0), by pyndeval (ndeval 4.5)",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.NNRBP)}}},
		{key: "AP_IA", params: []irParam{pRel, pJudged}, unit: true, concept: "apia",
			doc:   "intent-aware average precision: the mean over the subtopics of each one's AP, by pyndeval (ndeval 4.5's MAP-IA)",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.APIA)}}},
		{key: "P_IA", params: []irParam{pCutoff, pRel, pJudged}, at: "cutoff", needAt: true, unit: true, concept: "precisionia",
			doc:   "intent-aware precision@K: relevant (document, subtopic) pairs in the top K over K times the subtopics, by pyndeval (ndeval 4.5); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.PIA)}}},
		{key: "StRecall", params: []irParam{pCutoff, pRel}, at: "cutoff", needAt: true, unit: true, concept: "strecall",
			doc:   "subtopic recall@K: the share of the subtopics the top K cover, by pyndeval (ndeval 4.5's strec); K up to 20",
			provs: []irProv{{"pyndeval", ndevalCalc(ndeval.StRecall)}}},
	}
)

// intParam returns parameter name of p as an int; 0 when absent.
func intParam(p map[string]string, name string) int64 {
	n, _ := strconv.ParseInt(p[name], 10, 64)
	return n
}

func judgedCalc(p map[string]string) (irm.Measure, error) {
	return irm.Judged{K: int(intParam(p, "cutoff"))}, nil
}

func compatCalc(p map[string]string) (irm.Measure, error) {
	x, _ := strconv.ParseFloat(p["p"], 64)
	return irm.Compat{P: x, Normalize: p["normalize"] == "True"}, nil
}

func accuracyCalc(p map[string]string) (irm.Measure, error) {
	return irm.Accuracy{K: int(intParam(p, "cutoff")), Rel: intParam(p, "rel")}, nil
}

func msmarcoCalc(p map[string]string) (irm.Measure, error) {
	if p["judged_only"] == "True" {
		return nil, errNotProvided
	}
	return irm.MSMarcoRR{K: int(intParam(p, "cutoff")), Rel: intParam(p, "rel")}, nil
}

// gdevalCalc returns gdeval's computation of nDCG(dcg='exp-log2') or,
// err, of ERR.
func gdevalCalc(err bool) func(p map[string]string) (irm.Measure, error) {
	return func(p map[string]string) (irm.Measure, error) {
		if p["cutoff"] == "" || p["judged_only"] == "True" || p["gains"] != "" || !err && p["dcg"] != "'exp-log2'" {
			return nil, errNotProvided
		}
		return irm.Gdeval{K: int(intParam(p, "cutoff")), ERR: err}, nil
	}
}

// withCut returns the spec of measure full without a cutoff, cut.K with.
func withCut(full, cut string, p map[string]string) string {
	if k := p["cutoff"]; k != "" {
		return cut + "." + k
	}
	return full
}

func constSpec(s string) func(map[string]string) (string, error) {
	return func(map[string]string) (string, error) { return s, nil }
}

func numRet(p map[string]string) (string, error) {
	if p["rel"] == "" {
		return "num_ret", nil
	}
	return "num_rel_ret", nil
}

// irRecords adds a record per ir_measures measure to r.
func (r *registry) irRecords() {
	r.ir = map[string]*Def{}
	for i := range irDefList {
		x := &irDefList[i]
		var provs, engines []string
		if x.trec != nil {
			provs = append(provs, "pytrec_eval (pytrec-eval-terrier 0.5)")
			engines = append(engines, "metric/treceval (float64), as trec_eval 9.0.8")
		}
		for _, pv := range x.provs {
			provs = append(provs, pv.name)
		}
		if len(x.provs) > 0 {
			engines = append(engines, "metric/irm (float64)")
		}
		d := &Def{Key: x.key, Family: IRMeasures, Reference: "ir_measures 0.4.3, default provider " + strings.Join(provs, " or "),
			Engine: strings.Join(engines, "; "), Doc: x.doc, Unit: x.unit, Cutoff: x.at != "",
			concept: x.concept, ir: x}
		d.Summary = Mean
		if x.sum {
			d.Summary = Sum
		}
		var ps []string
		for _, p := range x.params {
			if p.name != x.at && p.kind != 'd' {
				ps = append(ps, p.name+"=")
			}
		}
		form := x.key
		if len(ps) > 0 {
			form += "(" + strings.Join(ps, ",") + ")"
		}
		switch {
		case len(ps) == 0 && x.needAt:
			d.Forms = []string{x.key + "@K"}
		case len(ps) == 0 && x.at != "":
			d.Forms = []string{x.key, x.key + "@K"}
		case x.key == "Rprec":
			d.Forms = []string{"Rprec()", form}
		case len(ps) == 0:
			d.Forms = []string{x.key}
		case x.at == "recall":
			d.Forms = []string{x.key + "@X", form + "@X"}
		case x.needAt:
			d.Forms = []string{x.key + "@K", form + "@K"}
		case !d.Cutoff:
			d.Forms = []string{x.key, form}
		case x.at != "":
			d.Forms = []string{x.key, x.key + "@K", form + "@K"}
		default:
			d.Forms = []string{x.key, form}
		}
		r.ir[x.key] = d
		r.defs = append(r.defs, d)
	}
}

// irIdent returns the identifier s starts with.
func irIdent(s string) string {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return s[:i]
}

// parseIR reads an ir_measures name, Name(param=value,...)@at; ok is
// false when name is not one (its identifier is not an ir_measures
// measure, or it is a bare name another family has: Rprec).
//
// With every alias set, every alias of IRAliases is read (rankmetrics
// ir_measures); else an alias that another family's name spells with other
// cases (MAP and TF-Ranking's map) is not one (Parse: eval's -m then
// offers both).
func (r *registry) parseIR(name string, everyAlias bool) (m Measure, ok bool, err error) {
	id := irIdent(name)
	if rest, ok := strings.CutPrefix(name, "α_"); ok {
		id = "α_" + irIdent(rest)
	}
	key, alias := id, IRAliases[id]
	if alias.Key != "" {
		if !everyAlias && r.foldsTo(id) {
			return Measure{}, false, nil
		}
		key = alias.Key
	}
	d := r.ir[key]
	if d == nil {
		return Measure{}, false, nil
	}
	rest := name[len(id):]
	if rest == "" && (r.trec[id] != nil || r.tf[id] != nil) || rest != "" && rest[0] != '(' && rest[0] != '@' {
		return Measure{}, false, nil
	}
	x := d.ir
	fail := func(format string, a ...any) (Measure, bool, error) {
		return Measure{}, true, fmt.Errorf("%w %q: %s (ir_measures' %s: %s)", ErrUnknown, name, fmt.Sprintf(format, a...), x.key, strings.Join(d.Forms, ", "))
	}
	given := map[string]string{}
	var order []string // the parameters in the order written
	for _, kv := range alias.Params {
		// An alias's parameters come first, as in ir_measures, where the
		// ones written after them replace them in place.
		k, v, _ := strings.Cut(kv, "=")
		given[k] = v
		order = append(order, k)
	}
	written := map[string]bool{}
	if strings.HasPrefix(rest, "(") {
		end := strings.LastIndexByte(rest, ')')
		if end < 0 {
			return fail("no closing parenthesis")
		}
		args := strings.TrimSpace(rest[1:end])
		rest = rest[end+1:]
		if args != "" {
			for _, a := range splitTop(args) {
				k, v, has := strings.Cut(a, "=")
				k, v = strings.TrimSpace(k), strings.TrimSpace(v)
				if !has || k == "" {
					return fail("parameters are named, as in rel=2")
				}
				if written[k] {
					return fail("parameter %s given twice", k)
				}
				written[k] = true
				if _, preset := given[k]; !preset {
					order = append(order, k)
				}
				given[k] = v
			}
		}
	}
	if rest != "" {
		at, has := strings.CutPrefix(rest, "@")
		if !has || x.at == "" {
			return fail("unexpected %q", rest)
		}
		if _, dup := given[x.at]; dup {
			return fail("parameter %s given twice", x.at)
		}
		given[x.at] = strings.TrimSpace(at)
	}
	p := map[string]string{}
	var shown []string
	for _, pa := range x.params {
		v, has := given[pa.name]
		delete(given, pa.name)
		if !has {
			if pa.name == x.at && x.needAt {
				if x.trec == nil {
					// ir_measures parses the name, and its providers refuse it.
					return Measure{}, true, fmt.Errorf("%w %q: %w: %s needs @%s (ir_measures' %s: %s)", ErrUnknown, name, ErrNoProvider, x.key, pa.name, x.key, strings.Join(d.Forms, ", "))
				}
				return fail("%s needs @%s", x.key, pa.name)
			}
			p[pa.name] = pa.def
			continue
		}
		canon, err := irValue(pa, v)
		if errors.Is(err, errIntForFloat) {
			pe := &ParamError{Measure: name, Param: pa.name, Value: v}
			return Measure{}, true, fmt.Errorf("%w %q: %w: write %s=%s.0 (ir_measures' %s: %s)", ErrUnknown, name, pe, pa.name, v, x.key, strings.Join(d.Forms, ", "))
		}
		if err != nil {
			return fail("parameter %s: %v", pa.name, err)
		}
		p[pa.name] = canon
		if pa.name != x.at && canon != pa.def {
			shown = append(shown, pa.name+"="+canon)
		}
	}
	for k := range given {
		return fail("%s takes no parameter %s", x.key, k)
	}
	canon, repr := x.key, x.key
	if len(shown) > 0 {
		canon += "(" + strings.Join(shown, ",") + ")"
	}
	shown = shown[:0]
	for _, k := range order {
		if pa := x.param(k); k != x.at && p[k] != pa.def {
			shown = append(shown, k+"="+p[k])
		}
	}
	if x.key == "NumRelRet" {
		// ir_measures registers NumRelRet as NumRet(rel=1) and prints it so.
		repr, shown = "NumRet", []string{"rel=" + p["rel"]}
	}
	if len(shown) > 0 {
		repr += "(" + strings.Join(shown, ",") + ")"
	}
	if v := p[x.at]; x.at != "" && v != "" {
		canon += "@" + v
		repr += "@" + v
	}
	s := &IRSpec{Key: x.key, RelLevel: 1, Sum: x.sum, Count: x.key == "NumQ", Repr: repr, Params: p}
	if v := p["rel"]; v != "" {
		s.RelLevel, _ = strconv.ParseInt(v, 10, 64)
	}
	s.JudgedOnly = p["judged_only"] == "True"
	if g := p["gains"]; g != "" {
		s.Gains, _ = parseGains(g)
	}
	out := Measure{Name: canon, TopN: metric.NoTopN, IR: s}
	if err := x.resolve(&out, ""); err != nil {
		if errors.Is(err, ErrNoProvider) {
			return Measure{}, true, fmt.Errorf("%w %q: %w (ir_measures' %s: %s)", ErrUnknown, name, err, x.key, strings.Join(d.Forms, ", "))
		}
		return fail("%v", err)
	}
	return out, true, nil
}

// foldsTo reports whether a TF-Ranking or trec_eval name is id in other
// cases (map for MAP, bpref for BPref, Rprec for RPrec).
func (r *registry) foldsTo(id string) bool {
	for _, m := range []map[string]*Def{r.tf, r.trec} {
		for k := range m {
			if strings.EqualFold(k, id) {
				return true
			}
		}
	}
	return false
}

// ParseIRMeasures reads one measure name as ir_measures 0.4.3 reads it
// (rankmetrics ir_measures): every alias of IRAliases, MAP and NDCG among
// them, is ir_measures' measure, and a bare Rprec is ir_measures' (Parse
// reads the aliases that another family's names spell in other cases, and
// bare Rprec, as eval's -m does: see Parse). A name of another family is
// an error wrapping ErrUnknown.
func ParseIRMeasures(s string) (Measure, error) {
	name := strings.TrimSpace(s)
	m, ok, err := reg().parseIR(name, true)
	if !ok && err == nil && irIdent(name) == name && reg().ir[name] != nil {
		// A bare name another family has too (Rprec is trec_eval's).
		m, ok, err = reg().parseIR(name+"()", true)
	}
	if err != nil {
		return Measure{}, err
	}
	if !ok {
		return Measure{}, fmt.Errorf("%w %q: not a measure of ir_measures 0.4.3", ErrUnknown, name)
	}
	return m, nil
}

// param returns the parameter of x named name.
func (x *irDef) param(name string) irParam {
	for _, p := range x.params {
		if p.name == name {
			return p
		}
	}
	return irParam{}
}

// Providers lists the names of ir_measures' providers, as its --provider
// takes them.
var Providers = []string{"accuracy", "compat", "cwl_eval", "gdeval", "judged", "msmarco", "pyndeval", "pytrec_eval", "ranx", "runtime", "trectools"}

// resolve sets how m, an ir_measures measure whose IR.Params are set, is
// computed: by provider, or by the first provider that computes it in
// ir_measures' order of preference when provider is "".
func (x *irDef) resolve(m *Measure, provider string) error {
	s := m.IR
	if x.trec != nil && (provider == "" || provider == pytrecEval) {
		spec, err := x.trec(s.Params)
		if err != nil {
			return err
		}
		if spec != "" {
			if _, err := treceval.NewEvaluator(s.TrecConfig(), []string{spec}); err != nil {
				return err
			}
			m.TrecEval, s.Provider, s.Calc = spec, pytrecEval, nil
			return nil
		}
	}
	var names []string
	for _, pv := range x.provs {
		c, err := pv.calc(s.Params)
		if errors.Is(err, errNotProvided) {
			continue
		}
		if err != nil {
			return err
		}
		if provider == "" || pv.name == provider {
			m.TrecEval, s.Provider, s.Calc = "", pv.name, c
			return nil
		}
		names = append(names, pv.name)
	}
	if provider == "" {
		return fmt.Errorf("%w: no provider of ir_measures computes %s with these parameters", ErrNoProvider, x.key)
	}
	if m.TrecEval != "" {
		names = append([]string{pytrecEval}, names...)
	}
	if !slices.Contains(Providers, provider) {
		return fmt.Errorf("%w %q is not one of ir_measures' (%s)", ErrProvider, provider, strings.Join(Providers, ", "))
	}
	return fmt.Errorf("%w %s does not compute %s; rankmetrics computes it by %s", ErrProvider, provider, m.Name, strings.Join(names, ", "))
}

// ErrNoProvider is the error of an ir_measures name that ir_measures
// reads but none of its providers computes (ERR without a cutoff,
// NumRel(rel=2)); it wraps ErrUnknown too.
var ErrNoProvider = errors.New("no provider computes it")

// ErrProvider is the error of a provider that does not compute a measure
// (WithProvider).
var ErrProvider = errors.New("provider")

// WithProvider returns m, a measure of ir_measures, computed as provider
// computes it (ir_measures' --provider): one of Providers. Measures of
// other families are returned as they are. It is an error wrapping
// ErrProvider if provider does not compute m, or rankmetrics does not
// reproduce provider's computation of it.
func WithProvider(m Measure, provider string) (Measure, error) {
	if m.IR == nil || provider == "" {
		return m, nil
	}
	x := reg().ir[m.IR.Key].ir
	s := *m.IR
	out := m
	out.IR = &s
	if err := x.resolve(&out, provider); err != nil {
		return Measure{}, err
	}
	return out, nil
}

// irValue checks v, a value of parameter p as ir_measures reads it (a
// Python literal of the parameter's type: an int, True or False, a float
// with a decimal point or exponent, a quoted string), and returns it as
// ir_measures writes it in a measure's name.
func irValue(p irParam, v string) (string, error) {
	switch p.kind {
	case 'i':
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || strings.HasPrefix(v, "+") || len(v) > 1 && v[0] == '0' {
			return "", fmt.Errorf("%q is not an integer", v)
		}
		if p.name == "cutoff" && n < 1 {
			return "", fmt.Errorf("the cutoff must be at least 1")
		}
		return strconv.FormatInt(n, 10), nil
	case 'b':
		if v != "True" && v != "False" {
			return "", fmt.Errorf("%q is not True or False", v)
		}
		return v, nil
	case 'f':
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			return "", errIntForFloat
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !strings.ContainsAny(v, ".eE") || math.IsInf(x, 0) || math.IsNaN(x) {
			return "", fmt.Errorf("%q is not a float written with a decimal point (ir_measures takes 0.5, 1.0, not 1)", v)
		}
		return pyFloat(x), nil
	case 's':
		if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
			return "'" + v[1:len(v)-1] + "'", nil
		}
		return "", fmt.Errorf("%s is not a quoted string", v)
	case 'd':
		g, err := parseGains(v)
		if err != nil {
			return "", err
		}
		return gainsRepr(g), nil
	}
	return v, nil
}

// errIntForFloat is irValue's error for an integer given to a float
// parameter.
var errIntForFloat = errors.New("an integer where ir_measures takes a float")

// ParamError is the error of an ir_measures name whose parameter
// ir_measures 0.4.3 parses but then refuses when it evaluates: an integer
// given to a float parameter (BPM(T=2,max_rel=3)@5: its parser keeps the
// int 2, and its check of the parameter's type stops with
// "AssertionError: invalid param T=2" where T=2.0 is taken). rankmetrics
// refuses the name as well, with this error (wrapped with ErrUnknown),
// rather than print a value where ir_measures gives none.
type ParamError struct {
	// Measure is the name as written.
	Measure string
	// Param is the parameter's name: "T".
	Param string
	// Value is the value as written: "2".
	Value string
}

// Error returns ir_measures' message and what to write instead.
func (e *ParamError) Error() string {
	return fmt.Sprintf("ir_measures 0.4.3 refuses %s=%s, an integer where it takes a float (AssertionError: invalid param %s=%s)", e.Param, e.Value, e.Param, e.Value)
}

// IRAliasDef is what an alias of ir_measures names: a measure and the
// parameters the alias sets.
type IRAliasDef struct {
	// Key is the measure's name: "AP" for MAP.
	Key string
	// Params are the parameters the alias sets, "name=value", written
	// before the ones given with it ("relative=True" for SetRelP).
	Params []string
}

// IRAliases are the other names ir_measures 0.4.3 registers for its
// measures (their modules' register calls), read as it reads them: MAP(rel=2)@10
// is AP(rel=2)@10, and ir_measures prints it so. No other family of the
// registry has these names (names are case-sensitive: map is
// TF-Ranking's, MAP ir_measures' AP). NumRelRet, which ir_measures also
// registers as NumRet(rel=1), is a measure of the table of its own
// (eval names it NumRelRet; rankmetrics ir_measures prints
// NumRet(rel=1) as ir_measures does).
var IRAliases = map[string]IRAliasDef{
	"MAP":       {Key: "AP"},
	"MRR":       {Key: "RR"},
	"NDCG":      {Key: "nDCG"},
	"Precision": {Key: "P"},
	"Recall":    {Key: "R"},
	"RPrec":     {Key: "Rprec"},
	"BPref":     {Key: "Bpref"},
	"SetRelP":   {Key: "SetP", Params: []string{"relative=True"}},
	"α_DCG":     {Key: "alpha_DCG"},
	"α_nDCG":    {Key: "alpha_nDCG"},
	"MAP_IA":    {Key: "AP_IA"},
}

// parseGains reads a gains dictionary, {label:gain,...}, of integers >= 0
// (ir_measures' parser takes no sign).
func parseGains(v string) (map[int64]int64, error) {
	body, ok := strings.CutPrefix(strings.TrimSpace(v), "{")
	body, ok2 := strings.CutSuffix(body, "}")
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s is not a dictionary {label:gain,...}", v)
	}
	g := map[int64]int64{}
	if strings.TrimSpace(body) == "" {
		return g, nil
	}
	for _, e := range strings.Split(body, ",") {
		k, x, has := strings.Cut(e, ":")
		a, err1 := strconv.ParseUint(strings.TrimSpace(k), 10, 31)
		b, err2 := strconv.ParseUint(strings.TrimSpace(x), 10, 31)
		if !has || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%q is not label:gain with integers >= 0", strings.TrimSpace(e))
		}
		g[int64(a)] = int64(b)
	}
	return g, nil
}

// gainsRepr writes g as ir_measures names it: by label, the labels that
// keep their value left out.
func gainsRepr(g map[int64]int64) string {
	keys := make([]int64, 0, len(g))
	for k := range g {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		if g[k] != k {
			parts = append(parts, strconv.FormatInt(k, 10)+":"+strconv.FormatInt(g[k], 10))
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// pyFloat writes x as Python's repr does for the floats of measure
// parameters: the shortest digits, with ".0" when integral.
func pyFloat(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if e := math.Abs(x); e >= 1e16 || e != 0 && e < 1e-4 {
		return s
	}
	s = strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// splitTop splits s at the commas outside parentheses, brackets and
// braces, so that a measure's parameters stay with it.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
