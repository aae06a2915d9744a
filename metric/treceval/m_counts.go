package treceval

// Counting measures: num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret
// (summed over topics) and num_q, runid, relstring.

func calcNumRet(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = float64(r.NumRet)
	return nil
}

func calcNumRel(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = float64(r.NumRel)
	return nil
}

func calcNumRelRet(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = float64(r.NumRelRet)
	return nil
}

func calcNumNonrelJudgedRet(_ *Evaluator, _ *measure, r *Ranked, v []float64) error {
	v[0] = float64(r.NumRet - r.NumNonpool - r.NumUnjudged - r.NumRelRet)
	return nil
}

func calcNumQ(_ *Evaluator, _ *measure, _ *Ranked, v []float64) error {
	v[0] = 1
	return nil
}

func calcNone(*Evaluator, *measure, *Ranked, []float64) error { return nil }

// calcRelstring writes the first N judgements (default 10) as characters:
// the digit for 0-9, '>' above 9, '-' not in the judgements, '.' judged
// negative.
func calcRelstring(e *Evaluator, m *measure, r *Ranked, _ []float64) error {
	n := min(cLong(m.dparams[0]), r.NumRet)
	n = max(n, 0)
	e.relstr = e.relstr[:0]
	for _, rel := range r.Rels[:n] {
		var c byte
		switch {
		case rel > 9:
			c = '>'
		case rel >= 0:
			c = '0' + byte(rel)
		case rel == RelNonpool:
			c = '-'
		case rel == RelUnjudged:
			c = '.'
		default:
			c = '<'
		}
		e.relstr = append(e.relstr, c)
	}
	return nil
}
