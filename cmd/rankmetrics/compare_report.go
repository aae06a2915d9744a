package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/significance"
)

// testMark is the superscript letter of each test in the tables.
var testMark = map[string]string{"t": "t", "wilcoxon": "w", "randomization": "r", "bootstrap": "b", "tukey": "h"}

// unicodeSup writes the marks as Unicode superscript letters.
var unicodeSup = strings.NewReplacer("t", "ᵗ", "w", "ʷ", "r", "ʳ", "b", "ᵇ", "h", "ʰ")

// testResult is one test of one comparison.
type testResult struct {
	name      string
	statistic float64
	p, pAdj   float64
	exact     bool
	samples   int
	low, high float64 // bootstrap interval
}

// comparison is one pair of runs on one measure.
type comparison struct {
	measure   int
	base, run int
	sum       significance.Summary
	tests     []*testResult // in the order of compareOptions.tests
	unc       uncertainty
}

// compareReport is everything compare prints.
type compareReport struct {
	o       *compareOptions
	runs    []*runValues
	queries int
	base    int // index of the baseline; -1 with --all-pairs
	comps   []*comparison
	// means holds per run and measure the mean over the paired queries,
	// correctly rounded in the measure's dtype (meanIn).
	means [][]float64
}

// stream returns the Monte Carlo stream of the comparison of runs i and j
// on measure m (j = -1: Tukey over all runs), so that every comparison of a
// report draws its own samples and a comparison's p does not depend on the
// other runs.
func stream(m, i, j int) uint64 {
	return uint64(m)<<42 | uint64(i)<<21 | uint64(j)&(1<<21-1)
}

// compare runs the tests of o on the paired values[run][measure][query].
func (o *compareOptions) compare(ctx context.Context, runs []*runValues, qids []string, values [][][]float64) (*compareReport, error) {
	rep := &compareReport{o: o, runs: runs, queries: len(qids), means: make([][]float64, len(runs))}
	for i := range runs {
		for m, ms := range o.measures {
			rep.means[i] = append(rep.means[i], meanIn(values[i][m], ms.ValueDType(o.cfg.DType)))
		}
	}
	if o.allPairs {
		rep.base = -1
	} else if o.baseline != "" {
		if rep.base = o.findBaseline(runs); rep.base < 0 {
			names := make([]string, len(runs))
			for i, r := range runs {
				names[i] = textCell(r.name)
			}
			return nil, fmt.Errorf("--baseline %q: no such run (runs: %s)", o.baseline, strings.Join(names, ", "))
		}
	}
	var pairs [][2]int
	for i := range runs {
		for j := range runs {
			switch {
			case rep.base >= 0 && i == rep.base && j != i:
				pairs = append(pairs, [2]int{i, j})
			case rep.base < 0 && i < j:
				pairs = append(pairs, [2]int{i, j})
			}
		}
	}
	common := []significance.Option{significance.WithSamples(o.samples), significance.WithSeed(o.seed),
		significance.WithWorkers(o.workers), significance.WithAlpha(o.alpha)}
	for m := range o.measures {
		var tukeyP [][]float64
		if containsTest(o.tests, "tukey") {
			sys := make([][]float64, len(runs))
			for i := range runs {
				sys[i] = values[i][m]
			}
			var err error
			if _, tukeyP, err = significance.Tukey(ctx, sys, append(common, significance.WithStream(stream(m, 0, -1)))...); err != nil {
				return nil, fmt.Errorf("%s: tukey: %w", o.measures[m].Name, err)
			}
		}
		first := len(rep.comps)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The pairs are compared --workers at a time (each draws from a
		// stream of its own), their results taken in pair order.
		comps := make([]*comparison, len(pairs))
		errs := make([]error, len(pairs))
		sem := make(chan struct{}, o.workers)
		var wg sync.WaitGroup
		for k, pr := range pairs {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				comps[k], errs[k] = o.comparePair(ctx, values[pr[0]][m], values[pr[1]][m], append(slices.Clip(common), significance.WithStream(stream(m, pr[0], pr[1]))))
			})
		}
		wg.Wait()
		for k, pr := range pairs {
			c, err := comps[k], errs[k]
			if err != nil {
				return nil, fmt.Errorf("%s: %s vs %s: %w", o.measures[m].Name, runs[pr[1]].name, runs[pr[0]].name, err)
			}
			c.measure, c.base, c.run = m, pr[0], pr[1]
			for _, t := range c.tests {
				if t.name == "tukey" {
					t.statistic, t.p, t.exact, t.samples = c.sum.Diff, tukeyP[pr[0]][pr[1]], false, o.samples
				}
			}
			rep.comps = append(rep.comps, c)
		}
		// corrections over the comparisons of this measure, per test
		for k, name := range o.tests {
			group := rep.comps[first:]
			ps := make([]float64, len(group))
			for i, c := range group {
				ps[i] = c.tests[k].p
			}
			corr := o.correction
			if name == "tukey" {
				corr = significance.None // already family-wise
			}
			adj, err := corr.Adjust(ps)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", o.measures[m].Name, name, err)
			}
			for i, c := range group {
				c.tests[k].pAdj = adj[i]
			}
		}
	}
	return rep, nil
}

// findBaseline returns the index of the run --baseline names, or -1: the
// run of that name, else, when runs are files, the run of that path (the
// same once cleaned and made absolute), else the run of the same file
// (through any link).
func (o *compareOptions) findBaseline(runs []*runValues) int {
	for i, r := range runs {
		if r.name == o.baseline {
			return i
		}
	}
	if len(o.scoreCols) > 1 {
		return -1 // the runs are columns of one file
	}
	want, err := filepath.Abs(o.baseline)
	if err != nil {
		return -1
	}
	for i, r := range runs {
		if p, err := filepath.Abs(r.file); err == nil && p == want {
			return i
		}
	}
	st, err := os.Stat(o.baseline)
	if err != nil {
		return -1
	}
	for i, r := range runs {
		if rst, err := os.Stat(r.file); err == nil && os.SameFile(st, rst) {
			return i
		}
	}
	return -1
}

func containsTest(tests []string, t string) bool {
	for _, x := range tests {
		if x == t {
			return true
		}
	}
	return false
}

// comparePair summarises and tests run - baseline.
func (o *compareOptions) comparePair(ctx context.Context, base, run []float64, opts []significance.Option) (*comparison, error) {
	sum, err := significance.Summarize(base, run, o.alpha)
	if err != nil {
		return nil, err
	}
	d, err := significance.Differences(base, run)
	if err != nil {
		return nil, err
	}
	c := &comparison{sum: sum}
	if c.unc, err = o.uncertaintyOf(sum, d); err != nil {
		return nil, err
	}
	for _, name := range o.tests {
		tr := &testResult{name: name}
		var r significance.Result
		switch name {
		case "t":
			r, err = significance.PairedT(d)
		case "wilcoxon":
			r, err = significance.Wilcoxon(d)
		case "randomization":
			r, err = significance.Randomization(ctx, d, opts...)
		case "bootstrap":
			var b significance.BootstrapResult
			b, err = significance.Bootstrap(ctx, d, opts...)
			r, tr.low, tr.high = b.Result, b.Low, b.High
		case "tukey": // filled in by compare
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		tr.statistic, tr.p, tr.exact, tr.samples = r.Statistic, r.P, r.Exact, r.Samples
		c.tests = append(c.tests, tr)
	}
	return c, nil
}

// significant says whether a test rejects "no difference" at alpha after
// the correction (p_adjusted <= alpha).
func (r *compareReport) significant(t *testResult) bool { return t.pAdj <= r.o.alpha }

// marks returns the marks of the tests significant in c.
func (r *compareReport) marks(c *comparison) string {
	var b strings.Builder
	for _, t := range c.tests {
		if r.significant(t) {
			b.WriteString(testMark[t.name])
		}
	}
	return b.String()
}

func (r *compareReport) write(w io.Writer, format string) error {
	switch format {
	case "json":
		return r.writeJSON(w)
	case "tsv":
		return r.writeTSV(w)
	}
	return r.writeTables(w, format)
}

// num formats a statistic of a table with --digits decimals.
func (r *compareReport) num(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case r.o.digits < 0:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', r.o.digits, 64)
}

// signed formats a difference with its sign.
func (r *compareReport) signed(v float64) string {
	if v >= 0 && !math.IsInf(v, 0) {
		return "+" + r.num(v)
	}
	return r.num(v)
}

// mean formats the mean of run i on measure m over the paired queries.
func (r *compareReport) mean(i, m int) string {
	v := r.means[i][m]
	if math.IsInf(v, 0) {
		return r.num(v)
	}
	return formatValue(v, r.o.measures[m], r.o.cfg.DType, r.o.digits)
}

// pval formats a p-value of a table.
func pval(p float64) string {
	if p != 0 && p < 1e-4 {
		return strconv.FormatFloat(p, 'e', 1, 64)
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// header describes the settings in one line, with the names escaped by
// esc.
func (r *compareReport) header(esc func(string) string) string {
	o := r.o
	base := "all pairs"
	if r.base >= 0 {
		base = "baseline " + esc(r.runs[r.base].name)
	}
	return fmt.Sprintf("%d paired queries; %s; tests %s; correction %s; alpha %v; %d samples, seed %d",
		r.queries, base, strings.Join(o.tests, ", "), o.correction, o.alpha, o.samples, o.seed)
}

// legend explains the superscripts, with the names escaped by esc.
func (r *compareReport) legend(sup, esc func(string) string) string {
	parts := make([]string, len(r.o.tests))
	for i, t := range r.o.tests {
		parts[i] = sup(testMark[t]) + " " + t
	}
	corr := r.o.correction.String() + "-adjusted "
	if r.o.correction == significance.None {
		corr = ""
	}
	return fmt.Sprintf("%s: significant difference from %s (%sp <= %v)", strings.Join(parts, ", "), esc(r.runs[r.base].name), corr, r.o.alpha)
}

// cells returns the rows of the table of means: one per run (its name
// escaped by esc), one cell per measure, with the marks of the tests
// significant against the baseline.
func (r *compareReport) cells(sup, esc func(string) string) [][]string {
	rows := make([][]string, len(r.runs))
	for i, run := range r.runs {
		rows[i] = []string{esc(run.name)}
		for m := range r.o.measures {
			cell := r.mean(i, m)
			if r.base >= 0 {
				for _, c := range r.comps {
					if c.measure == m && c.run == i {
						if mk := r.marks(c); mk != "" {
							cell += sup(mk)
						}
					}
				}
			}
			rows[i] = append(rows[i], cell)
		}
	}
	return rows
}

// pairRows returns the header and rows of the table of comparisons, their
// text escaped by esc.
func (r *compareReport) pairRows(esc func(string) string) ([]string, [][]string) {
	head := []string{"measure", "baseline", "run", "diff", "effect", fmt.Sprintf("%g%% CI", 100*(1-r.o.alpha)), "W/T/L"}
	for _, t := range r.o.tests {
		head = append(head, t+" p", "p_adj")
	}
	for i, h := range head {
		head[i] = esc(h)
	}
	var rows [][]string
	for _, c := range r.comps {
		s := c.sum
		row := []string{esc(r.o.measures[c.measure].Name), esc(r.runs[c.base].name), esc(r.runs[c.run].name), r.signed(s.Diff),
			r.num(s.EffectSize), "[" + r.signed(s.CILow) + ", " + r.signed(s.CIHigh) + "]",
			fmt.Sprintf("%d/%d/%d", s.Wins, s.Ties, s.Losses)}
		for _, t := range c.tests {
			adj := pval(t.pAdj)
			if r.significant(t) {
				adj += "*"
			}
			row = append(row, pval(t.p), adj)
		}
		rows = append(rows, row)
	}
	return head, rows
}

// writeTables writes the table, markdown or latex format: every name goes
// through the format's escaping (textCell, markdownText, latexText), and
// only the marks the report adds are markup.
func (r *compareReport) writeTables(w io.Writer, format string) error {
	esc := textCell
	switch format {
	case "markdown":
		esc = markdownText
	case "latex":
		esc = latexText
	}
	measureHead := []string{esc("run")}
	for _, m := range r.o.measures {
		measureHead = append(measureHead, esc(m.Name))
	}
	pairHead, pairRows := r.pairRows(esc)
	powerHead, powerRows := r.powerRows(esc)
	switch format {
	case "markdown":
		sup := func(s string) string { return "<sup>" + s + "</sup>" }
		fmt.Fprintf(w, "%s\n\n", r.header(esc))
		writeMarkdown(w, measureHead, r.cells(sup, esc))
		if r.base >= 0 {
			fmt.Fprintf(w, "\n%s\n", r.legend(sup, esc))
		}
		fmt.Fprintln(w)
		writeMarkdown(w, pairHead, pairRows)
		fmt.Fprintln(w, "\n\\* significant at alpha after the correction")
		fmt.Fprintln(w)
		writeMarkdown(w, powerHead, powerRows)
		return nil
	case "latex":
		sup := func(s string) string { return "$^{" + s + "}$" }
		fmt.Fprintf(w, "%% %s\n", r.header(esc))
		writeLatex(w, measureHead, r.cells(sup, esc), "")
		if r.base >= 0 {
			fmt.Fprintf(w, "%% %s\n", r.legend(func(s string) string { return s }, esc))
		}
		fmt.Fprintln(w)
		writeLatex(w, pairHead, pairRows, "* significant at alpha after the correction")
		fmt.Fprintln(w)
		writeLatex(w, powerHead, powerRows, "")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, r.header(esc))
	fmt.Fprintln(tw)
	writeTabbed(tw, measureHead, r.cells(unicodeSup.Replace, esc))
	if r.base >= 0 {
		fmt.Fprintf(tw, "\n%s\n", r.legend(unicodeSup.Replace, esc))
	}
	fmt.Fprintln(tw)
	writeTabbed(tw, pairHead, pairRows)
	fmt.Fprintln(tw, "\n* significant at alpha after the correction")
	fmt.Fprintln(tw)
	writeTabbed(tw, powerHead, powerRows)
	return tw.Flush()
}

func writeTabbed(w io.Writer, head []string, rows [][]string) {
	fmt.Fprintln(w, strings.Join(head, "\t"))
	for _, row := range rows {
		fmt.Fprintln(w, strings.Join(row, "\t"))
	}
}

func writeMarkdown(w io.Writer, head []string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
	}
}

// writeLatex writes a tabular of cells already escaped (latexText) or
// markup.
func writeLatex(w io.Writer, head []string, rows [][]string, note string) {
	fmt.Fprintf(w, "\\begin{tabular}{l%s}\n\\hline\n", strings.Repeat("r", len(head)-1))
	fmt.Fprintf(w, "%s \\\\\n\\hline\n", strings.Join(head, " & "))
	for _, row := range rows {
		fmt.Fprintf(w, "%s \\\\\n", strings.Join(row, " & "))
	}
	fmt.Fprintln(w, "\\hline\n\\end{tabular}")
	if note != "" {
		fmt.Fprintf(w, "%% %s\n", note)
	}
}

// jnum is a JSON number that is null when not finite.
type jnum float64

// jval is a value of a measure, a JSON number in the shortest form that
// reads back to the same number in the measure's dtype, or null when not
// finite.
type jval struct {
	v float64
	d metric.DType
}

// MarshalJSON writes v in the shortest form of its dtype, or null.
func (v jval) MarshalJSON() ([]byte, error) {
	if math.IsNaN(v.v) || math.IsInf(v.v, 0) {
		return []byte("null"), nil
	}
	return []byte(evaluate.FormatValue(v.v, v.d)), nil
}

// MarshalJSON writes the shortest decimal that parses back to v, or null.
func (v jnum) MarshalJSON() ([]byte, error) {
	f := float64(v)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

type jsonTest struct {
	Statistic   jnum  `json:"statistic"`
	P           jnum  `json:"p"`
	PAdjusted   jnum  `json:"p_adjusted"`
	Significant bool  `json:"significant"`
	Exact       bool  `json:"exact"`
	Samples     int   `json:"samples,omitempty"`
	CILow       *jnum `json:"ci_low,omitempty"`
	CIHigh      *jnum `json:"ci_high,omitempty"`
}

type jsonComparison struct {
	Measure      string              `json:"measure"`
	Baseline     string              `json:"baseline"`
	Run          string              `json:"run"`
	Queries      int                 `json:"queries"`
	MeanBaseline jval                `json:"mean_baseline"`
	MeanRun      jval                `json:"mean_run"`
	Diff         jnum                `json:"diff"`
	EffectSize   jnum                `json:"effect_size"`
	CILow        jnum                `json:"ci_low"`
	CIHigh       jnum                `json:"ci_high"`
	Wins         int                 `json:"wins"`
	Ties         int                 `json:"ties"`
	Losses       int                 `json:"losses"`
	Tests        map[string]jsonTest `json:"tests"`
	jsonUncertainty
}

type jsonRun struct {
	Name    string          `json:"name"`
	File    string          `json:"file"`
	Queries int             `json:"queries"`
	Mean    map[string]jval `json:"mean"`
}

type jsonReport struct {
	Measures    []string         `json:"measures"`
	Runs        []jsonRun        `json:"runs"`
	Comparisons []jsonComparison `json:"comparisons"`
	Params      map[string]any   `json:"settings"`
}

func (r *compareReport) writeJSON(w io.Writer) error {
	o := r.o
	out := jsonReport{Params: map[string]any{
		"tests": o.tests, "correction": o.correction.String(), "alpha": o.alpha,
		"samples": o.samples, "seed": o.seed, "paired_queries": r.queries,
		"power": o.power, "min_diff": jnum(o.minDiff), "risk_alpha": o.riskAlpha,
	}}
	for _, m := range o.measures {
		out.Measures = append(out.Measures, m.Name)
	}
	for _, run := range r.runs {
		jr := jsonRun{Name: run.name, File: run.file, Queries: run.numQueries(), Mean: map[string]jval{}}
		for m, ms := range o.measures {
			jr.Mean[ms.Name] = jval{run.means[m], ms.ValueDType(o.cfg.DType)}
		}
		out.Runs = append(out.Runs, jr)
	}
	for _, c := range r.comps {
		s := c.sum
		d := o.measures[c.measure].ValueDType(o.cfg.DType)
		jc := jsonComparison{Measure: o.measures[c.measure].Name, Baseline: r.runs[c.base].name, Run: r.runs[c.run].name,
			Queries: s.N, MeanBaseline: jval{r.means[c.base][c.measure], d}, MeanRun: jval{r.means[c.run][c.measure], d}, Diff: jnum(s.Diff),
			EffectSize: jnum(s.EffectSize), CILow: jnum(s.CILow), CIHigh: jnum(s.CIHigh),
			Wins: s.Wins, Ties: s.Ties, Losses: s.Losses, Tests: map[string]jsonTest{}, jsonUncertainty: c.unc.json()}
		for _, t := range c.tests {
			jt := jsonTest{Statistic: jnum(t.statistic), P: jnum(t.p), PAdjusted: jnum(t.pAdj),
				Significant: r.significant(t), Exact: t.exact, Samples: t.samples}
			if t.name == "bootstrap" {
				lo, hi := jnum(t.low), jnum(t.high)
				jt.CILow, jt.CIHigh = &lo, &hi
			}
			jc.Tests[t.name] = jt
		}
		out.Comparisons = append(out.Comparisons, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

func (r *compareReport) writeTSV(w io.Writer) error {
	fmt.Fprintln(w, "measure\tbaseline\trun\tqueries\tmean_baseline\tmean_run\tdiff\teffect_size\tci_low\tci_high\twins\tties\tlosses\ttest\tstatistic\tp\tp_adjusted\tsignificant"+tsvUncertaintyHead)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, c := range r.comps {
		s := c.sum
		d := r.o.measures[c.measure].ValueDType(r.o.cfg.DType)
		for _, t := range c.tests {
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%v%s\n",
				textCell(r.o.measures[c.measure].Name), textCell(r.runs[c.base].name), textCell(r.runs[c.run].name), s.N,
				evaluate.FormatValue(r.means[c.base][c.measure], d), evaluate.FormatValue(r.means[c.run][c.measure], d), g(s.Diff), g(s.EffectSize), g(s.CILow), g(s.CIHigh),
				s.Wins, s.Ties, s.Losses, t.name, g(t.statistic), g(t.p), g(t.pAdj), r.significant(t), c.unc.tsv())
		}
	}
	return nil
}
