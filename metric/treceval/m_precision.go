package treceval

// Precision-like measures over the ranked list: P, recall, relative_P,
// success, unj, Rprec, Rprec_mult and the set_ measures.

// cutLoop walks the ranking and calls at(ci, i, so) when rank i (0-based,
// documents before it) reaches cutoff ci, with so the number of documents
// before i for which hit is true; cutoffs beyond the list get the final
// count. It is trec_eval's cutoff loop, shared by the cutoff measures.
func cutLoop(r *Ranked, cuts []int64, hit func(rel int64) bool, at func(ci int, i int64, so int64)) {
	ci := 0
	var so int64
	for i := int64(0); i < r.NumRet; i++ {
		if i == cuts[ci] {
			at(ci, i, so)
			if ci++; ci == len(cuts) {
				return
			}
		}
		if hit(r.Rels[i]) {
			so++
		}
	}
	for ; ci < len(cuts); ci++ {
		at(ci, cuts[ci], so)
	}
}

func calcP(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	cutLoop(r, m.cuts, e.isRel, func(ci int, i, so int64) { v[ci] = float64(so) / float64(i) })
	return nil
}

func calcRecall(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	cutLoop(r, m.cuts, e.isRel, func(ci int, _, so int64) { v[ci] = float64(so) / float64(r.NumRel) })
	return nil
}

func calcRelativeP(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	if r.NumRel == 0 {
		return nil
	}
	cutLoop(r, m.cuts, e.isRel, func(ci int, i, so int64) { v[ci] = float64(so) / float64(min(i, r.NumRel)) })
	return nil
}

func calcSuccess(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	cutLoop(r, m.cuts, e.isRel, func(ci int, _, so int64) {
		if so > 0 {
			v[ci] = 1
		} else {
			v[ci] = 0
		}
	})
	return nil
}

func calcUnj(_ *Evaluator, m *measure, r *Ranked, v []float64) error {
	unj := func(rel int64) bool { return rel == RelNonpool || rel == RelUnjudged }
	cutLoop(r, m.cuts, unj, func(ci int, i, so int64) { v[ci] = float64(so) / float64(i) })
	return nil
}

func calcRprec(e *Evaluator, _ *measure, r *Ranked, v []float64) error {
	n := min(r.NumRet, r.NumRel)
	if n == 0 {
		return nil
	}
	var so int64
	for _, rel := range r.Rels[:n] {
		if rel >= e.cfg.RelLevel {
			so++
		}
	}
	v[0] = float64(so) / float64(r.NumRel)
	return nil
}

// calcRprecMult is precision at cutoffs of x*R documents, the cutoff
// truncated after adding 0.9 (in both versions).
func calcRprecMult(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	cuts := e.longBuf(len(m.dcuts))
	for i, p := range m.dcuts {
		cuts[i] = cLong(p*float64(r.NumRel) + 0.9)
	}
	cur := len(cuts) - 1
	for cur >= 0 && cuts[cur] > r.NumRet {
		v[cur] = float64(r.NumRelRet) / float64(cuts[cur])
		cur--
	}
	so := r.NumRelRet
	for i := r.NumRet; i > 0 && so > 0; i-- {
		precis := float64(so) / float64(i)
		for cur >= 0 && i == cuts[cur] {
			v[cur] = precis
			cur--
		}
		if r.Rels[i-1] >= e.cfg.RelLevel {
			so--
		}
	}
	return nil
}

func calcSetP(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	if r.NumRet != 0 {
		v[0] = float64(r.NumRelRet) / float64(r.NumRet)
	}
	return nil
}

func calcSetRelativeP(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	if r.NumRet != 0 && r.NumRel != 0 {
		v[0] = float64(r.NumRelRet) / float64(min(r.NumRet, r.NumRel))
	}
	return nil
}

func calcSetRecall(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	if r.NumRel != 0 {
		v[0] = float64(r.NumRelRet) / float64(r.NumRel)
	}
	return nil
}

func calcSetMap(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	if r.NumRet != 0 && r.NumRel != 0 {
		v[0] = (float64(r.NumRelRet) * float64(r.NumRelRet)) / (float64(r.NumRet) * float64(r.NumRel))
	}
	return nil
}

func calcSetF(_ *Evaluator, m *measure, r *Ranked, v []float64) error {
	if r.NumRelRet != 0 {
		p := float64(r.NumRelRet) / float64(r.NumRet)
		rc := float64(r.NumRelRet) / float64(r.NumRel)
		x := m.dparams[0]
		v[0] = float64(float64((x+1.0)*p)*rc) / (float64(x*p) + rc)
	}
	return nil
}

// calcUtility is a*relret + b*(ret-relret) + c*(rel-relret) +
// d*(N+relret-ret-rel) with the four coefficients as parameters.
func calcUtility(e *Evaluator, m *measure, r *Ranked, v []float64) error {
	p := m.dparams
	if len(p) != 4 {
		return errUtilityParams
	}
	// The conversions keep each product rounded (no fused multiply-add),
	// as trec_eval's C computes it.
	v[0] = float64(p[0]*float64(r.NumRelRet)) +
		float64(p[1]*float64(r.NumRet-r.NumRelRet)) +
		float64(p[2]*float64(r.NumRel-r.NumRelRet)) +
		float64(p[3]*float64(e.cfg.NumDocsInColl+r.NumRelRet-r.NumRet-r.NumRel))
	return nil
}
