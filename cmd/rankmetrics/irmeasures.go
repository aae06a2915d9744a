package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// This file is `rankmetrics ir_measures QRELS RUN MEASURE...`: the
// command line of `python -m ir_measures` (ir_measures 0.4.3), printing
// the same bytes. The values come from the engine (evaluate.Plan over the
// input layer, runio), as in eval; this file only orders and prints them
// as ir_measures does: each provider yields its rows in its own order,
// then a judged query it yielded nothing for gets the measure's default,
// and the summary adds the values in the order they came.

// irmUsage is ir_measures' usage text, as its argument parser prints it.
const irmUsage = `usage: __main__.py [-h] [--places PLACES] [--by_query] [--no_summary]
                   [--output_format {tsv,jsonl}]
                   [--provider {accuracy,compat,cwl_eval,pyndeval,pytrec_eval,judged,gdeval,trectools,msmarco,ranx,runtime}]
                   qrels run measures [measures ...]
`

// irmHelp is what -h prints after the usage, as ir_measures prints it
// (README.md, "rankmetrics ir_measures", says what is not reproduced).
const irmHelp = `
positional arguments:
  qrels
  run
  measures

options:
  -h, --help            show this help message and exit
  --places PLACES, -p PLACES
  --by_query, -q
  --no_summary, -n
  --output_format {tsv,jsonl}, -o {tsv,jsonl}
  --provider {accuracy,compat,cwl_eval,pyndeval,pytrec_eval,judged,gdeval,trectools,msmarco,ranx,runtime}
`

// irmProviderChoices are the choices of --provider, in ir_measures' order.
var irmProviderChoices = []string{"accuracy", "compat", "cwl_eval", "pyndeval", "pytrec_eval", "judged", "gdeval", "trectools", "msmarco", "ranx", "runtime"}

// irmPipeline is the order in which ir_measures' default pipeline asks
// its providers: the measures of each come in this order.
var irmPipeline = []string{"runtime", "pytrec_eval", "cwl_eval", "compat", "pyndeval", "judged", "msmarco", "gdeval", "accuracy", "ranx"}

// irmKnown are the names ir_measures' registry holds (a name it knows but
// cannot parse is a syntax error, another an unknown measure).
var irmKnown = []string{"AP", "AP_IA", "Accuracy", "BPM", "BPref", "Bpref", "Compat", "ERR", "ERR_IA", "INSQ", "INST", "IPrec",
	"Judged", "MAP", "MAP_IA", "MRR", "NDCG", "NERR10", "NERR11", "NERR8", "NERR9", "NRBP", "NumQ", "NumRel", "NumRelRet", "NumRet",
	"P", "P_IA", "Precision", "R", "RBP", "RPrec", "RR", "Recall", "Rprec", "SDCG", "SetAP", "SetF", "SetP", "SetR", "SetRelP",
	"StRecall", "Success", "alpha_DCG", "alpha_nDCG", "infAP", "nDCG", "nERR_IA", "nNRBP", "α_DCG", "α_nDCG"}

// irmArgs is the command line of ir_measures.
type irmArgs struct {
	qrels, run string
	measures   []string
	places     int
	byQuery    bool
	noSummary  bool
	format     string
	provider   string
}

// irmExit is an exit status whose message has been printed.
type irmExit int

func (e irmExit) Error() string { return "exit status " + strconv.Itoa(int(e)) }

// runIRMeasures is the ir_measures command.
func runIRMeasures(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	a, err := parseIRMArgs(args, stdout, stderr)
	if err != nil || a == nil {
		return err
	}
	if _, err := os.Stat(a.qrels); err != nil {
		// ir_measures then looks the name up in ir_datasets, which is
		// not installed with it.
		fmt.Fprintf(stderr, "Skipping ir_datasets lookup. To use this feature, install ir_datasets.\n%s not found.\n", a.qrels)
		return irmExit(255)
	}
	ms, unsupported, invalid, err := irmMeasures(a, stderr)
	if err != nil {
		return err
	}
	if a.format == "jsonl" && a.places != 4 {
		fmt.Fprint(stderr, "--places is ignored when using --output jsonl\n")
	}
	if !a.byQuery && a.noSummary {
		fmt.Fprint(stderr, "AssertionError: --no_summary (-n) only supported with --by_query (-q)\n")
		return irmExit(1)
	}
	if invalid != nil {
		// ir_measures checks a measure's parameters when it asks its
		// providers, one measure after the other, before it finds the
		// unsupported ones.
		fmt.Fprintf(stderr, "AssertionError: invalid param %s=%s\n", invalid.Param, invalid.Value)
		return irmExit(1)
	}
	if len(unsupported) > 0 {
		fmt.Fprintf(stderr, "ValueError: Unsupported measures {%s}.\n", strings.Join(unsupported, ", "))
		return irmExit(1)
	}
	if a.format == "tsv" && a.places < -1 {
		fmt.Fprint(stderr, "ValueError: Format specifier missing precision\n")
		return irmExit(1)
	}
	qs, err := irmCompute(ctx, a, ms)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(stderr, "FileNotFoundError: [Errno 2] No such file or directory: %s\n", pyStrRepr(pe.Path))
		} else {
			fmt.Fprintf(stderr, "rankmetrics ir_measures: %v\n", err)
		}
		return irmExit(1)
	}
	rows := irmRows(a, ms, qs)
	w := bufio.NewWriter(stdout)
	out := func(qid string, m int, v float64, isInt bool) {
		irmWrite(w, a, qid, ms[m].IR.Repr, v, isInt)
	}
	if a.byQuery {
		for _, r := range rows {
			out(r.qid, r.m, r.v, false)
		}
	}
	if !a.noSummary {
		for m := range ms {
			v, isInt := irmSummary(ms[m], rows, m)
			out("all", m, v, isInt)
		}
	}
	return w.Flush()
}

// irmSummary returns measure m's summary, as its aggregator makes it from
// the rows in order: the sum (the counts) or the mean, NaN for the mean
// of none; isInt when it is the integer 0 of a sum of nothing.
func irmSummary(m evaluate.Measure, rows []irmRow, k int) (v float64, isInt bool) {
	sum, n := 0.0, 0
	for _, r := range rows {
		if r.m == k {
			sum += r.v
			n++
		}
	}
	if m.IR.Sum {
		return sum, n == 0
	}
	if n == 0 {
		return math.NaN(), false
	}
	return sum / float64(n), false
}

// irmWrite prints one result line in the format of a.
func irmWrite(w *bufio.Writer, a *irmArgs, qid, name string, v float64, isInt bool) {
	val := pyFloatRepr(v)
	if isInt {
		val = "0"
	}
	if a.format == "jsonl" {
		w.WriteString("{")
		if a.byQuery {
			w.WriteString(`"query_id": ` + pyJSONString(qid) + ", ")
		}
		if math.IsNaN(v) {
			val = "NaN"
		} else if math.IsInf(v, 0) {
			val = strings.Replace(strings.Replace(val, "inf", "Infinity", 1), "+", "", 1)
		}
		w.WriteString(`"measure": ` + pyJSONString(name) + `, "value": ` + val + "}\n")
		return
	}
	if a.places >= 0 {
		val = pyFormatFixed(v, a.places)
	}
	if a.byQuery {
		w.WriteString(qid + "\t")
	}
	w.WriteString(name + "\t" + val + "\n")
}

// parseIRMArgs reads the command line as ir_measures' argument parser
// does; nil without error after -h.
func parseIRMArgs(args []string, stdout, stderr io.Writer) (*irmArgs, error) {
	a := &irmArgs{places: 4, format: "tsv"}
	fail := func(msg string) (*irmArgs, error) {
		fmt.Fprint(stderr, irmUsage)
		fmt.Fprintf(stderr, "__main__.py: error: %s\n", msg)
		return nil, irmExit(2)
	}
	type opt struct {
		long, short string
		value       bool
	}
	opts := []opt{{"--help", "-h", false}, {"--places", "-p", true}, {"--by_query", "-q", false}, {"--no_summary", "-n", false},
		{"--output_format", "-o", true}, {"--provider", "", true}}
	var pos []string
	set := func(o opt, v string) (*irmArgs, error) {
		switch o.long {
		case "--places":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return fail(fmt.Sprintf("argument --places/-p: invalid int value: %s", pyStrRepr(v)))
			}
			a.places = n
		case "--output_format":
			if v != "tsv" && v != "jsonl" {
				return fail(fmt.Sprintf("argument --output_format/-o: invalid choice: %s (choose from 'tsv', 'jsonl')", pyStrRepr(v)))
			}
			a.format = v
		case "--provider":
			if !slices.Contains(irmProviderChoices, v) {
				var c []string
				for _, p := range irmProviderChoices {
					c = append(c, pyStrRepr(p))
				}
				return fail(fmt.Sprintf("argument --provider: invalid choice: %s (choose from %s)", pyStrRepr(v), strings.Join(c, ", ")))
			}
			a.provider = v
		}
		return a, nil
	}
	name := func(o opt) string {
		if o.short == "" {
			return o.long
		}
		return o.long + "/" + o.short
	}
	for i := 0; i < len(args); i++ {
		s := args[i]
		if s == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(s) < 2 || s[0] != '-' || isNegativeNumber(s) {
			pos = append(pos, s)
			continue
		}
		var o opt
		var val string
		hasVal := false
		if strings.HasPrefix(s, "--") {
			key, v, eq := strings.Cut(s, "=")
			var found []opt
			for _, x := range opts {
				if x.long == key {
					found = []opt{x}
					break
				}
				if strings.HasPrefix(x.long, key) {
					found = append(found, x)
				}
			}
			switch len(found) {
			case 0:
				return fail("unrecognized arguments: " + s)
			case 1:
			default:
				var names []string
				for _, x := range found {
					names = append(names, x.long)
				}
				return fail(fmt.Sprintf("ambiguous option: %s could match %s", key, strings.Join(names, ", ")))
			}
			o, val, hasVal = found[0], v, eq
		} else {
			// Short options, which may be joined: -qn, -p4.
			j := 1
			for ; j < len(s); j++ {
				idx := slices.IndexFunc(opts, func(x opt) bool { return x.short == "-"+s[j:j+1] })
				if idx < 0 {
					return fail("unrecognized arguments: " + s)
				}
				o = opts[idx]
				if o.value {
					if j+1 < len(s) {
						val, hasVal = s[j+1:], true
					}
					break
				}
				if o.long == "--help" {
					break
				}
				if j+1 < len(s) {
					if _, err := set(o, ""); err != nil {
						return nil, err
					}
					irmFlag(a, o.long)
				}
			}
		}
		switch {
		case o.long == "--help":
			fmt.Fprint(stdout, irmUsage+irmHelp)
			return nil, nil
		case o.value:
			if !hasVal {
				if i+1 >= len(args) || len(args[i+1]) > 1 && args[i+1][0] == '-' && !isNegativeNumber(args[i+1]) {
					return fail(fmt.Sprintf("argument %s: expected one argument", name(o)))
				}
				i++
				val = args[i]
			}
			if _, err := set(o, val); err != nil {
				return nil, err
			}
		default:
			if hasVal {
				return fail(fmt.Sprintf("argument %s: ignored explicit argument %s", name(o), pyStrRepr(val)))
			}
			irmFlag(a, o.long)
		}
	}
	var missing []string
	for k, n := range []string{"qrels", "run", "measures"} {
		if len(pos) <= k {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		return fail("the following arguments are required: " + strings.Join(missing, ", "))
	}
	a.qrels, a.run, a.measures = pos[0], pos[1], pos[2:]
	return a, nil
}

// irmFlag sets the boolean option long.
func irmFlag(a *irmArgs, long string) {
	switch long {
	case "--by_query":
		a.byQuery = true
	case "--no_summary":
		a.noSummary = true
	}
}

// isNegativeNumber reports whether s reads as a negative number, which
// Python's argument parser takes as a value, not an option.
func isNegativeNumber(s string) bool {
	if !strings.HasPrefix(s, "-") {
		return false
	}
	_, err := strconv.ParseFloat(s[1:], 64)
	return err == nil && s[1] >= '0' && s[1] <= '9' || len(s) > 2 && s[1] == '.' && s[2] >= '0' && s[2] <= '9'
}

// irmMeasures parses the measures as ir_measures does: each argument split
// at spaces, repeats (by ir_measures' name) left out, a provider's
// computation taken from --provider. unsupported lists the names that
// ir_measures reads but no provider computes, an error once it evaluates;
// invalid is the first name with a parameter ir_measures reads but its
// check of the parameter's type refuses (an int for a float: T=2), also an
// error once it evaluates.
func irmMeasures(a *irmArgs, stderr io.Writer) (ms []evaluate.Measure, unsupported []string, invalid *measure.ParamError, err error) {
	var errs []string
	for _, arg := range a.measures {
		for _, s := range strings.Fields(arg) {
			m, err := measure.ParseIRMeasures(s)
			var pe *measure.ParamError
			if errors.As(err, &pe) {
				if invalid == nil {
					invalid = pe
				}
				continue
			}
			if errors.Is(err, measure.ErrNoProvider) {
				if !slices.Contains(unsupported, s) {
					unsupported = append(unsupported, s)
				}
				continue
			}
			if err != nil || m.IR == nil {
				id := s
				if i := strings.IndexAny(s, "(@"); i >= 0 {
					id = s[:i]
				}
				if slices.Contains(irmKnown, id) {
					errs = append(errs, "syntax error: "+s)
				} else {
					errs = append(errs, "unknown measure: "+s)
				}
				continue
			}
			if !slices.ContainsFunc(ms, func(x evaluate.Measure) bool { return x.IR.Repr == m.IR.Repr }) {
				ms = append(ms, m)
			}
		}
	}
	if len(errs) > 0 {
		fmt.Fprint(stderr, strings.Join(append(append([]string{"error parsing measures"}, errs...), ""), "\n"))
		return nil, nil, nil, irmExit(255)
	}
	if a.provider != "" {
		for i, m := range ms {
			p, err := measure.WithProvider(m, a.provider)
			if err != nil {
				fmt.Fprintf(stderr, "ValueError: unsupported measure %s (%v)\n", m.IR.Repr, err)
				return nil, nil, nil, irmExit(1)
			}
			ms[i] = p
		}
	}
	return ms, unsupported, invalid, nil
}

// irmQuery is what the ordering of ir_measures' rows needs of a query,
// and its values.
type irmQuery struct {
	qid     string
	line    int64 // its first line in the run
	inRun   bool
	judged  bool    // the qrels judge it
	maxRel  float64 // its largest label
	values  []float64
	weights []float64
}

// irmCompute reads the pair through the input layer and computes every
// measure on every judged query with the engine.
func irmCompute(ctx context.Context, a *irmArgs, ms []evaluate.Measure) ([]irmQuery, error) {
	cfg := metric.DefaultConfig(metric.KindMAP)
	cfg.DType = metric.Float64
	cfg.Ties = metric.Stable
	cfg.Accumulation = metric.Exact
	sub, err := subtopicQrels(ctx, ms, true, a.qrels)
	if err != nil {
		return nil, err
	}
	plan, err := evaluate.NewPlan(ms, evaluate.PlanOptions{Config: cfg, SubtopicQrels: sub})
	if err != nil {
		return nil, err
	}
	// Every core reads, as eval's default --workers does.
	read := runio.Options{Format: runio.FormatTREC, KeepDocs: true, Unsorted: runio.UnsortedAuto, Workers: runtime.GOMAXPROCS(0)}
	if sub != nil {
		// Subtopic qrels judge a document once per subtopic.
		read.Dedupe = runio.DedupeFirst
	}
	// Nothing is written before the pair is read: it may stream as if
	// sorted and be read again, from a clean state, if it is not
	// (runio.Options.Restartable).
	read.Restartable = true
	var qs []irmQuery
	err = runio.Restarting(ctx, []string{a.qrels, a.run}, read, func(r runio.Reader) error {
		var err error
		qs, err = irmRead(ctx, r, plan, ms)
		return err
	})
	return qs, err
}

// irmRead computes every measure of ms on every judged query of r.
func irmRead(ctx context.Context, r runio.Reader, plan *evaluate.Plan, ms []evaluate.Measure) ([]irmQuery, error) {
	var (
		qs    []irmQuery
		q     runio.Query
		batch = plan.NewBatch()
		start int
	)
	flush := func() error {
		if batch.Len() == 0 {
			return nil
		}
		if err := batch.Compute(0); err != nil {
			return err
		}
		for i := range batch.Len() {
			x := &qs[start+i]
			x.values, x.weights = make([]float64, len(ms)), make([]float64, len(ms))
			for m := range ms {
				x.values[m], x.weights[m] = batch.Value(m, i), batch.Weight(m, i)
			}
		}
		start = len(qs)
		batch.Reset()
		return nil
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		err := r.Next(&q)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if q.Match == runio.MatchRunOnly {
			continue // ir_measures evaluates no query without judgments
		}
		x := irmQuery{qid: q.QID, line: q.Line, inRun: q.Match != runio.MatchQrelsOnly, maxRel: math.Inf(-1)}
		for i, l := range q.Labels {
			if len(q.Unjudged) == len(q.Labels) && q.Unjudged[i] {
				continue
			}
			x.judged, x.maxRel = true, max(x.maxRel, l)
		}
		for _, l := range q.UnrankedLabels {
			x.judged, x.maxRel = true, max(x.maxRel, l)
		}
		qs = append(qs, x)
		if err := batch.Add(&q); err != nil {
			return nil, err
		}
		if batch.Len() == 256 {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	return qs, flush()
}

// irmRow is one per-query result, in ir_measures' order.
type irmRow struct {
	qid string
	m   int
	v   float64
}

// irmRows returns the per-query results in the order ir_measures yields
// them: the providers in its pipeline's order (one provider under
// --provider), each yielding its rows in its own order, then, per
// provider, the default value of each measure for each judged query it
// gave none, sorted by measure name and qid; with several providers, the
// queries no provider gave a value for (Accuracy's) then get the default
// too.
func irmRows(a *irmArgs, ms []evaluate.Measure, qs []irmQuery) []irmRow {
	// The queries of the run in run order (ir_measures' dictionaries keep
	// the order of first appearance).
	byLine := make([]int, 0, len(qs))
	for i := range qs {
		if qs[i].inRun && qs[i].judged {
			byLine = append(byLine, i)
		}
	}
	slices.SortStableFunc(byLine, func(x, y int) int { return cmp.Compare(qs[x].line, qs[y].line) })
	groups := map[string][]int{}
	for m, x := range ms {
		groups[x.IR.Provider] = append(groups[x.IR.Provider], m)
	}
	var rows []irmRow
	yielded := make([]map[string]bool, len(ms))
	for m := range ms {
		yielded[m] = map[string]bool{}
	}
	emit := func(qi, m int) {
		rows = append(rows, irmRow{qs[qi].qid, m, qs[qi].values[m]})
		yielded[m][qs[qi].qid] = true
	}
	nGroups := 0
	for _, prov := range irmPipeline {
		g := groups[prov]
		if len(g) == 0 {
			continue
		}
		nGroups++
		switch prov {
		case "pytrec_eval":
			for _, inv := range pytrecInvocations(ms, g) {
				for _, qi := range byLine {
					for _, m := range inv {
						emit(qi, m)
					}
				}
			}
		case "judged":
			for _, qi := range byLine {
				for _, m := range g {
					emit(qi, m)
				}
			}
		case "msmarco":
			for _, m := range g {
				rel, _ := strconv.ParseFloat(ms[m].IR.Params["rel"], 64)
				for _, qi := range byLine {
					if qs[qi].maxRel >= rel {
						emit(qi, m)
					}
				}
			}
		case "gdeval":
			// One run of the script per cutoff; its topics in numeric
			// order, nDCG then ERR on each line.
			var cuts []string
			for _, m := range g {
				if c := ms[m].IR.Params["cutoff"]; !slices.Contains(cuts, c) {
					cuts = append(cuts, c)
				}
			}
			topics := slices.Clone(byLine)
			slices.SortStableFunc(topics, func(x, y int) int { return cmp.Compare(perlNum(qs[x].qid), perlNum(qs[y].qid)) })
			for _, c := range cuts {
				var pair []int
				for _, key := range []string{"nDCG", "ERR"} {
					for _, m := range g {
						if ms[m].IR.Key == key && ms[m].IR.Params["cutoff"] == c {
							pair = append(pair, m)
						}
					}
				}
				for _, qi := range topics {
					if qs[qi].maxRel > 0 {
						for _, m := range pair {
							emit(qi, m)
						}
					}
				}
			}
		case "cwl_eval", "pyndeval":
			// Query by query in run order; in each, one invocation of the
			// provider per setting of its gains (cwl_eval: rel, or
			// min_rel and max_rel; pyndeval: rel, alpha, beta), each
			// giving its measures. ir_measures hands a provider its
			// measures as a set, whose order changes from one process to
			// the next; this is the order they are written in.
			var invs [][]int
			keys := map[string]int{}
			for _, m := range g {
				p := ms[m].IR.Params
				k := p["rel"] + "," + p["min_rel"] + "," + p["max_rel"] + "," + p["alpha"] + "," + p["beta"]
				i, ok := keys[k]
				if !ok {
					i = len(invs)
					keys[k] = i
					invs = append(invs, nil)
				}
				invs[i] = append(invs[i], m)
			}
			for _, qi := range byLine {
				for _, inv := range invs {
					for _, m := range inv {
						emit(qi, m)
					}
				}
			}
		default: // compat, accuracy: measure by measure, in run order
			for _, m := range g {
				for _, qi := range byLine {
					if qs[qi].weights[m] != 0 {
						emit(qi, m)
					}
				}
			}
		}
		if prov != "accuracy" {
			rows = irmDefaults(rows, ms, g, qs, yielded)
		}
	}
	if nGroups > 1 {
		all := make([]int, len(ms))
		for m := range all {
			all[m] = m
		}
		rows = irmDefaults(rows, ms, all, qs, yielded)
	}
	return rows
}

// irmDefaults appends the default value, 0, of each measure of g for each
// judged query it has no row for, sorted by the measure's name, then qid.
func irmDefaults(rows []irmRow, ms []evaluate.Measure, g []int, qs []irmQuery, yielded []map[string]bool) []irmRow {
	var add []irmRow
	for _, m := range g {
		for i := range qs {
			if !yielded[m][qs[i].qid] {
				add = append(add, irmRow{qs[i].qid, m, 0})
				yielded[m][qs[i].qid] = true
			}
		}
	}
	slices.SortFunc(add, func(x, y irmRow) int {
		return cmp.Or(strings.Compare(ms[x.m].IR.Repr, ms[y.m].IR.Repr), strings.Compare(x.qid, y.qid))
	})
	return append(rows, add...)
}

// pytrecInvocations groups pytrec_eval's measures as ir_measures' provider
// does, one evaluation per relevance level and judged_only setting (and
// per SetF), nDCG, NumQ and NumRet joining the first; in each, the
// measures in trec_eval's order (by measure, then cutoff), as pytrec_eval
// reports them.
func pytrecInvocations(ms []evaluate.Measure, g []int) [][]int {
	type key struct {
		rel    string
		judged bool
		setf   int
	}
	var keys []key
	inv := map[key][]int{}
	setf := 0
	for _, m := range g {
		s := ms[m].IR
		k := key{s.Params["rel"], s.JudgedOnly, 0}
		switch s.Key {
		case "nDCG", "NumQ":
			if len(keys) > 0 {
				k = keys[0]
				if s.Key == "nDCG" {
					k.judged = s.JudgedOnly
				}
			} else {
				k = key{"1", s.JudgedOnly && s.Key == "nDCG", 0}
			}
		case "NumRet":
			if s.Params["rel"] == "" {
				if len(keys) > 0 {
					k = keys[0]
				} else {
					k = key{"1", false, 0}
				}
			}
		case "infAP", "Bpref", "NumRel", "SetR":
			k.judged = false
		case "SetF":
			k.setf = setf
			setf++
		}
		if _, ok := inv[k]; !ok {
			keys = append(keys, k)
		}
		inv[k] = append(inv[k], m)
	}
	order := map[string]int{}
	for i, d := range measure.Defs() {
		if d.Family == measure.TrecEval {
			if _, dup := order[d.Key]; !dup {
				order[d.Key] = i
			}
		}
	}
	rank := func(m int) (int, float64) {
		s := ms[m].TrecEval
		base, par, _ := strings.Cut(s, ".")
		if ms[m].IR.Key == "NumQ" {
			base = "num_q"
		}
		x, _ := strconv.ParseFloat(par, 64)
		return order[base], x
	}
	out := make([][]int, len(keys))
	for i, k := range keys {
		l := inv[k]
		slices.SortStableFunc(l, func(x, y int) int {
			bx, cx := rank(x)
			by, cy := rank(y)
			return cmp.Or(cmp.Compare(bx, by), cmp.Compare(cx, cy))
		})
		out[i] = l
	}
	return out
}

// perlNum is the number Perl reads from a topic id after gdeval strips
// it up to its last '-': its leading decimal number, 0 for none.
func perlNum(s string) float64 {
	if i := strings.LastIndexByte(s, '-'); i >= 0 {
		s = s[i+1:]
	}
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	x, _ := strconv.ParseFloat(s[:end], 64)
	return x
}

// pyFloatRepr writes v as Python's repr of a float: the shortest digits,
// in exponent form below 1e-4 and from 1e16, else with a decimal point.
func pyFloatRepr(v float64) string {
	if s, ok := pyNonFinite(v); ok {
		return s
	}
	if a := math.Abs(v); a != 0 && (a < 1e-4 || a >= 1e16) {
		s := strconv.FormatFloat(v, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[0]
		exp = strings.TrimLeft(exp[1:], "0")
		if len(exp) < 2 {
			exp = strings.Repeat("0", 2-len(exp)) + exp
		}
		return mant + "e" + string(sign) + exp
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// pyFormatFixed writes v as Python's format(v, '.Nf').
func pyFormatFixed(v float64, places int) string {
	if s, ok := pyNonFinite(v); ok {
		return s
	}
	return strconv.FormatFloat(v, 'f', places, 64)
}

// pyNonFinite writes a NaN or an infinity as Python does in repr and
// format; ok is false for a finite v.
func pyNonFinite(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}

// pyStrRepr writes s as Python's repr of a str (for the ASCII names and
// paths of messages): in single quotes, or double when s holds a single
// quote and no double one.
func pyStrRepr(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	var b strings.Builder
	b.WriteString(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case string(r) == q:
			b.WriteString(`\` + q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteString(q)
	return b.String()
}

// pyJSONString writes s as Python's json.dumps does (ensure_ascii).
func pyJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7f && r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
