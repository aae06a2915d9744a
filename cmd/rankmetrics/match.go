package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/runio"
)

// oneSidedWarnShare is the share of one file's queries missing from the
// other file above which eval warns: most queries on one side only is
// most likely a mistake (qids written differently, the wrong file).
const oneSidedWarnShare = 0.5

// trecSides counts the queries of a TREC qrels and run pair: in both
// files, in the run and in the qrels.
type trecSides struct {
	both, run, qrels int64
}

func sidesOf(res *evaluate.Result) trecSides {
	st := res.Stats
	both := res.Read - st.RunOnlyQueries - st.QrelsOnlyQueries
	return trecSides{both: both, run: both + st.RunOnlyQueries, qrels: both + st.QrelsOnlyQueries}
}

// isTREC reports whether the input is a TREC qrels and run pair.
func (o *evalOptions) isTREC() bool {
	return len(o.paths) == 2 || o.read.Format == runio.FormatTREC
}

// checkMatch returns an error when there is nothing to evaluate: a TREC
// pair without a query in both files (trec_eval fails there too), or an
// input without any query. A number computed over no query would be a
// silent 0.
func (o *evalOptions) checkMatch(res *evaluate.Result) error {
	if !o.isTREC() {
		if res.Read == 0 {
			return fmt.Errorf("%s: no query to evaluate: the input has no data rows", o.paths[0])
		}
		return nil
	}
	return trecMatchError(o.paths[0], o.paths[1], res)
}

// trecMatchError returns the error of a TREC qrels and run pair without a
// query in both files, naming both and showing qids of each; nil when
// some query is in both. eval and compare (for each run) both call it.
func trecMatchError(qrels, run string, res *evaluate.Result) error {
	s := sidesOf(res)
	if s.both > 0 {
		return nil
	}
	hint := ""
	if s.run > 0 && s.qrels > 0 {
		hint = ` Qids must be equal strings in both files ("q1" is not "1").`
	}
	return fmt.Errorf("no query is in both QRELS and RUN, so there is nothing to evaluate: %s; %s.%s",
		side("QRELS", qrels, s.qrels, res.QrelsOnlyQIDs, "judgment"),
		side("RUN", run, s.run, res.RunOnlyQIDs, "line"), hint)
}

// side describes one file of a TREC pair for trecMatchError.
func side(role, path string, n int64, sample []string, unit string) string {
	if n == 0 {
		return fmt.Sprintf("%s (%s) has no %s", role, path, unit)
	}
	return fmt.Sprintf("%s (%s) has %d %s, e.g. %s", role, path, n, plural(n, "query", "queries"), quoteList(sample))
}

// oneSidedWarnings returns the warnings for a TREC pair where most queries
// of one file are missing from the other.
func (o *evalOptions) oneSidedWarnings(res *evaluate.Result) []string {
	if !o.isTREC() {
		return nil
	}
	return trecOneSidedWarnings(o.paths[0], o.paths[1], res, o.runOnly, o.qrelsOnly)
}

// trecOneSidedWarnings returns the warnings for a TREC qrels and run pair
// where most queries of one file are missing from the other: a run that
// covers a minority of the judged queries, or whose queries are mostly
// unjudged. eval and compare (for each run) both call it.
func trecOneSidedWarnings(qrels, run string, res *evaluate.Result, runOnly, qrelsOnly evaluate.Policy) []string {
	s := sidesOf(res)
	if s.both == 0 {
		return nil
	}
	var ws []string
	fate := func(p evaluate.Policy, flag, keepNote string) string {
		if p == evaluate.Skip {
			return fmt.Sprintf("they are skipped (%s keep counts them with value 0%s)", flag, keepNote)
		}
		return fmt.Sprintf("they count with value 0 (%s keep)", flag)
	}
	if ro := res.Stats.RunOnlyQueries; float64(ro) > oneSidedWarnShare*float64(s.run) {
		ws = append(ws, fmt.Sprintf("%d of the %d queries (%s) of RUN (%s) have no judgment in QRELS (%s), e.g. %s, while the queries in both look like %s; %s",
			ro, s.run, percent(ro, s.run), run, qrels, quoteList(res.RunOnlyQIDs), quoteList(res.BothQIDs), fate(runOnly, "--run-only", "")))
	}
	if qo := res.Stats.QrelsOnlyQueries; float64(qo) > oneSidedWarnShare*float64(s.qrels) {
		ws = append(ws, fmt.Sprintf("%d of the %d judged queries (%s) of QRELS (%s) are not in RUN (%s), e.g. %s, while the queries in both look like %s; %s",
			qo, s.qrels, percent(qo, s.qrels), qrels, run, quoteList(res.QrelsOnlyQIDs), quoteList(res.BothQIDs), fate(qrelsOnly, "--qrels-only", ", as trec_eval -c does")))
	}
	return ws
}

// percent formats n/of as a whole percentage.
func percent(n, of int64) string {
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 0, 64) + "%"
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// quoteList quotes the qids of a sample, comma-separated.
func quoteList(qids []string) string {
	q := make([]string, len(qids))
	for i, s := range qids {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
