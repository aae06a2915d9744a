package treceval

import "math"

// Average-precision-like measures: map, gm_map, map_cut, yaap, bpref,
// gm_bpref, infAP, recip_rank, binG.

// minGeoMean is the floor trec_eval puts under values before taking their
// logarithm for a geometric mean.
const minGeoMean = 0.00001

// sumPrec is the sum over relevant ranked documents of the precision at
// their rank, and how many there are.
func sumPrec(level int64, r *Ranked) (sum float64, so int64) {
	for i, rel := range r.Rels {
		if rel >= level {
			so++
			sum += float64(so) / float64(i+1)
		}
	}
	return sum, so
}

func calcMap(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	if sum, so := sumPrec(e.cfg.RelLevel, r); so != 0 {
		v[0] = sum / float64(r.NumRel)
	}
	return nil
}

func calcGmMap(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	sum, so := sumPrec(e.cfg.RelLevel, r)
	if so != 0 {
		sum /= float64(r.NumRel)
	}
	v[0] = math.Log(max(sum, minGeoMean))
	return nil
}

func calcYaap(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	sum, _ := sumPrec(e.cfg.RelLevel, r)
	v[0] = math.Log((1.0 + sum) / (1.0 + float64(r.NumRel) - sum))
	return nil
}

func calcMapCut(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	ci := 0
	var so int64
	sum := 0.0
	i := int64(0)
	for ; i < r.NumRet; i++ {
		if i == m.cuts[ci] {
			v[ci] = sum / float64(r.NumRel)
			if ci++; ci == len(m.cuts) {
				return nil
			}
		}
		if r.Rels[i] >= e.cfg.RelLevel {
			so++
			sum += float64(so) / float64(i+1)
		}
	}
	for ; ci < len(m.cuts); ci++ {
		v[ci] = sum / float64(r.NumRel)
	}
	return nil
}

// bpref is the mean over relevant documents of one minus the fraction of
// the top-R judged nonrelevant documents ranked above them.
func bpref(e *Evaluator, r *Ranked) float64 {
	var numNonrel int64
	for j := int64(0); j < e.cfg.RelLevel; j++ {
		numNonrel += r.Level(j)
	}
	var nonrel int64
	b := 0.0
	for _, rel := range r.Rels {
		if rel == RelNonpool || rel == RelUnjudged {
			continue
		}
		if rel >= 0 && rel < e.cfg.RelLevel {
			nonrel++
			continue
		}
		if nonrel > 0 {
			b += 1.0 - float64(min(nonrel, r.NumRel))/float64(min(numNonrel, r.NumRel))
		} else {
			b += 1.0
		}
	}
	if r.NumRel != 0 {
		b /= float64(r.NumRel)
	}
	return b
}

func calcBpref(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = bpref(e, r)
	return nil
}

func calcGmBpref(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = math.Log(max(bpref(e, r), minGeoMean))
	return nil
}

const infapEpsilon = 0.00001

// calcInfAP is inferred AP (Yilmaz and Aslam), which estimates precision
// above each relevant document from the judged documents only.
func calcInfAP(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	var nonrel, rels, unj int64
	ap := 0.0
	for j, rel := range r.Rels {
		if rel == RelNonpool {
			continue
		}
		if rel == RelUnjudged {
			unj++
			continue
		}
		if rel >= 0 && rel < e.cfg.RelLevel {
			nonrel++
			continue
		}
		rels++
		if j == 0 {
			ap += 1.0
			continue
		}
		fj := float64(j)
		// Integer sums as C computes them (long arithmetic, then the
		// conversion at the division).
		a := float64(rels - 1 + nonrel + unj)
		t1 := float64(fj/(fj+1.0)) * (a / fj)
		t2 := (float64(rels-1) + infapEpsilon) / (float64(rels-1+nonrel) + 2*infapEpsilon)
		ap += 1.0/(fj+1.0) + float64(t1*t2)
	}
	if r.NumRel != 0 {
		ap /= float64(r.NumRel)
	}
	v[0] = ap
	return nil
}

func calcRecipRank(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	for i, rel := range r.Rels {
		if rel >= e.cfg.RelLevel {
			v[0] = 1.0 / float64(i+1)
			return nil
		}
	}
	return nil
}

func calcBinG(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	var so int64
	sum := 0.0
	for i, rel := range r.Rels {
		if rel >= e.cfg.RelLevel {
			so++
			sum += 1.0 / e.lg(3+int64(i)-so)
		}
	}
	if so != 0 {
		v[0] = sum / float64(r.NumRel)
	}
	return nil
}
