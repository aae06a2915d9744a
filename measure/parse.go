package measure

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// ErrUnknown is the error of a name that is not in the registry; its
// message lists the nearest names.
var ErrUnknown = errors.New("unknown measure")

// Measure is one parsed measure: map, TF-Ranking's MAP over the whole list
// (TopN is metric.NoTopN), or map@TopN, which count the judged relevant
// documents a TREC run missed; a metric of the TF-Ranking family or MAP
// under a convention (Family is set), or a trec_eval measure (TrecEval is
// set).
type Measure struct {
	// Name is the measure's name: "map", "map@K", the name the user gave
	// a family metric ("ndcg@10", "mrr", "ndcg_metric"...), or the name
	// trec_eval prints a value under ("P_10", "ndcg", "map_cut_10"...).
	Name string
	// TopN is K of map@K, or metric.NoTopN for map; for a family metric,
	// its cutoff; metric.NoTopN for a trec_eval measure.
	TopN int
	// Family, when not nil, holds the settings of a metric of the family.
	// Its dtype, raggedness, accumulation, seed and tie policy are the
	// caller's to set.
	Family *metric.Config
	// TrecEval, when not empty, is the trec_eval -m specification ("P.10",
	// "ndcg", "P.5,10") one of whose values, named Name, the measure is.
	TrecEval string
	// IR, when not nil, makes the measure one of ir_measures (Name is its
	// name, "nDCG@10", "AP(rel=2)@100"): its value is that of the
	// trec_eval measure TrecEval under IR's settings.
	IR *IRSpec
}

// MAP returns the measure map: MAP over the whole list.
func MAP() Measure { return Measure{Name: "map", TopN: metric.NoTopN} }

// MAPAt returns the measure map@k.
func MAPAt(k int) Measure { return Measure{Name: "map@" + strconv.Itoa(k), TopN: k} }

// IsTrecEval reports whether m is computed by metric/treceval.
func (m Measure) IsTrecEval() bool { return m.TrecEval != "" }

// IsMAP reports whether m is map or map@K (TF-Ranking's MAP counting the
// relevant documents a TREC run missed).
func (m Measure) IsMAP() bool { return m.Family == nil && m.TrecEval == "" && m.IR == nil }

// ValueDType returns the dtype m's values are computed in under a plan of
// dtype d: d, but float64 for trec_eval's measures, as trec_eval's doubles.
func (m Measure) ValueDType(d metric.DType) metric.DType {
	if m.IsTrecEval() || m.IR != nil {
		return metric.Float64
	}
	return d
}

// Parse reads one measure name, with surrounding spaces (see the package
// documentation for the names). An unknown name is an error wrapping
// ErrUnknown that lists the nearest names of every family.
func Parse(s string) (Measure, error) {
	name := strings.TrimSpace(s)
	if name == "" {
		return Measure{}, fmt.Errorf("%w: empty name", ErrUnknown)
	}
	r := reg()
	if m, ok, err := r.parseIR(name, false); ok {
		return m, err
	}
	if base, conv, ok := strings.Cut(name, ":"); ok {
		if p, err := metric.ParseProfile(conv); err == nil && p != metric.ProfileTFRanking {
			return r.parseProfile(s, base, p)
		}
		return r.parseConvention(s, base, conv)
	}
	key, cut, hasCut := strings.Cut(name, "@")
	if d := r.tf[key]; d != nil && !(hasCut && r.kerasDef[key]) && (hasCut || key != "ndcg") {
		return r.parseTF(s, d, key, cut, hasCut)
	}
	if !hasCut {
		if m, ok, err := r.parseTrecEval(name); ok {
			return m, err
		}
	}
	if id := irIdent(name); IRAliases[id].Key != "" {
		// MAP, NDCG...: ir_measures' aliases that other families' names
		// spell in other cases are not read by -m, where they would
		// silently mean one or the other.
		m, err := ParseIRMeasures(name)
		if err == nil {
			write := m.Name
			if r.trec[write] != nil {
				write += "()" // bare Rprec is trec_eval's
			}
			return Measure{}, fmt.Errorf("%w; %s is ambiguous here: ir_measures reads it as %s (write %s, or use rankmetrics ir_measures, which reads ir_measures' aliases)", r.unknown(s), id, m.Name, write)
		}
	}
	return Measure{}, r.unknown(s)
}

// parseTF reads a TF-Ranking name: key, key@K or a Keras default name.
func (r *registry) parseTF(s string, d *Def, key, cut string, hasCut bool) (Measure, error) {
	c := metric.DefaultConfig(d.kind)
	c.Name = key
	if hasCut {
		n, err := strconv.Atoi(cut)
		if err != nil || n < 0 || strings.ContainsAny(cut, "+-") {
			return Measure{}, fmt.Errorf("%w %q: the cutoff after @ must be an integer >= 0, as in %s@10", ErrUnknown, s, key)
		}
		if !d.Cutoff {
			return Measure{}, fmt.Errorf("%w %q: %s takes no cutoff (%s)", ErrUnknown, s, key, d.Doc)
		}
		c.TopN = n
		c.Name = key + "@" + strconv.Itoa(n)
	}
	if d.kind == metric.KindMAP {
		if hasCut {
			return MAPAt(c.TopN), nil
		}
		return MAP(), nil
	}
	return Measure{Name: c.Name, TopN: c.TopN, Family: &c}, nil
}

// parseConvention reads map:CONVENTION or map@K:CONVENTION.
func (r *registry) parseConvention(s, base, conv string) (Measure, error) {
	d := r.conv[conv]
	if d == nil {
		names := make([]string, 0, len(r.conv))
		for _, c := range metric.Conventions() {
			names = append(names, c.String())
		}
		return Measure{}, fmt.Errorf("%w %q: convention %q is not one of %s", ErrUnknown, s, conv, strings.Join(names, ", "))
	}
	key, cut, hasCut := strings.Cut(base, "@")
	if key != "map" {
		return Measure{}, fmt.Errorf("%w %q: a convention follows map or map@K, as in map@10:treceval", ErrUnknown, s)
	}
	m, err := r.parseTF(s, r.tf["map"], key, cut, hasCut)
	if err != nil {
		return Measure{}, err
	}
	c := metric.DefaultConfig(metric.KindMAP)
	c.TopN = m.TopN
	c.Convention = d.conv
	c.Name = m.Name + ":" + conv
	if err := c.Validate(); err != nil {
		return Measure{}, fmt.Errorf("measure %q: %w", s, err)
	}
	return Measure{Name: c.Name, TopN: c.TopN, Family: &c}, nil
}

// parseTrecEval reads a value name of trec_eval ("P_10", "ndcg",
// "iprec_at_recall_0.50") or a -m specification giving one value
// ("P.10"); ok is false when name is neither.
func (r *registry) parseTrecEval(name string) (m Measure, ok bool, err error) {
	if base, _, has := strings.Cut(name, "."); has && r.trec[base] != nil {
		list, err := r.parseSpec(name)
		if err != nil {
			return Measure{}, true, err
		}
		if len(list) != 1 {
			return Measure{}, true, fmt.Errorf("measure %q gives %d values; give it as the whole value of one -m, as in -m %s", name, len(list), name)
		}
		return list[0], true, nil
	}
	if d := r.trec[name]; d != nil && !d.trec.PerTopic && d.Summary != NoSummary || name == "runid" || name == "relstring" {
		return Measure{}, true, fmt.Errorf("measure %q: trec_eval prints %s in its summary only, or not as a number per query; use rankmetrics trec_eval", name, name)
	}
	spec, err := treceval.ValueSpec(name, treceval.V10)
	if err != nil {
		return Measure{}, false, nil
	}
	return Measure{Name: name, TopN: metric.NoTopN, TrecEval: spec}, true, nil
}

// parseSpec reads a trec_eval -m specification with parameters
// ("name.params": P.5,10; ndcg_cut.3; iprec_at_recall.0.25,0.75;
// ndcg.1=1,2=3) into one measure per value it gives, named as trec_eval
// prints them (P_5, P_10).
func (r *registry) parseSpec(s string) ([]Measure, error) {
	ev, err := treceval.NewEvaluator(treceval.DefaultConfig(treceval.V10), []string{s})
	if err != nil {
		return nil, fmt.Errorf("measure %q: %w", s, err)
	}
	base, _, _ := strings.Cut(s, ".")
	if d := r.trec[base]; d != nil && d.TrecEvalOnly && r.tf[base] != nil {
		return nil, fmt.Errorf("measure %q: trec_eval's %s has no name outside rankmetrics trec_eval (the name %s is TF-Ranking's); use rankmetrics trec_eval, or map:treceval and map_cut_K for trec_eval's map", s, base, base)
	}
	list := make([]Measure, 0, ev.NumValues())
	for i, n := range ev.Names() {
		if r.tf[n] != nil {
			return nil, fmt.Errorf("measure %q: its value %s would print under a name of TF-Ranking's; use rankmetrics trec_eval for it", s, n)
		}
		if !ev.IsTopicValue(i) {
			return nil, fmt.Errorf("measure %q: trec_eval prints %s in its summary only, without a per-query value; use rankmetrics trec_eval", s, n)
		}
		list = append(list, Measure{Name: n, TopN: metric.NoTopN, TrecEval: s})
	}
	return list, nil
}

// ParseList reads the value of one -m flag: a trec_eval specification with
// parameters takes the whole value, as trec_eval's -m does (P.5,10 gives
// P_5 and P_10); anything else is a list of names (see Parse) separated
// by commas or spaces, as ir_measures' command line writes them
// ('RBP(rel=1) alpha_nDCG@20'), but for those inside an ir_measures
// name's parentheses (AP(rel=2, judged_only=True)@10). Repeats are left
// out. It takes time linear in the number of names.
func ParseList(s string) ([]Measure, error) {
	t := strings.TrimSpace(s)
	r := reg()
	if base, _, has := strings.Cut(t, "."); has && r.trec[base] != nil {
		list, err := r.parseSpec(t)
		if err != nil {
			return nil, err
		}
		return dedupe(list), nil
	}
	var parts []string
	for _, p := range splitTop(s) {
		parts = append(parts, splitSpaces(p)...)
	}
	out := make([]Measure, 0, len(parts))
	for _, part := range parts {
		m, err := Parse(part)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return dedupe(out), nil
}

// splitSpaces splits s at the runs of white space outside parentheses,
// brackets and braces, leaving out empty parts; s itself when it has no
// such space, so that a lone empty name is still refused by Parse.
func splitSpaces(s string) []string {
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		}
		if depth == 0 && (c == ' ' || c == '\t' || c == '\n') {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	if len(out) == 0 {
		return []string{s}
	}
	return out
}

// dedupe leaves out the repeats of list (see Append), keeping the first.
func dedupe(list []Measure) []Measure {
	seen := make(map[string]bool, len(list))
	out := list[:0]
	for _, m := range list {
		if k := m.key(); !seen[k] {
			seen[k] = true
			out = append(out, m)
		}
	}
	return out
}

// key identifies a measure for repeats: map and map@K by their cutoff,
// the others by name.
func (m Measure) key() string {
	if m.IsMAP() {
		return "\x00map@" + strconv.Itoa(m.TopN)
	}
	return m.Name
}

// Append appends m to list unless list already has the same measure: map
// or map@K with the same TopN, or a family or trec_eval measure with the
// same name.
func Append(list []Measure, m Measure) []Measure {
	k := m.key()
	for _, x := range list {
		if x.key() == k {
			return list
		}
	}
	return append(list, m)
}

// ParseTFRanking reads the name of a TF-Ranking metric alone: its key
// (tfr.keras.metrics.get's, "ndcg", "mrr", "opa", "precision_ia"...), with
// an optional cutoff ("ndcg@5"). It is the name the compute interface's
// "metric" key takes, where every metric is TF-Ranking's, so that "ndcg"
// there is TF-Ranking's NDCG (in Parse, which reads every family, it is
// trec_eval's and TF-Ranking's is ndcg_metric).
func ParseTFRanking(s string) (Measure, error) {
	name := strings.TrimSpace(s)
	r := reg()
	key, cut, hasCut := strings.Cut(name, "@")
	d := r.tf[key]
	if d == nil || r.kerasDef[key] {
		var keys []string
		for _, k := range metric.Kinds() {
			keys = append(keys, k.String())
			if k == metric.KindOPA {
				keys = append(keys, "opa")
			}
		}
		return Measure{}, fmt.Errorf("%w %q: not a TF-Ranking metric key (%s, each with an optional @K)", ErrUnknown, name, strings.Join(keys, ", "))
	}
	m, err := r.parseTF(s, d, key, cut, hasCut)
	if err != nil || m.Family != nil {
		return m, err
	}
	c := metric.DefaultConfig(metric.KindMAP)
	c.TopN, c.Name = m.TopN, m.Name
	return Measure{Name: m.Name, TopN: m.TopN, Family: &c}, nil
}
