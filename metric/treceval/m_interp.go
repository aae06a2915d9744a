package treceval

import "math"

// Interpolated precision at recall levels: iprec_at_recall and 11pt_avg.

// recallCuts turns recall fractions into numbers of relevant documents:
// rounded to nearest in 10.0, truncated after adding 0.9 in 9.0.8.
func (e *Evaluator) recallCuts(fracs []float64, numRel int64) []int64 {
	cuts := e.longBuf(len(fracs))
	for i, p := range fracs {
		x := p * float64(numRel)
		if e.cfg.Version == V908 {
			cuts[i] = cLong(x + 0.9)
		} else {
			cuts[i] = cLong(math.Round(x))
		}
	}
	return cuts
}

// interp calls at(ci, p) with the interpolated precision (the best
// precision at this or any later rank) for each recall cutoff, walking the
// ranking from the end, as trec_eval does. trec_eval divides at every
// rank; between two relevant documents the count so stays the same and
// so/i grows as i falls, and so does its rounding, so the best of such a
// stretch is at its relevant document, the only rank divided at here.
func (e *Evaluator) interp(r *Ranked, cuts []int64, at func(ci int, p float64)) {
	cur := len(cuts) - 1
	for cur >= 0 && cuts[cur] > r.NumRelRet {
		cur--
	}
	ip := float64(r.NumRelRet) / float64(r.NumRet)
	so := r.NumRelRet
	for i := r.NumRet; i > 0 && so > 0; i-- {
		if r.Rels[i-1] >= e.cfg.RelLevel {
			if precis := float64(so) / float64(i); ip < precis {
				ip = precis
			}
			for cur >= 0 && so == cuts[cur] {
				at(cur, ip)
				cur--
			}
			so--
		}
	}
	for ; cur >= 0; cur-- {
		at(cur, ip)
	}
}

func calcIprecAtRecall(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	e.interp(r, e.recallCuts(m.dcuts, r.NumRel), func(ci int, p float64) { v[ci] = p })
	return nil
}

func calc11ptAvg(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	sum := 0.0
	e.interp(r, e.recallCuts(m.dparams, r.NumRel), func(_ int, p float64) { sum += p })
	v[0] = sum / float64(len(m.dparams))
	return nil
}
