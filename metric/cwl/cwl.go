package cwl

import (
	"fmt"
	"math"
	"slices"

	"github.com/rankmetrics/rankmetrics/metric/internal/crlog"
)

// Depth is the number of ranks cwl_eval scores: ir_measures builds its
// rankings with cwl_eval's default max_n of 1000, so a longer ranking is
// cut there and a shorter one is padded with gain 0.
const Depth = 1000

// Kind names one C/W/L measure.
type Kind int

// The C/W/L measures ir_measures computes with cwl_eval only.
const (
	// RBP is rank-biased precision: continue with probability P.
	RBP Kind = iota + 1
	// SDCG is scaled DCG: DCG at the cutoff K over the DCG of K documents
	// of the largest gain.
	SDCG
	// BPM is the static Bejeweled player model: continue while the gain
	// so far is below T and fewer than K documents have been read.
	BPM
	// INST is the adaptive measure of Moffat et al. (2015) with goal T.
	INST
	// INSQ is INST's predecessor, whose continuation ignores the gain.
	INSQ
	// NERR8 is equation 8 of Azzopardi et al. (2021): continue with 1-g,
	// up to rank K.
	NERR8
	// NERR9 is equation 9: continue with i/(i+1) (1-g), up to rank K.
	NERR9
	// NERR10 is equation 10: continue with P (1-g) at every rank.
	NERR10
	// NERR11 is equation 11: continue with INSQ's probability times
	// (1-g).
	NERR11
)

var kindNames = [...]string{RBP: "RBP", SDCG: "SDCG", BPM: "BPM", INST: "INST", INSQ: "INSQ",
	NERR8: "NERR8", NERR9: "NERR9", NERR10: "NERR10", NERR11: "NERR11"}

// String returns ir_measures' name of the kind.
func (k Kind) String() string {
	if k >= RBP && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Measure is one C/W/L measure with its parameters, as ir_measures passes
// them to cwl_eval. Fields a kind does not use are ignored.
type Measure struct {
	Kind Kind
	// Rel (RBP) is the smallest label that counts as relevant: gain 1 at
	// or above it, else 0.
	Rel int64
	// MinRel and MaxRel (every kind but RBP) map labels to gains: a label
	// is clipped to [MinRel, MaxRel] and scaled to (label-MinRel) /
	// (MaxRel-MinRel).
	MinRel, MaxRel int64
	// P is the persistence of RBP and NERR10.
	P float64
	// T is the goal of BPM, INST, INSQ and NERR11.
	T float64
	// K is the cutoff of SDCG, BPM, NERR8 and NERR9.
	K int
}

// Validate reports parameters cwl_eval cannot score with, as ir_measures'
// cwl_eval provider refuses them.
func (m Measure) Validate() error {
	switch m.Kind {
	case RBP:
		if math.IsNaN(m.P) || math.IsInf(m.P, 0) {
			return fmt.Errorf("cwl: %v: p=%v is not a finite number", m.Kind, m.P)
		}
		return nil
	case SDCG, BPM, INST, INSQ, NERR8, NERR9, NERR10, NERR11:
	default:
		return fmt.Errorf("cwl: unknown measure kind %d", int(m.Kind))
	}
	if m.MinRel >= m.MaxRel {
		return fmt.Errorf("cwl: %v: min_rel=%d must be less than max_rel=%d", m.Kind, m.MinRel, m.MaxRel)
	}
	if math.IsNaN(m.P) || math.IsInf(m.P, 0) || math.IsNaN(m.T) || math.IsInf(m.T, 0) {
		return fmt.Errorf("cwl: %v: p=%v, T=%v: want finite numbers", m.Kind, m.P, m.T)
	}
	return nil
}

// Gain returns the gain cwl_eval gives a judged document of this label.
// Negative labels count as 0 first (the trec_eval convention ir_measures
// follows); an unjudged document has gain 0.
func (m Measure) Gain(label int64) float64 {
	label = max(label, 0)
	if m.Kind == RBP {
		if label >= m.Rel {
			return 1
		}
		return 0
	}
	label = min(max(label, m.MinRel), m.MaxRel)
	return float64(label-m.MinRel) / float64(m.MaxRel-m.MinRel)
}

// Order returns the indexes of the documents of one query in the order
// ir_measures hands them to cwl_eval: by score, highest first, equal
// scores in the order given (the run file's order).
func Order(scores []float64) []int {
	idx := make([]int, len(scores))
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
		return 0
	})
	return idx
}

// Scorer computes one measure over rankings. It holds the continuation
// weights that do not depend on the gains (RBP's, SDCG's), computed once.
// A Scorer is safe for concurrent use.
type Scorer struct {
	m     Measure
	fixed []float64 // W of RBP and SDCG; nil for the others
}

// New returns a Scorer of m, or m's Validate error.
func New(m Measure) (*Scorer, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	s := &Scorer{m: m}
	switch m.Kind {
	case RBP:
		c := make([]float64, Depth)
		for i := range c {
			c[i] = m.P
		}
		s.fixed = weights(c)
	case SDCG:
		s.fixed = weights(sdcgContinue(m.K))
	}
	return s, nil
}

// Measure returns the measure s computes.
func (s *Scorer) Measure() Measure { return s.m }

// Score returns the expected utility (the value ir_measures reports) of
// one ranking: gains[i] is the gain of the document at rank i+1 (0 for an
// unjudged one). Ranks past Depth are ignored.
func (s *Scorer) Score(gains []float64) float64 {
	g := make([]float64, Depth)
	copy(g, gains)
	w := s.fixed
	if w == nil {
		w = weights(s.continuation(g))
	}
	return dot(w, g)
}

// continuation returns the probability of going on from each rank to the
// next, computed as cwl_eval computes it.
func (s *Scorer) continuation(g []float64) []float64 {
	m := s.m
	c := make([]float64, len(g))
	switch m.Kind {
	case BPM:
		// Costs are all 1 (no cost file): the cost so far at rank i+1 is
		// i+1.
		cg := 0.0
		for i := range g {
			cg += g[i]
			if !(cg < m.T) {
				break
			}
			if !(float64(i+1) < float64(m.K)) {
				break
			}
			c[i] = 1
		}
	case INST:
		// x*x: Python and numpy square with glibc's pow(x, 2.0), which
		// is within an ulp of it (one goldens value in 2800 differs).
		cg := 0.0
		for i := range g {
			cg += g[i]
			ti := m.T - cg
			r := float64(i) + 1
			x := ((r + m.T) + ti - 1) / ((r + m.T) + ti)
			c[i] = x * x
		}
	case INSQ:
		for i := range g {
			r := float64(i) + 1
			x := (r + 2*m.T - 1) / (r + 2*m.T)
			c[i] = x * x
		}
	case NERR8:
		for i := 0; i < len(g) && i < m.K-1; i++ {
			c[i] = 1 - g[i]
		}
	case NERR9:
		for i := 0; i < len(g) && i < m.K-1; i++ {
			r := float64(i + 1)
			c[i] = r / (r + 1) * (1 - g[i])
		}
	case NERR10:
		for i := range g {
			c[i] = m.P * (1 - g[i])
		}
	case NERR11:
		for i := range g {
			r := float64(i + 1)
			x := (r + 2*m.T - 1) / (r + 2*m.T)
			c[i] = x * x * (1 - g[i])
		}
	}
	return c
}

// weights returns the probability of examining each rank given the
// continuation probabilities c: W(i) = C(1)...C(i-1) / sum over j of the
// same products, the products accumulated from the top and the sum taken
// as numpy takes it (pairwise), then multiplied by the reciprocal.
func weights(c []float64) []float64 {
	w := make([]float64, len(c))
	w[0] = 1
	for i := 1; i < len(c); i++ {
		if i == 1 {
			w[i] = c[0]
		} else {
			w[i] = w[i-1] * c[i-1]
		}
	}
	w1 := 1 / pairwiseSum(w)
	w[0] = w1
	for i := 1; i < len(w); i++ {
		w[i] *= w1
	}
	return w
}

// pairwiseSum adds a as numpy's float64 sum does: blocks of at most 128
// values added in eight interleaved partial sums, longer arrays split in
// two at a multiple of 8.
func pairwiseSum(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range a {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += a[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwiseSum(a[:n2]) + pairwiseSum(a[n2:])
}

// dot returns the sum of w[i]*g[i] in the order numpy 2.4's OpenBLAS
// (0.3.31) adds it on an AVX-512 processor (its SkylakeX ddot kernel):
// the first len &^ 15 terms fused-multiply-added into four accumulators
// of eight lanes, block of 32 by block of 32 (terms past the last whole
// block into the low two accumulators, four lanes each), the lanes folded
// to four and the accumulators added in order, the four lanes added as
// (0+2) + (1+3); then the remaining terms fused-multiply-added one by
// one. On other processors OpenBLAS runs another kernel, whose sum may
// differ in the last bits.
func dot(w, g []float64) float64 {
	n := len(g)
	n1 := n &^ 15
	var a [4][8]float64
	i := 0
	for ; i < n1&^31; i += 32 {
		for k := range a {
			for l := range a[k] {
				a[k][l] = math.FMA(w[i+8*k+l], g[i+8*k+l], a[k][l])
			}
		}
	}
	var h [4][4]float64
	for k := range a {
		for l := range h[k] {
			h[k][l] = a[k][l] + a[k][l+4]
		}
	}
	for ; i < n1; i += 8 {
		for l := range 4 {
			h[0][l] = math.FMA(w[i+l], g[i+l], h[0][l])
			h[1][l] = math.FMA(w[i+4+l], g[i+4+l], h[1][l])
		}
	}
	var s [4]float64
	for l := range s {
		s[l] = ((h[0][l] + h[1][l]) + h[2][l]) + h[3][l]
	}
	sum := (s[0] + s[2]) + (s[1] + s[3])
	for ; i < n; i++ {
		sum = math.FMA(g[i], w[i], sum)
	}
	return sum
}

// sdcgContinue returns SDCG's continuation probabilities at cutoff k:
// log2(i+1)/log2(i+2) at rank i below k, 0 from k on, with each log2
// computed as Python's math.log(x, 2) is: the natural log of x over that
// of 2, both correctly rounded (as glibc's log is for these integers).
func sdcgContinue(k int) []float64 {
	c := make([]float64, Depth)
	if k <= 1 {
		return c
	}
	ln2 := crlog.Ln(2)
	prev := ln2 / ln2
	for i := 1; i < k && i <= Depth; i++ {
		next := crlog.Ln(int64(i)+2) / ln2
		c[i-1] = prev / next
		prev = next
	}
	return c
}
