package measure

import (
	"fmt"
	"github.com/rankmetrics/rankmetrics/internal/editdist"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// conceptOf maps the normalised stems people write for a measure (see
// normStem) to the concept of the registry's records: P@10, p_10,
// precision@10 and prec10 are all "precision".
var conceptOf = map[string]string{
	"p": "precision", "prec": "precision", "precision": "precision",
	"r": "recall", "rec": "recall", "recall": "recall",
	"ndcg": "ndcg", "dcg": "dcg",
	"ap": "ap", "map": "ap", "averageprecision": "ap", "meanaverageprecision": "ap",
	"rr": "rr", "mrr": "rr", "reciprank": "rr", "reciprocalrank": "rr", "recip": "rr",
	"hits": "hits", "hit": "hits", "success": "hits", "hitrate": "hits",
	"rprec": "rprec", "rprecision": "rprec", "bpref": "bpref", "infap": "infap",
	"opa": "opa", "orderedpairaccuracy": "opa", "arp": "arp",
}

// splitCutoff splits a name into its stem and a trailing cutoff ("P@10":
// "P", "10"; "ndcg_cut10": "ndcg_cut", "10"; "iprec_at_recall_0.5":
// "iprec_at_recall", "0.5"); k is "" without one.
func splitCutoff(s string) (stem, k string) {
	i := len(s)
	for i > 0 && (s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '.') {
		i--
	}
	for i < len(s) && s[i] == '.' {
		i++
	}
	if i == len(s) || i == 0 {
		return s, ""
	}
	return strings.TrimRight(s[:i], "@_.-: "), s[i:]
}

// normStem lower-cases a stem and drops what people vary: separators, a
// trailing "cut" or "metric", a leading "mean" in front of a short name.
func normStem(stem string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(stem) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	n := b.String()
	for _, suf := range []string{"metric", "cut", "at"} {
		if t, ok := strings.CutSuffix(n, suf); ok && t != "" {
			n = t
		}
	}
	return n
}

// Suggestion is a name close to one that is not in the registry.
type Suggestion struct {
	// Name is the suggested name, with the cutoff the user gave.
	Name string
	// Def is its record.
	Def *Def
}

// Suggest returns the names of every family nearest to s: those of the same
// measure under another family's name (NDCG@10: ndcg@10 of TF-Ranking and
// ndcg_cut_10 of trec_eval), and those within a small edit distance.
// trecSpec writes trec_eval's names as -m specifications (P.10) instead of
// value names (P_10), for rankmetrics trec_eval.
func Suggest(s string, trecSpec bool) []Suggestion {
	r := reg()
	stem, k := splitCutoff(strings.TrimSpace(s))
	if base, _, ok := strings.Cut(stem, ":"); ok {
		stem = base
	}
	n := normStem(stem)
	concept := conceptOf[n]
	var out []Suggestion
	seen := map[string]bool{}
	for _, d := range r.defs {
		if d.Family == Convention && d.conv.String() != "treceval" || d.Family == KerasRS || d.Family == Torchmetrics {
			continue // named with their suffix only
		}
		dn := normStem(d.Key)
		var near bool
		switch {
		case concept != "":
			// The same measure under each family's name.
			near = d.concept == concept
		default:
			near = dn == n || len(n) >= 3 && editdist.Distance(dn, n) <= 1+len(n)/6
		}
		if !near {
			continue
		}
		name := d.render(k, trecSpec)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, Suggestion{Name: name, Def: d})
	}
	if k == "" {
		return out
	}
	// With a cutoff, a family's names that take one come before, and
	// replace, its names that do not (RR@10: mrr@10, and trec_eval's
	// recip_rank, which has no cutoff).
	cut := map[Family]bool{}
	for _, x := range out {
		cut[x.Def.Family] = cut[x.Def.Family] || x.Def.Cutoff
	}
	kept := out[:0]
	for _, x := range out {
		if x.Def.Cutoff || !cut[x.Def.Family] {
			kept = append(kept, x)
		}
	}
	return kept
}

// render writes d's name with cutoff k ("" for none), or "" when d has no
// name of that shape.
func (d *Def) render(k string, trecSpec bool) string {
	switch d.Family {
	case TFRanking:
		if k == "" || !d.Cutoff {
			if d.Key == "ndcg" && k == "" {
				return "ndcg_metric"
			}
			return d.Key
		}
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 {
			return ""
		}
		return d.Key + "@" + strconv.Itoa(n)
	case Convention:
		if k == "" {
			return "map:" + d.Key
		}
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 {
			return ""
		}
		return "map@" + strconv.Itoa(n) + ":" + d.Key
	case IRMeasures:
		return d.renderIR(k)
	case KerasRS, Torchmetrics:
		if k == "" || !d.Cutoff {
			return d.Key + ":" + d.profile.String()
		}
		if _, err := strconv.Atoi(k); err != nil {
			return ""
		}
		return d.Key + "@" + k + ":" + d.profile.String()
	}
	if d.Cutoff {
		switch {
		case k == "":
			k = "K"
		case d.trec.Params == treceval.Cutoffs:
			// trec_eval's cutoffs are positive integers.
			n, err := strconv.Atoi(k)
			if err != nil || n < 1 {
				return ""
			}
			k = strconv.Itoa(n)
		case !trecSpec:
			x, err := strconv.ParseFloat(k, 64)
			if err != nil {
				return ""
			}
			k = fmt.Sprintf("%3.2f", x)
		}
		if trecSpec {
			return d.Key + "." + k
		}
		return d.Key + "_" + k
	}
	if !d.trec.PerTopic && !trecSpec {
		return ""
	}
	return d.Key
}

// unknown returns the error of name s, which is not in the registry.
func (r *registry) unknown(s string) error {
	return fmt.Errorf("%w %q%s", ErrUnknown, strings.TrimSpace(s), SuggestText(s, false))
}

// SuggestText returns the suggestions of s as the end of an error message,
// on one line: "; did you mean ndcg@10 (TF-Ranking: ...) or ndcg_cut_10
// (trec_eval: ...)?", or a pointer to the list of names when none is near.
func SuggestText(s string, trecSpec bool) string {
	list := Suggest(s, trecSpec)
	if len(list) == 0 {
		return " (names are case-sensitive; `rankmetrics help measures` lists them all)"
	}
	var b strings.Builder
	b.WriteString(" (names are case-sensitive); did you mean ")
	for i, x := range list {
		switch {
		case i == 0:
		case i == len(list)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s: %s)", x.Name, x.Def.Family, x.Def.Doc)
	}
	b.WriteString("?")
	return b.String()
}

// renderIR writes the name of an ir_measures record with the cutoff k.
func (d *Def) renderIR(k string) string {
	x := d.ir
	switch {
	case !d.Cutoff || x.at == "recall" && k == "":
		if d.Key == "Rprec" {
			return "Rprec()"
		}
		if x.needAt {
			return d.Key + "@X"
		}
		return d.Key
	case k == "":
		if x.needAt {
			return d.Key + "@K"
		}
		return d.Key
	case x.at == "recall":
		f, err := strconv.ParseFloat(k, 64)
		if err != nil {
			return ""
		}
		return d.Key + "@" + pyFloat(f)
	}
	n, err := strconv.Atoi(k)
	if err != nil || n < 1 {
		return ""
	}
	return d.Key + "@" + strconv.Itoa(n)
}
