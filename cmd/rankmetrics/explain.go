package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

const explainUsage = `usage: rankmetrics explain [--topn K] [--metrics LIST] [--ties POLICY] [--ties-seed SEED] [--table]
                          [--labels ROWS --predictions ROWS] [--weights ROWS]

Computes one batch under each library profile (tf-ranking: TF-Ranking 0.5.5;
keras-rs: keras-rs 0.4.0; torchmetrics: torchmetrics 1.9.0) and prints the
overall values, then, per list, the value under each profile and the rules
that make them differ. Without --labels and --predictions it reads a JSON
object {"labels": rows, "predictions": rows, "weights": rows or null} from
stdin. Rows are JSON lists of numbers, one row per list; a label < 0 pads.

Every profile ranks ties by --ties (default stable, input order), so that
the values differ by definition alone: keras-rs shuffles tied items on
every call, whatever its shuffle_ties says (--ties random --ties-seed S draws
the shuffle of its metric made with seed=S), and torch orders them as its
sort kernels do; torchmetrics' NDCG averages the gains of tied items.

Flags:
`

// explainRules are the rules that make the profiles differ, in the order
// explain reports them.
const (
	ruleTies      = "tie order"
	ruleNorm      = "normalisation of AP"
	ruleGain      = "gain"
	ruleThreshold = "relevance threshold"
	ruleEmpty     = "list without relevant items"
	rulePast      = "cutoff past the list end"
	ruleWeights   = "list weights"
)

func runExplain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	topn := fs.Int("topn", -1, "the cutoff `K` of every metric; none for the whole list")
	metrics := fs.String("metrics", "map,ndcg,mrr,precision", "the metric keys, comma-separated: map, ndcg, dcg, mrr, precision, recall, hits, rprecision, fallout")
	ties := fs.String("ties", "stable", "the tie `policy` of every profile: stable, pessimistic, optimistic or random")
	seed := fs.Uint64("ties-seed", 0, "`SEED` of --ties random, as in eval and compare: keras-rs' metric made with seed=SEED draws the same shuffle")
	labelsArg := fs.String("labels", "", "the labels, JSON `ROWS`")
	predsArg := fs.String("predictions", "", "the scores, JSON `ROWS`")
	tableOnly := fs.Bool("table", false, "print the overall values only")
	emptyArg := fs.String("empty", "zero", "what torchmetrics scores a list without relevant items: zero (empty_target_action neg), one (pos), skip or error")
	weightsArg := fs.String("weights", "", "weights, JSON `ROWS`: one value a row weighs the list, as many as the labels weigh items")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), explainUsage)
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, stdout); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "explain: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	var in struct {
		Labels      [][]float64 `json:"labels"`
		Predictions [][]float64 `json:"predictions"`
		Weights     [][]float64 `json:"weights"`
	}
	if *labelsArg == "" && *predsArg == "" {
		dec := json.NewDecoder(stdin)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return fmt.Errorf("explain: reading the batch from stdin: %w", err)
		}
	} else {
		for _, a := range []struct {
			name, text string
			dst        *[][]float64
		}{{"labels", *labelsArg, &in.Labels}, {"predictions", *predsArg, &in.Predictions}, {"weights", *weightsArg, &in.Weights}} {
			if a.text == "" {
				continue
			}
			if err := json.Unmarshal([]byte(a.text), a.dst); err != nil {
				return fmt.Errorf("explain: --%s: %w", a.name, err)
			}
		}
	}
	policy, err := metric.ParseTiePolicy(*ties)
	if err != nil {
		return fmt.Errorf("explain: --ties: %w", err)
	}
	b, err := newExplainBatch(in.Labels, in.Predictions, in.Weights)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	b.seed = *seed
	if b.empty, err = metric.ParseEmptyPolicy(*emptyArg); err != nil {
		return fmt.Errorf("explain: --empty: %w", err)
	}
	var kinds []metric.Kind
	for _, s := range strings.Split(*metrics, ",") {
		// The registry reads the names, as compute's "metric" key: a
		// TF-Ranking key; the cutoff is --topn's.
		m, err := measure.ParseTFRanking(s)
		if err != nil {
			return fmt.Errorf("explain: --metrics: %w", err)
		}
		if m.TopN != metric.NoTopN {
			return fmt.Errorf("explain: --metrics: %q: give the cutoff with --topn", strings.TrimSpace(s))
		}
		kinds = append(kinds, m.Family.Kind)
	}
	return explain(stdout, b, kinds, *topn, policy, *tableOnly)
}

// explainBatch is the batch explain computes, in each form it needs.
type explainBatch struct {
	labels, preds [][]float64
	weights       [][]float64
	lab, pred     tensor.Lists
	w             tensor.Weights
	empty         metric.EmptyPolicy // torchmetrics' empty_target_action
	seed          uint64             // the seed of random ties
}

// newExplainBatch checks and converts the rows.
func newExplainBatch(labels, preds, weights [][]float64) (*explainBatch, error) {
	if len(labels) == 0 {
		return nil, fmt.Errorf("no lists: give --labels and --predictions, or a JSON object on stdin")
	}
	b := &explainBatch{labels: labels, preds: preds, weights: weights}
	var err error
	if b.lab, err = tensor.RaggedRows(labels); err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	if b.pred, err = tensor.RaggedRows(preds); err != nil {
		return nil, fmt.Errorf("predictions: %w", err)
	}
	if weights != nil {
		wl, err := tensor.RaggedRows(weights)
		if err != nil {
			return nil, fmt.Errorf("weights: %w", err)
		}
		if len(weights[0]) == 1 && len(labels[0]) != 1 {
			col := make([]float64, len(weights))
			for i, r := range weights {
				if len(r) != 1 {
					return nil, fmt.Errorf("weights: row %d has %d values; per-list weights have one a row", i, len(r))
				}
				col[i] = r[0]
			}
			b.w = tensor.PerList(col)
		} else {
			b.w = tensor.PerItem(wl)
		}
	}
	return b, nil
}

// explainValue is one metric of one profile on the batch: its per-list
// values and overall value, or why it has none.
type explainValue struct {
	per     metric.PerList
	overall float64
	err     error
}

// compute runs metric k of profile p on the batch.
func (b *explainBatch) compute(p metric.Profile, k metric.Kind, topn int, ties metric.TiePolicy) explainValue {
	cfg := metric.DefaultConfig(k)
	cfg.Profile, cfg.Ragged, cfg.Ties, cfg.Seed = p, true, ties, b.seed
	if p == metric.ProfileTorchmetrics {
		cfg.Empty = b.empty
	}
	if topn >= 0 && k.TakesTopN() {
		cfg.TopN = topn
	}
	m, err := metric.New(cfg)
	if err != nil {
		return explainValue{err: err}
	}
	var v explainValue
	if v.err = m.UpdatePerList(&v.per, b.lab, b.pred, b.w); v.err == nil {
		v.overall = m.Result()
	}
	return v
}

// f32 prints a float32 value in its shortest form.
func f32(x float64) string { return strconv.FormatFloat(x, 'g', -1, 32) }

// explain writes the report.
func explain(w io.Writer, b *explainBatch, kinds []metric.Kind, topn int, ties metric.TiePolicy, tableOnly bool) error {
	profiles := metric.Profiles()
	vals := make([][]explainValue, len(profiles))
	for i, p := range profiles {
		for _, k := range kinds {
			vals[i] = append(vals[i], b.compute(p, k, topn, ties))
		}
	}
	head := "| library |"
	sep := "|---|"
	for _, k := range kinds {
		head += " " + explainName(k, topn) + " |"
		sep += "---|"
	}
	fmt.Fprintf(w, "%s\n%s\n", head, sep)
	for i, p := range profiles {
		fmt.Fprintf(w, "| %s |", libraryLabel(p))
		for j, k := range kinds {
			v := vals[i][j]
			switch {
			case !profileHas(p, k):
				fmt.Fprint(w, " - |")
			case v.err != nil:
				fmt.Fprint(w, " error |")
			default:
				fmt.Fprintf(w, " %s |", f32(v.overall))
			}
		}
		fmt.Fprintln(w)
	}
	for i, p := range profiles {
		for j, k := range kinds {
			if profileHas(p, k) && vals[i][j].err != nil {
				fmt.Fprintf(w, "%s %s: %v\n", p, explainName(k, topn), vals[i][j].err)
			}
		}
	}
	if tableOnly {
		return nil
	}
	for l := range b.labels {
		fmt.Fprintf(w, "\nlist %d: labels %s, scores %s\n", l+1, rowText(b.labels[l]), rowText(b.preds[l]))
		for j, k := range kinds {
			fmt.Fprintf(w, "  %-14s", explainName(k, topn))
			for i, p := range profiles {
				v := vals[i][j]
				switch {
				case !profileHas(p, k):
					fmt.Fprintf(w, " %s -", p)
				case v.err != nil:
					fmt.Fprintf(w, " %s error", p)
				case v.per.Weights[l] == 0 && p == metric.ProfileTorchmetrics:
					fmt.Fprintf(w, " %s skipped", p)
				default:
					fmt.Fprintf(w, " %s %s", p, f32(v.per.Values[l]))
				}
			}
			fmt.Fprintln(w)
		}
		for _, r := range b.rules(l, kinds, topn) {
			fmt.Fprintf(w, "  - %s\n", r)
		}
	}
	return nil
}

// profileHas reports whether profile p has metric k.
func profileHas(p metric.Profile, k metric.Kind) bool { return p.LibraryName(k) != "" }

// libraryLabel names a profile's library and version.
func libraryLabel(p metric.Profile) string {
	switch p {
	case metric.ProfileKerasRS:
		return "keras-rs 0.4.0"
	case metric.ProfileTorchmetrics:
		return "torchmetrics 1.9.0"
	}
	return "TF-Ranking 0.5.5"
}

// explainName is "MAP@3", "NDCG@3", "P@3"...
func explainName(k metric.Kind, topn int) string {
	n := map[metric.Kind]string{metric.KindMAP: "MAP", metric.KindNDCG: "NDCG", metric.KindDCG: "DCG", metric.KindMRR: "MRR",
		metric.KindPrecision: "P", metric.KindRecall: "R", metric.KindHits: "Hits", metric.KindRPrecision: "R-prec",
		metric.KindFallOut: "FallOut"}[k]
	if n == "" {
		n = k.String()
	}
	if topn >= 0 && k.TakesTopN() {
		n += "@" + strconv.Itoa(topn)
	}
	return n
}

// rowText prints a row as numbers separated by spaces, in brackets.
func rowText(r []float64) string {
	parts := make([]string, len(r))
	for i, x := range r {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// rules returns the rules that make the profiles' values of list l differ,
// each with what it does here.
func (b *explainBatch) rules(l int, kinds []metric.Kind, topn int) []string {
	lab, sc := b.labels[l], b.preds[l]
	has := func(ks ...metric.Kind) bool {
		for _, k := range kinds {
			for _, x := range ks {
				if k == x {
					return true
				}
			}
		}
		return false
	}
	var valid []int
	rel := 0
	for i, x := range lab {
		if x >= 0 && b.itemWeight(l, i) > 0 {
			valid = append(valid, i)
			if x >= 1 {
				rel++
			}
		}
	}
	k := len(valid)
	if topn >= 0 && topn < k {
		k = topn
	}
	var out []string
	// Ties: equal scores among the valid items.
	seen := map[float64][]int{}
	for _, i := range valid {
		seen[sc[i]] = append(seen[sc[i]], i+1)
	}
	for _, i := range valid {
		if g := seen[sc[i]]; len(g) > 1 {
			out = append(out, fmt.Sprintf("%s: items %s tie at score %s; here every profile keeps them in input order (--ties), keras-rs itself shuffles them on every call whatever shuffle_ties says, torch orders them as its topk/argsort do, and torchmetrics' NDCG averages their gains over their positions",
				ruleTies, intsText(g), strconv.FormatFloat(sc[i], 'g', -1, 64)))
			break
		}
	}
	// Relevant items ranked past the cutoff change AP's denominator.
	if has(metric.KindMAP) && rel > 0 && topn >= 0 && topn < len(valid) {
		within := 0
		order := rankStable(valid, sc)
		for _, i := range order[:k] {
			if lab[i] >= 1 {
				within++
			}
		}
		if within > 0 && within < rel {
			out = append(out, fmt.Sprintf("%s: TF-Ranking and keras-rs divide the precisions by all %d relevant items, torchmetrics by the %d retrieved within %d",
				ruleNorm, rel, within, topn))
		}
	}
	graded := false
	for _, i := range valid {
		if lab[i] > 1 || lab[i] > 0 && lab[i] < 1 {
			graded = true
		}
	}
	if has(metric.KindNDCG, metric.KindDCG) && graded {
		out = append(out, fmt.Sprintf("%s: TF-Ranking and keras-rs gain 2^label-1, torchmetrics gains the label itself", ruleGain))
	}
	for _, i := range valid {
		if lab[i] > 0 && sc[i] <= 0 {
			out = append(out, fmt.Sprintf("%s: item %d is relevant but scored %s; torchmetrics' MAP, MRR, precision and recall count an item scored <= 0 as not relevant", ruleThreshold, i+1, strconv.FormatFloat(sc[i], 'g', -1, 64)))
			break
		}
	}
	if graded && has(metric.KindMAP, metric.KindMRR, metric.KindPrecision, metric.KindRecall, metric.KindHits) {
		out = append(out, fmt.Sprintf("%s: TF-Ranking and keras-rs count label >= 1 as relevant; torchmetrics' binary metrics take labels 0 or 1 only and refuse others", ruleThreshold))
	}
	if rel == 0 {
		out = append(out, fmt.Sprintf("%s: TF-Ranking and keras-rs score it 0 and weigh it by the batch's mean list weight; torchmetrics scores it 0 (empty_target_action neg, the default), 1 (pos) or leaves it out (skip)", ruleEmpty))
	}
	if has(metric.KindPrecision) && topn > len(valid) {
		out = append(out, fmt.Sprintf("%s: the list has %d items; TF-Ranking and keras-rs divide precision by %d, torchmetrics by %d (adaptive_k divides by %d)", rulePast, len(valid), len(valid), topn, len(valid)))
	}
	if b.weights != nil {
		out = append(out, fmt.Sprintf("%s: TF-Ranking and keras-rs weigh each list by its weights over its relevant items; torchmetrics takes no weights", ruleWeights))
	}
	if len(out) == 0 {
		out = append(out, "no rule applies: the profiles agree on this list")
	}
	return out
}

// itemWeight returns the weight of item i of list l, 1 without weights.
func (b *explainBatch) itemWeight(l, i int) float64 {
	if b.weights == nil {
		return 1
	}
	if r := b.weights[l]; len(r) == 1 && len(b.labels[l]) != 1 {
		return r[0]
	} else if i < len(r) {
		return r[i]
	}
	return math.NaN()
}

// rankStable orders items by descending score, ties in input order.
func rankStable(items []int, sc []float64) []int {
	out := append([]int(nil), items...)
	for a := 1; a < len(out); a++ {
		v := out[a]
		j := a - 1
		for j >= 0 && sc[out[j]] < sc[v] {
			out[j+1] = out[j]
			j--
		}
		out[j+1] = v
	}
	return out
}

// intsText prints 1, 2 and 3.
func intsText(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
