package beam

import "fmt"

// Dedupe says what to do with a repeated (qid, doc) pair, as the --dedupe
// flag of `rankmetrics eval`.
type Dedupe int

const (
	// DedupeError sends every row of a query with a repeated document to
	// the dead letters, with the reason: the query is not evaluated.
	DedupeError Dedupe = iota
	// DedupeFirst keeps the first occurrence (in Pos order) and drops the
	// others, counting them.
	DedupeFirst
	// DedupeMax keeps one item at the position of the first occurrence,
	// taking the fields of the occurrence with the largest score (run and
	// single-file rows) or label (qrels), the first one on a tie.
	DedupeMax
)

// String returns "error", "first" or "max".
func (d Dedupe) String() string {
	switch d {
	case DedupeError:
		return "error"
	case DedupeFirst:
		return "first"
	case DedupeMax:
		return "max"
	}
	return fmt.Sprintf("Dedupe(%d)", int(d))
}

// ParseDedupe parses "error", "first" or "max".
func ParseDedupe(s string) (Dedupe, error) {
	switch s {
	case "error", "":
		return DedupeError, nil
	case "first":
		return DedupeFirst, nil
	case "max":
		return DedupeMax, nil
	}
	return DedupeError, fmt.Errorf("unknown dedupe policy %q (want error, first or max)", s)
}

func (d Dedupe) valid() error {
	if d < DedupeError || d > DedupeMax {
		return fmt.Errorf("unknown dedupe policy %d", int(d))
	}
	return nil
}
