package measure

import (
	"fmt"
	"strconv"

	"github.com/rankmetrics/rankmetrics/metric/cwl"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/metric/ndeval"
)

// cwlCalc returns the cwl_eval provider's computation of the C/W/L
// measure of kind k.
func cwlCalc(k cwl.Kind) func(p map[string]string) (irm.Measure, error) {
	return func(p map[string]string) (irm.Measure, error) {
		m := cwl.Measure{Kind: k, K: int(intParam(p, "cutoff"))}
		if k == cwl.RBP {
			if p["rel"] == "" {
				return nil, fmt.Errorf("RBP needs rel=N: cwl_eval, its only provider, gives gain 1 at or above rel (ir_measures refuses RBP without it)")
			}
			m.Rel = intParam(p, "rel")
		} else {
			if p["max_rel"] == "" {
				return nil, fmt.Errorf("%v needs max_rel=N, the label of gain 1 (cwl_eval scales labels to (label-min_rel)/(max_rel-min_rel))", k)
			}
			m.MinRel, m.MaxRel = intParam(p, "min_rel"), intParam(p, "max_rel")
		}
		if p["dcg"] != "" && p["dcg"] != "'log2'" {
			return nil, fmt.Errorf("SDCG takes dcg='log2' only")
		}
		for name, dst := range map[string]*float64{"p": &m.P, "T": &m.T} {
			if v := p[name]; v != "" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, fmt.Errorf("parameter %s: %w", name, err)
				}
				*dst = x
			}
		}
		s, err := cwl.New(m)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}

// ndevalCalc returns the pyndeval provider's computation of the diversity
// measure of kind k.
func ndevalCalc(k ndeval.Kind) func(p map[string]string) (irm.Measure, error) {
	return func(p map[string]string) (irm.Measure, error) {
		// ir_measures passes alpha and beta 0.5 to pyndeval for the
		// measures that have no such parameter.
		m := ndeval.Measure{Kind: k, Cutoff: int(intParam(p, "cutoff")), JudgedOnly: p["judged_only"] == "True",
			Params: ndeval.Params{Rel: intParam(p, "rel"), Alpha: 0.5, Beta: 0.5}}
		for name, dst := range map[string]*float64{"alpha": &m.Alpha, "beta": &m.Beta} {
			if v := p[name]; v != "" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, fmt.Errorf("parameter %s: %w", name, err)
				}
				*dst = x
			}
		}
		s, err := ndeval.New(m)
		if err != nil {
			return nil, err
		}
		return s, nil
	}
}
