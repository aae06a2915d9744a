package treceval

import (
	"math"
	"slices"
)

// Graded measures: ndcg, dcg, ideal_dcg, ndcg_rel, Rndcg, G, ndcg_cut,
// rbp, rbp_resid.

// relGain is one judgement level with its gain and how many judged
// documents have it.
type relGain struct {
	level int64
	count int64
	gain  float64
}

// validInt reports whether s is an optional sign followed by at least one
// digit (10.0 ignores gain parameters whose name is not a level).
func validInt(s string) bool {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// cInt converts v as C's (int) cast does on x86-64.
func cInt(v float64) int {
	if v != v || v >= 2147483648 || v <= -2147483649 {
		return math.MinInt32
	}
	return int(int32(v))
}

// gainSet is a topic's gains: every judgement level with its gain, sorted
// by trec_eval's comparison, and an index from level to its gain.
type gainSet struct {
	g []relGain
	// pos[l] is the index in g of the first entry of level l, for the
	// levels 0 to len(pos)-1, which all have one.
	pos []int32
	// other holds the first entry of every other level, which only
	// parameters give (a negative level gives unjudged documents a gain).
	other map[int64]int32
}

// get returns the gain of judgement rel as trec_eval's get_gain does: the
// first entry of that level in sorted order, or 0 if it has none.
func (gs *gainSet) get(rel int64) float64 {
	if rel >= 0 && rel < int64(len(gs.pos)) {
		return gs.g[gs.pos[rel]].gain
	}
	if k, ok := gs.other[rel]; ok {
		return gs.g[k].gain
	}
	return 0
}

// gains sets up the gain of every judgement level: the level itself unless
// a level=gain parameter overrides it, sorted by increasing gain with
// trec_eval's comparison (the gain difference truncated to an integer,
// under glibc's merge sort). trec_eval finds each level among the
// parameters and looks gains up by a linear search, quadratic in the
// largest judgement; the same entries are found here through indexes, in
// time O(levels log levels).
func (e *Evaluator) gains(m *measure, r *Ranked) (*gainSet, error) {
	gs := &e.gainSet
	if e.topic != 0 && e.gainTopic == e.topic && slices.Equal(e.gainPairs, m.pairs) {
		return gs, nil // made for this ranking by a measure before m
	}
	e.gainTopic = 0
	g := gs.g[:0]
	clear(gs.other)
	for _, p := range m.pairs {
		if e.cfg.Version == V10 && !validInt(p.name) {
			continue
		}
		g = append(g, relGain{level: Atol(p.name), gain: p.value})
	}
	// A level given as a parameter takes the count of its first entry.
	first := gs.other
	if first == nil {
		first = map[int64]int32{}
	}
	for k := len(g) - 1; k >= 0; k-- {
		first[g[k].level] = int32(k)
	}
	for i := int64(0); i < r.NumRelLevels; i++ {
		if err := e.checkCtx(i); err != nil {
			return nil, err
		}
		if k, ok := first[i]; ok {
			g[k].count = r.Level(i)
		} else {
			g = append(g, relGain{level: i, gain: float64(i), count: r.Level(i)})
		}
	}
	clear(first)
	gs.other = first
	if cap(e.gainTmp) < len(g) {
		e.gainTmp = make([]relGain, len(g))
	}
	err := msortCheck(g, e.gainTmp[:len(g)], func(a, b *relGain) int { return cInt(a.gain - b.gain) }, e.ctxErr)
	if err != nil {
		return nil, err
	}
	n := r.NumRelLevels
	gs.pos = slices.Grow(gs.pos[:0], int(n))[:n]
	for i := range gs.pos {
		gs.pos[i] = -1
	}
	for k := range g {
		if l := g[k].level; l >= 0 && l < n {
			if gs.pos[l] < 0 {
				gs.pos[l] = int32(k)
			}
		} else if _, ok := gs.other[l]; !ok {
			gs.other[l] = int32(k)
		}
	}
	gs.g = g
	e.gainTopic, e.gainPairs = e.topic, m.pairs
	return gs, nil
}

// ideal walks the ideal ranking: gains from the highest level down, each
// level repeated as many times as it has judged documents.
type ideal struct {
	g    []relGain
	cur  int
	n    int64
	gain float64
}

func newIdeal(gs *gainSet) ideal {
	g := gs.g
	id := ideal{g: g, cur: len(g) - 1}
	if id.cur >= 0 {
		id.gain = g[id.cur].gain
	}
	return id
}

// next moves to the next ideal rank and returns its gain.
func (id *ideal) next() float64 {
	id.n++
	for id.cur >= 0 && id.n > id.g[id.cur].count {
		id.n = 1
		id.cur--
		if id.cur >= 0 {
			id.gain = id.g[id.cur].gain
		} else {
			id.gain = 0
		}
	}
	return id.gain
}

// dcgs returns the ranking's DCG and the ideal DCG with the gains g and a
// log2(rank+1) discount.
func dcgs(e *Evaluator, r *Ranked, g *gainSet) (got, best float64) {
	id := newIdeal(g)
	i := int64(0)
	for ; i < r.NumRet && id.gain > 0; i++ {
		if rg := g.get(r.Rels[i]); rg != 0 {
			got += rg / e.lg(i+2)
		}
		if ig := id.next(); ig > 0 {
			best += ig / e.lg(i+2)
		}
	}
	for ; i < r.NumRet; i++ {
		if rg := g.get(r.Rels[i]); rg != 0 {
			got += rg / e.lg(i+2)
		}
	}
	for ; id.gain > 0; i++ {
		if ig := id.next(); ig > 0 {
			best += ig / e.lg(i+2)
		}
	}
	return got, best
}

func calcNdcg(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	got, best := dcgs(e, r, g)
	if best > 0 {
		v[0] = got / best
	}
	return nil
}

func calcDcg(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	v[0], _ = dcgs(e, r, g)
	return nil
}

func calcIdealDcg(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	_, v[0] = dcgs(e, r, g)
	return nil
}

// calcNdcgRel averages NDCG at each relevant document (gain > 0); relevant
// documents not retrieved count with the NDCG at the end of the ranking.
func calcNdcgRel(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	id := newIdeal(g)
	var got, best, sum float64
	var numRelRet, numRel int64
	i := int64(0)
	for ; i < r.NumRet && id.gain > 0; i++ {
		rg := g.get(r.Rels[i])
		if rg != 0 {
			got += rg / e.lg(i+2)
		}
		if ig := id.next(); ig > 0 {
			numRel++
			best += ig / e.lg(i+2)
		}
		if rg > 0 {
			sum += got / best
			numRelRet++
		}
	}
	for ; i < r.NumRet; i++ {
		rg := g.get(r.Rels[i])
		if rg != 0 {
			got += rg / e.lg(i+2)
		}
		if rg > 0 {
			sum += got / best
			numRelRet++
		}
	}
	for ; id.gain > 0; i++ {
		if ig := id.next(); ig > 0 {
			numRel++
			best += ig / e.lg(i+2)
		}
	}
	sum += float64(float64(numRel-numRelRet)*got) / best
	if sum > 0 {
		v[0] = sum / float64(numRel)
	}
	return nil
}

// calcRndcg averages NDCG at the ranks where the ideal gain changes (and at
// the end of the ranking).
func calcRndcg(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	if r.NumRel == 0 {
		return nil
	}
	id := newIdeal(g)
	old := id.gain
	var got, best, sum float64
	var changes int64
	i := int64(0)
	// atChange adds NDCG so far when the ideal gain changes.
	atChange := func(ig float64) {
		if old != ig {
			if best > 0 {
				sum += got / best
				changes++
			}
			old = ig
		}
	}
	for ; i < r.NumRet && id.gain > 0; i++ {
		rg := g.get(r.Rels[i])
		ig := id.next()
		atChange(ig)
		if rg != 0 {
			got += rg / e.lg(i+2)
		}
		if ig > 0 {
			best += ig / e.lg(i+2)
		}
	}
	if i < r.NumRet {
		for ; i < r.NumRet; i++ {
			if rg := g.get(r.Rels[i]); rg != 0 {
				got += rg / e.lg(i+2)
			}
		}
		if best > 0 {
			sum += got / best
			changes++
		}
	}
	for ; id.gain > 0; i++ {
		ig := id.next()
		atChange(ig)
		if ig > 0 {
			best += ig / e.lg(i+2)
		}
	}
	v[0] = sum / float64(changes)
	return nil
}

// calcG is the experimental normalised gain G of trec_eval.
func calcG(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	id := newIdeal(g)
	var resG, sumRes, sumIdeal, sumCost float64
	const minCost = 1.0
	i := int64(0)
	for ; i < r.NumRet && id.gain > 0; i++ {
		rg := g.get(r.Rels[i])
		sumRes += rg
		ig := id.next()
		if ig > 0 {
			sumIdeal += ig
		}
		if ig >= minCost {
			sumCost += ig
		} else {
			sumCost += minCost
		}
		if rg != 0 {
			resG += rg / math.Log2(2+sumCost-sumRes)
		}
	}
	for ; i < r.NumRet; i++ {
		rg := g.get(r.Rels[i])
		sumRes += rg
		sumCost += minCost
		if rg != 0 {
			resG += rg / math.Log2(2+sumCost-sumRes)
		}
	}
	for id.gain > 0 {
		if ig := id.next(); ig > 0 {
			sumIdeal += ig
		}
	}
	if sumIdeal > 0 {
		v[0] = resG / sumIdeal
	}
	return nil
}

// calcNdcgCut is NDCG at cutoffs with the judgement itself as gain
// (negative judgements gain nothing), ignoring gain parameters.
func calcNdcgCut(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	cuts := m.cuts
	ci := 0
	sum := 0.0
	i := int64(0)
	done := false
	for ; i < r.NumRet; i++ {
		if i == cuts[ci] {
			v[ci] = sum
			if ci++; ci == len(cuts) {
				done = true
				break
			}
		}
		if gain := float64(r.Rels[i]); gain > 0 {
			sum += gain / e.lg(i+2)
		}
	}
	if !done {
		for ; ci < len(cuts); ci++ {
			v[ci] = sum
		}
	}
	ci = 0
	lvl := r.NumRelLevels - 1
	var count int64
	best := 0.0
	for i = 0; ; i++ {
		count++
		for lvl > 0 && count > r.Level(lvl) {
			lvl--
			count = 1
		}
		if lvl == 0 {
			break
		}
		if i == cuts[ci] {
			if best > 0 {
				v[ci] /= best
			}
			if ci++; ci == len(cuts) {
				break
			}
		}
		best += float64(lvl) / e.lg(i+2)
	}
	for ; ci < len(cuts); ci++ {
		if best > 0 {
			v[ci] /= best
		}
	}
	return nil
}

// rbpP returns the persistence parameter p (default 0.9) of rbp and
// rbp_resid.
func rbpP(m *measure) float64 {
	p := 0.9
	for _, pr := range m.pairs {
		if pr.name == "p" {
			p = pr.value
		}
	}
	return p
}

// calcRbp is rank-biased precision (Moffat and Zobel): (1-p) * sum of
// gain * p^(rank-1), gains rescaled to [0, 1] when they leave that range.
func calcRbp(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	p := rbpP(m)
	g, err := e.gains(m, r)
	if err != nil {
		return err
	}
	// trec_eval 10.0 leaves min and max uninitialised; on the reference
	// build they start at 0, which is what is reproduced here.
	lo, hi := 0.0, 0.0
	for i := range g.g {
		lo = min(lo, g.g[i].gain)
		hi = max(hi, g.g[i].gain)
	}
	if lo < 0 || hi > 1 {
		for i := range g.g {
			g.g[i].gain = (g.g[i].gain - lo) / (hi - lo)
		}
	}
	sum, cur := 0.0, 1.0
	for _, rel := range r.Rels {
		if gain := g.get(rel); gain != 0 {
			sum += float64(gain * cur)
		}
		cur *= p
	}
	v[0] = float64((1.0 - p) * sum)
	return nil
}

// calcRbpResid is the rbp residual: the weight of unjudged ranks plus the
// weight beyond the ranking.
func calcRbpResid(_ *Evaluator, m *measure, r *Ranked, v []float64) error {
	p := rbpP(m)
	var unj int64
	sum, cur := 0.0, 1.0
	for _, rel := range r.Rels {
		if rel < 0 {
			unj++
			sum += cur
		}
		cur *= p
	}
	if unj != 0 {
		v[0] = cur + float64((1-p)*sum)
	}
	return nil
}
