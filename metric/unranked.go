package metric

import "github.com/rankmetrics/rankmetrics/tensor"

// This file counts unranked relevant items (UpdateUnranked) in a plan of
// several metrics, whose general kernel (batch) knows only ranked items.
// For each list with unranked items, every MAP of specs (the metrics that
// count them) is recomputed by the MAP specialisation, mapRank, which adds
// them to the AP denominator and the list weight: the values are those of
// the MAP made alone, bit for bit, as every tie policy but Random ranks the
// same way in both kernels (a plan of several metrics refuses unranked
// items under Random). The list weights of those metrics are then derived
// again over the batch.

// unrankedMAP recounts, in float32, the MAP metrics specs of each list of a
// batch that batch has computed with unranked[b] > 0 unranked relevant
// items.
func (ws *famFloat32) unrankedMAP(specs []int, labels, predictions tensor.Lists, weights tensor.Weights, unranked []int, p *famPlan) error {
	bsz, n := labels.Len(), labels.Width()
	wv := weights.Values()
	some := false
	for b := range bsz {
		if unranked[b] == 0 {
			continue
		}
		some = true
		lab, sc, w, wc, err := ws.inputs(b, &labels, &predictions, &weights, &wv)
		if err != nil {
			return err
		}
		for _, j := range specs {
			ap, pw, sw, nrel, bad := ws.mapRank(b, lab, sc, w, unranked[b], wc, w != nil, n, p.ragged, p.specs[j].topn, p.ties, nil)
			if bad >= 0 {
				return scoreError(b, bad, float64(lab[bad]))
			}
			o := &ws.out[j]
			o.val[b], o.pw[b], o.sw[b], o.r[b] = ap, pw, sw, float32(nrel)
		}
	}
	for _, j := range specs {
		if some {
			ws.finish(j, bsz, p)
		}
	}
	return nil
}

// unrankedMAP is the float64 unrankedMAP.
func (ws *famFloat64) unrankedMAP(specs []int, labels, predictions tensor.Lists, weights tensor.Weights, unranked []int, p *famPlan) error {
	bsz, n := labels.Len(), labels.Width()
	wv := weights.Values()
	some := false
	for b := range bsz {
		if unranked[b] == 0 {
			continue
		}
		some = true
		lab, sc, w, wc, err := ws.inputs(b, &labels, &predictions, &weights, &wv)
		if err != nil {
			return err
		}
		for _, j := range specs {
			ap, pw, sw, nrel, bad := ws.mapRank(b, lab, sc, w, unranked[b], wc, w != nil, n, p.ragged, p.specs[j].topn, p.ties, nil)
			if bad >= 0 {
				return scoreError(b, bad, lab[bad])
			}
			o := &ws.out[j]
			o.val[b], o.pw[b], o.sw[b], o.r[b] = ap, pw, sw, float64(nrel)
		}
	}
	for _, j := range specs {
		if some {
			ws.finish(j, bsz, p)
		}
	}
	return nil
}
