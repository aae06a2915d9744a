package ndeval

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/internal/crlog"
)

// Depth is the deepest cutoff ndeval computes: the @K measures take K
// from 1 to 20.
const Depth = 20

// Kind names one of ndeval's measures.
type Kind int

// The measures ir_measures 0.4.3 computes with pyndeval.
const (
	// ERRIA is ERR-IA@K, normalised by the "ideal ideal" ranking (every
	// subtopic covered at every rank).
	ERRIA Kind = iota + 1
	// NERRIA is nERR-IA@K: ERR-IA over the ERR-IA of the greedy ideal
	// ranking of the qrels.
	NERRIA
	// AlphaDCG is alpha-DCG@K, normalised as ERRIA is.
	AlphaDCG
	// AlphaNDCG is alpha-nDCG@K: alpha-DCG over that of the greedy ideal.
	AlphaNDCG
	// NRBP is novelty- and rank-biased precision over the whole ranking.
	NRBP
	// NNRBP is NRBP over the NRBP of the greedy ideal.
	NNRBP
	// APIA is intent-aware average precision (MAP-IA).
	APIA
	// PIA is intent-aware precision at K.
	PIA
	// StRecall is the fraction of the subtopics covered in the top K.
	StRecall
)

var kindNames = [...]string{ERRIA: "ERR_IA", NERRIA: "nERR_IA", AlphaDCG: "alpha_DCG", AlphaNDCG: "alpha_nDCG",
	NRBP: "NRBP", NNRBP: "nNRBP", APIA: "AP_IA", PIA: "P_IA", StRecall: "StRecall"}

// String returns ir_measures' name of the kind.
func (k Kind) String() string {
	if k >= ERRIA && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// HasCutoff reports whether the kind is taken at a cutoff (written @K,
// required by pyndeval).
func (k Kind) HasCutoff() bool {
	return k != NRBP && k != NNRBP && k != APIA
}

// Params are the settings of one ndeval run.
type Params struct {
	// Rel is the smallest label that counts as relevant to a subtopic.
	Rel int64
	// Alpha is the redundancy intolerance: a document's gain for a
	// subtopic already covered n times is (1-Alpha)^n.
	Alpha float64
	// Beta is NRBP's patience.
	Beta float64
}

// Measure is one measure with its parameters. JudgedOnly is refused:
// pyndeval's judged_only filter fails in ir_measures 0.4.3 (it indexes
// the run as a dict when it is a stream of tuples).
type Measure struct {
	Kind       Kind
	Cutoff     int
	JudgedOnly bool
	Params
}

// Validate reports what pyndeval, through ir_measures, refuses.
func (m Measure) Validate() error {
	if m.Kind < ERRIA || m.Kind > StRecall {
		return fmt.Errorf("ndeval: unknown measure kind %d", int(m.Kind))
	}
	if m.Kind.HasCutoff() {
		if m.Cutoff == 0 {
			return fmt.Errorf("ndeval: %v needs a cutoff: write %v@K with K from 1 to %d (ir_measures passes none to pyndeval, which fails)", m.Kind, m.Kind, Depth)
		}
		if m.Cutoff < 1 || m.Cutoff > Depth {
			return fmt.Errorf("ndeval: %v@%d: ndeval computes cutoffs 1 to %d only", m.Kind, m.Cutoff, Depth)
		}
	}
	if m.JudgedOnly {
		return fmt.Errorf("ndeval: %v(judged_only=True): ir_measures 0.4.3's pyndeval provider fails with judged_only (TypeError: 'generator' object is not subscriptable); leave it False", m.Kind)
	}
	if math.IsNaN(m.Alpha) || math.IsNaN(m.Beta) {
		return fmt.Errorf("ndeval: %v: alpha=%v, beta=%v: want numbers", m.Kind, m.Alpha, m.Beta)
	}
	return nil
}

// Judgment is one line of a subtopic qrels file (qid subtopic docno rel)
// of one topic. Subtopic is the subtopic's index: ir_measures numbers the
// subtopic ids of the whole file from 0 in the order they first appear
// (runio.SubtopicQrels), and ndeval adds a document's gains in that
// order.
type Judgment struct {
	Subtopic int
	Doc      string
	Label    int64
}

// Topic is one topic's judgments under Params: which subtopics each
// judged document is relevant to, and the values of the greedy ideal
// ranking the normalised measures divide by.
type Topic struct {
	p         Params
	subtopics int            // subtopics the topic judges, numbered in global order
	actual    int            // subtopics with a relevant document
	relSub    []int          // relevant documents per subtopic (duplicate lines counted)
	rel       map[string]int // docno -> row of rels
	rels      [][]int        // subtopic indexes each document is relevant to, ascending
	ideal     values
	discount  [Depth]float64
}

// values are ndeval's arrays of one ranking.
type values struct {
	dcg, err, ndcg, nerr, prec, strec [Depth]float64
	nrbp, nnrbp, mapIA                float64
}

// NewTopic returns the Topic of one topic's judgments under p.
func NewTopic(js []Judgment, p Params) *Topic {
	d := discounts()
	return newTopic(js, p, &d)
}

// discounts returns ndeval's DCG discounts: log(2)/log(i+2) at rank i+1,
// 1 at rank 1, both logs correctly rounded as glibc's.
func discounts() [Depth]float64 {
	var d [Depth]float64
	ln2 := crlog.Ln(2)
	d[0] = 1
	for i := 1; i < Depth; i++ {
		d[i] = ln2 / crlog.Ln(int64(i)+2)
	}
	return d
}

// newTopic is NewTopic with the discounts computed.
func newTopic(js []Judgment, p Params, discount *[Depth]float64) *Topic {
	t := &Topic{p: p, discount: *discount}
	// The topic's subtopics, numbered from 0 in the order of their global
	// index: ndeval's loops run over every index up to the largest, but
	// those the topic does not judge add nothing, and the order of the
	// others is kept.
	var subs []int
	seen := map[int]bool{}
	for _, j := range js {
		if !seen[j.Subtopic] {
			seen[j.Subtopic] = true
			subs = append(subs, j.Subtopic)
		}
	}
	slices.Sort(subs)
	local := make(map[int]int, len(subs))
	for i, s := range subs {
		local[s] = i
	}
	t.subtopics = len(subs)
	// One row per docno; a document is relevant to a subtopic when the
	// last line of the pair has a label at or above Rel (ndeval keeps the
	// judgment of the line its sort by docno puts last, the last in file
	// order with glibc's stable qsort), while the count of the subtopic's
	// relevant documents counts every such line.
	type pair struct {
		sub int
		rel bool
	}
	row := make(map[string]int, len(js))
	var docs []string
	var pairs [][]pair
	t.relSub = make([]int, t.subtopics)
	for _, j := range js {
		s, rel := local[j.Subtopic], j.Label >= p.Rel
		if rel {
			t.relSub[s]++
		}
		r, ok := row[j.Doc]
		if !ok {
			r = len(docs)
			row[j.Doc] = r
			docs = append(docs, j.Doc)
			pairs = append(pairs, nil)
		}
		k := slices.IndexFunc(pairs[r], func(x pair) bool { return x.sub == s })
		if k < 0 {
			pairs[r] = append(pairs[r], pair{s, rel})
		} else {
			pairs[r][k].rel = rel
		}
	}
	for _, n := range t.relSub {
		if n != 0 {
			t.actual++
		}
	}
	// ndeval keeps a topic's documents sorted by docno; its greedy ideal
	// ranking breaks ties in favour of the greater docno.
	order := make([]int, len(docs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(docs[a], docs[b]) })
	t.rel = make(map[string]int, len(docs))
	t.rels = make([][]int, len(docs))
	for i, r := range order {
		t.rel[docs[r]] = i
		for _, x := range pairs[r] {
			if x.rel {
				t.rels[i] = append(t.rels[i], x.sub)
			}
		}
		slices.Sort(t.rels[i])
	}
	t.ideal = t.score(t.idealOrder())
	return t
}

// idealOrder returns the rows of the greedy ideal ranking: at each rank
// the document with the largest gain given those above it, ties to the
// greater docno. Documents relevant to no subtopic follow; their order
// does not change any value.
func (t *Topic) idealOrder() [][]int {
	gain := make([]float64, t.subtopics)
	for i := range gain {
		gain[i] = 1
	}
	var left []int // rows relevant to a subtopic, docno ascending
	for i, r := range t.rels {
		if len(r) > 0 {
			left = append(left, i)
		}
	}
	order := make([][]int, 0, len(t.rels))
	for len(left) > 0 {
		where, best := -1, 0.0
		for k, i := range left {
			s := 0.0
			for _, j := range t.rels[i] {
				s += gain[j]
			}
			// left is in docno order: an equal score later has a greater docno.
			if where == -1 || s >= best {
				where, best = k, s
			}
		}
		r := t.rels[left[where]]
		order = append(order, r)
		for _, j := range r {
			gain[j] *= 1 - t.p.Alpha
		}
		left = slices.Delete(left, where, where+1)
	}
	for range len(t.rels) - len(order) {
		order = append(order, nil)
	}
	return order
}

// score computes ndeval's arrays of a ranking given, rank by rank, the
// subtopics each document is relevant to (nil for an unjudged or
// nonrelevant one).
func (t *Topic) score(ranked [][]int) values {
	var v values
	if t.actual == 0 {
		return v
	}
	alpha, beta := t.p.Alpha, t.p.Beta
	gain := make([]float64, t.subtopics)
	for i := range gain {
		gain[i] = 1
	}
	decay := 1.0
	for i, r := range ranked {
		s := 0.0
		for _, j := range r {
			s += gain[j]
			gain[j] *= 1 - alpha
		}
		v.nrbp += s * decay
		decay *= beta
		if i < Depth {
			v.dcg[i] = s * t.discount[i]
			v.err[i] = s / float64(i+1)
		}
	}
	v.nrbp *= (1 - (1-alpha)*beta) / float64(t.actual)
	var iiDCG, iiERR [Depth]float64
	g := float64(t.actual)
	for i := range Depth {
		iiDCG[i] = g * t.discount[i]
		iiERR[i] = g / float64(i+1)
		g *= 1 - alpha
	}
	for i := 1; i < Depth; i++ {
		v.dcg[i] += v.dcg[i-1]
		v.err[i] += v.err[i-1]
		iiDCG[i] += iiDCG[i-1]
		iiERR[i] += iiERR[i-1]
	}
	for i := 1; i < Depth; i++ {
		v.dcg[i] /= iiDCG[i]
		v.err[i] /= iiERR[i]
	}
	return v
}

// Values are every measure of one ranking.
type Values struct {
	v values
}

// Eval returns the measures of a ranking of this topic: docs in the order
// pyndeval ranks them (Order). A docno ranked twice has its judgments at
// its first rank only, as ndeval joins the run to the qrels.
func (t *Topic) Eval(docs []string) Values {
	ranked := make([][]int, len(docs))
	var once map[string]bool
	for i, d := range docs {
		row, ok := t.rel[d]
		if !ok || once[d] {
			continue
		}
		if once == nil {
			once = make(map[string]bool, len(docs))
		}
		once[d] = true
		ranked[i] = t.rels[row]
	}
	v := t.score(ranked)
	for i := range Depth {
		if v.dcg[i] != 0 {
			v.ndcg[i] = v.dcg[i] / t.ideal.dcg[i]
			v.nerr[i] = v.err[i] / t.ideal.err[i]
		}
	}
	// 0/0 for a topic without relevant documents, as in ndeval.
	v.nnrbp = v.nrbp / t.ideal.nrbp
	if t.actual == 0 {
		return Values{v}
	}
	seen := make([]bool, t.subtopics)
	covered, count := 0, 0
	for i := range Depth {
		if i < len(ranked) {
			for _, j := range ranked[i] {
				count++
				if !seen[j] {
					seen[j] = true
					covered++
				}
			}
		}
		v.strec[i] = float64(covered) / float64(t.actual)
		v.prec[i] = float64(count) / float64((i+1)*t.actual)
	}
	subCount := make([]int, t.subtopics)
	subTotal := make([]float64, t.subtopics)
	for i, r := range ranked {
		for _, j := range r {
			subCount[j]++
			subTotal[j] += float64(subCount[j]) / float64(i+1)
		}
	}
	for j, n := range t.relSub {
		if n != 0 {
			v.mapIA += subTotal[j] / float64(n)
		}
	}
	v.mapIA /= float64(t.actual)
	return Values{v}
}

// Get returns the value of m (its Kind and Cutoff; the Params are the
// Topic's).
func (v Values) Get(m Measure) float64 {
	k := m.Cutoff - 1
	if m.Kind.HasCutoff() && (k < 0 || k >= Depth) {
		return math.NaN()
	}
	switch m.Kind {
	case ERRIA:
		return v.v.err[k]
	case NERRIA:
		return v.v.nerr[k]
	case AlphaDCG:
		return v.v.dcg[k]
	case AlphaNDCG:
		return v.v.ndcg[k]
	case PIA:
		return v.v.prec[k]
	case StRecall:
		return v.v.strec[k]
	case NRBP:
		return v.v.nrbp
	case NNRBP:
		return v.v.nnrbp
	case APIA:
		return v.v.mapIA
	}
	return math.NaN()
}

// Order returns the indexes of one topic's run documents in the order
// pyndeval ranks them: by score, highest first, equal scores by docno
// ascending (byte order).
func Order(docs []string, scores []float64) []int {
	idx := make([]int, len(docs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return strings.Compare(docs[a], docs[b])
	})
	return idx
}
