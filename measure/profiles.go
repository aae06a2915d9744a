package measure

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
)

// profileFamily returns the Family of a library profile other than
// TF-Ranking's.
func profileFamily(p metric.Profile) Family {
	if p == metric.ProfileKerasRS {
		return KerasRS
	}
	return Torchmetrics
}

// profileRefs names each profile's reference and engine.
var profileRefs = map[metric.Profile][2]string{
	metric.ProfileKerasRS:      {"keras-rs 0.4.0 keras_rs.metrics (JAX backend, CPU)", "metric (profile kernels, float32/float64)"},
	metric.ProfileTorchmetrics: {"torchmetrics 1.9.0 torchmetrics.retrieval (CPU torch)", "metric (profile kernels, float32/float64)"},
}

// profileDocs defines each metric of a profile in a line.
var profileDocs = map[metric.Profile]map[metric.Kind]string{
	metric.ProfileKerasRS: {
		metric.KindMAP:       "AP within K over the weighted count of every relevant item (label >= 1); ties shuffled",
		metric.KindNDCG:      "DCG over ideal DCG, gain 2^label-1, discount 1/log2(1+rank); ties shuffled",
		metric.KindDCG:       "DCG (gain 2^label-1) divided by the list weight; ties shuffled",
		metric.KindMRR:       "reciprocal rank of the first relevant item within K, 0 when none; ties shuffled",
		metric.KindPrecision: "relevant items within K over min(K, valid items); ties shuffled",
		metric.KindRecall:    "relevant items within K over the relevant items; ties shuffled",
	},
	metric.ProfileTorchmetrics: {
		metric.KindMAP:        "AP over the relevant items retrieved within K; an item scored <= 0 is not relevant",
		metric.KindNDCG:       "NDCG with gain = label, tied items' gains averaged, mean over queries",
		metric.KindMRR:        "reciprocal rank of the first relevant item scored > 0 within K",
		metric.KindPrecision:  "relevant items scored > 0 within K over K (adaptive_k: over the list's length when shorter)",
		metric.KindRecall:     "relevant items scored > 0 within K over the relevant items",
		metric.KindHits:       "1 when a relevant item is within K (RetrievalHitRate)",
		metric.KindRPrecision: "relevant items among the first R over R",
		metric.KindFallOut:    "non-relevant items within K over the non-relevant items",
	},
}

// profileRecords adds a record per metric of each profile other than
// TF-Ranking's: names KEY:PROFILE and KEY@K:PROFILE ("ndcg@10:keras-rs",
// "map:torchmetrics"), one name, one definition.
func (r *registry) profileRecords() {
	r.prof = map[metric.Profile]map[metric.Kind]*Def{}
	for _, p := range metric.Profiles() {
		if p == metric.ProfileTFRanking {
			continue
		}
		r.prof[p] = map[metric.Kind]*Def{}
		for _, k := range p.Kinds() {
			d := &Def{Key: k.String(), Family: profileFamily(p), Reference: profileRefs[p][0] + " " + p.LibraryName(k),
				Engine: profileRefs[p][1], Doc: profileDocs[p][k], Summary: WeightedMean,
				Unit: k != metric.KindDCG, Cutoff: k.TakesTopN(), kind: k, profile: p, concept: tfDocs[k][1]}
			if p == metric.ProfileTorchmetrics {
				d.Summary = Mean
			}
			if d.concept == "" {
				d.concept = k.String()
			}
			d.Forms = []string{k.String() + ":" + p.String()}
			if d.Cutoff {
				d.Forms = append(d.Forms, k.String()+"@K:"+p.String())
			}
			r.prof[p][k] = d
			r.defs = append(r.defs, d)
		}
	}
}

// parseProfile reads KEY:PROFILE or KEY@K:PROFILE.
func (r *registry) parseProfile(s, base string, p metric.Profile) (Measure, error) {
	key, _, _ := strings.Cut(base, "@")
	k, err := metric.ParseKind(key)
	if err != nil || r.prof[p][k] == nil {
		var names []string
		for _, k := range p.Kinds() {
			names = append(names, k.String())
		}
		return Measure{}, fmt.Errorf("%w %q: the %s profile has %s (each KEY or KEY@K, then :%s)", ErrUnknown, s, p, strings.Join(names, ", "), p)
	}
	c, err := metric.ParseMetric(base)
	if err != nil {
		return Measure{}, fmt.Errorf("%w %q: %w", ErrUnknown, s, err)
	}
	c.Profile = p
	c.Name = base + ":" + p.String()
	if err := c.Validate(); err != nil {
		return Measure{}, fmt.Errorf("measure %q: %w", s, err)
	}
	return Measure{Name: c.Name, TopN: c.TopN, Family: &c}, nil
}

// InProfile returns m under profile p: map, map@K and a TF-Ranking metric
// key or Keras default name become KEY[@K]:PROFILE ("ndcg@10" becomes
// "ndcg@10:keras-rs"); a measure of another family, MAP under a
// convention, a name with its own profile and any measure under
// ProfileTFRanking are returned as they are. It is an error when p has no
// metric of m's kind.
func InProfile(m Measure, p metric.Profile) (Measure, error) {
	if p == metric.ProfileTFRanking || m.IsTrecEval() || m.IR != nil {
		return m, nil
	}
	kind, topn := metric.KindMAP, m.TopN
	if m.Family != nil {
		if m.Family.Profile != metric.ProfileTFRanking || m.Family.Convention != metric.TFRanking || strings.Contains(m.Name, ":") {
			return m, nil
		}
		kind, topn = m.Family.Kind, m.Family.TopN
	}
	base := kind.String()
	if topn != metric.NoTopN {
		base += "@" + strconv.Itoa(topn)
	}
	out, err := reg().parseProfile(base+":"+p.String(), base, p)
	if err != nil {
		return m, fmt.Errorf("measure %q under --profile %s: %w", m.Name, p, err)
	}
	return out, nil
}
