package beam

import "github.com/rankmetrics/rankmetrics/runio"

// Dedupe says what to do with a repeated (qid, doc) pair: runio's policy,
// the --dedupe flag of `rankmetrics eval`, applied by runio.DedupeIndex.
// The one difference is where a DedupeError query goes: eval stops on it,
// the pipeline sends every row of the query to the dead letters, with the
// reason, and evaluates the other queries.
type Dedupe = runio.DedupePolicy

const (
	// DedupeError sends every row of a query with a repeated document to
	// the dead letters, with the reason: the query is not evaluated.
	DedupeError = runio.DedupeError
	// DedupeFirst keeps the first occurrence (in Pos order) and drops the
	// others, counting them.
	DedupeFirst = runio.DedupeFirst
	// DedupeMax keeps one item at the position of the first occurrence,
	// taking the fields of the occurrence with the largest score (run and
	// single-file rows) or label (qrels), the first one on a tie.
	DedupeMax = runio.DedupeMax
)

// ParseDedupe parses "error", "first" or "max".
func ParseDedupe(s string) (Dedupe, error) { return runio.ParseDedupePolicy(s) }
