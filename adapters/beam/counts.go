package beam

import "fmt"

// Counts adds up what every stage read, used and rejected, so that nothing
// can go missing unseen. For any input these identities hold:
//
//	Records   = Rows + QrelsRows + ParseErrors
//	Rows      = Items + SkippedItems + DeadQueryItems + DuplicatesDropped
//	            + DeadGroupRows
//	QrelsRows = Items + SkippedItems + DeadQueryItems - UnjudgedItems
//	            + UnrankedJudged + QrelsDuplicatesDropped
//	            + DeadGroupQrelsRows                       (TREC input)
//	DeadLetters = ParseErrors + FileErrors + DeadGroupRows
//	            + DeadGroupQrelsRows + DeadQueries
//
// (for single-file formats QrelsRows and the TREC counters are 0).
type Counts struct {
	// Records counts the input records: non-blank lines that are not a
	// header (text), or rows (Parquet).
	Records int64 `json:"records"`
	// BlankLines and HeaderLines count the text lines skipped.
	BlankLines  int64 `json:"blank_lines"`
	HeaderLines int64 `json:"header_lines"`
	// Rows counts the records parsed into a Row (run lines for TREC).
	Rows int64 `json:"rows"`
	// QrelsRows counts the qrels lines parsed into a Judgment.
	QrelsRows int64 `json:"qrels_rows"`
	// ParseErrors counts the records sent to the dead letters by a reader.
	ParseErrors int64 `json:"parse_errors"`
	// FileErrors counts files that could not be read at all or to the end
	// (no header, a header without a needed column, a corrupt or too
	// large Parquet file); their records are dead letters too, counted in
	// ParseErrors, or, for rows read before a Parquet file failed, in
	// DeadGroupRows with their queries.
	FileErrors int64 `json:"file_errors"`

	// DuplicatesDropped and QrelsDuplicatesDropped count rows dropped by
	// DedupeFirst or DedupeMax.
	DuplicatesDropped      int64 `json:"duplicates_dropped"`
	QrelsDuplicatesDropped int64 `json:"qrels_duplicates_dropped"`
	// DeadGroupRows and DeadGroupQrelsRows count the rows of queries that
	// could not be built, each sent to the dead letters.
	DeadGroupRows      int64 `json:"dead_group_rows"`
	DeadGroupQrelsRows int64 `json:"dead_group_qrels_rows"`
	// RunOnlyQueries and QrelsOnlyQueries count TREC queries found in one
	// file only (see MatchRunOnly, MatchQrelsOnly), evaluated or skipped.
	RunOnlyQueries   int64 `json:"run_only_queries"`
	QrelsOnlyQueries int64 `json:"qrels_only_queries"`
	// UnjudgedItems counts ranked TREC items without a judgment (label 0).
	UnjudgedItems int64 `json:"unjudged_items"`
	// UnrankedJudged counts judged documents absent from the run, and
	// UnrankedRelevant those of them that are relevant.
	UnrankedJudged   int64 `json:"unranked_judged"`
	UnrankedRelevant int64 `json:"unranked_relevant"`

	// Queries and Items count the queries evaluated and their ranked
	// items.
	Queries int64 `json:"queries"`
	Items   int64 `json:"items"`
	// SkippedQueries counts the run-only and qrels-only TREC queries left
	// out (as trec_eval does, unless kept by EvalOptions), and SkippedItems
	// their ranked items.
	SkippedQueries int64 `json:"skipped_queries"`
	SkippedItems   int64 `json:"skipped_items"`
	// DeadQueries counts queries the metric refused, and DeadQueryItems
	// their ranked items.
	DeadQueries    int64 `json:"dead_queries"`
	DeadQueryItems int64 `json:"dead_query_items"`

	// DeadLetters counts the DeadLetter values emitted.
	DeadLetters int64 `json:"dead_letters"`
}

// Add returns the field-by-field sum of c and o.
func (c Counts) Add(o Counts) Counts {
	c.Records += o.Records
	c.BlankLines += o.BlankLines
	c.HeaderLines += o.HeaderLines
	c.Rows += o.Rows
	c.QrelsRows += o.QrelsRows
	c.ParseErrors += o.ParseErrors
	c.FileErrors += o.FileErrors
	c.DuplicatesDropped += o.DuplicatesDropped
	c.QrelsDuplicatesDropped += o.QrelsDuplicatesDropped
	c.DeadGroupRows += o.DeadGroupRows
	c.DeadGroupQrelsRows += o.DeadGroupQrelsRows
	c.RunOnlyQueries += o.RunOnlyQueries
	c.QrelsOnlyQueries += o.QrelsOnlyQueries
	c.UnjudgedItems += o.UnjudgedItems
	c.UnrankedJudged += o.UnrankedJudged
	c.UnrankedRelevant += o.UnrankedRelevant
	c.Queries += o.Queries
	c.Items += o.Items
	c.SkippedQueries += o.SkippedQueries
	c.SkippedItems += o.SkippedItems
	c.DeadQueries += o.DeadQueries
	c.DeadQueryItems += o.DeadQueryItems
	c.DeadLetters += o.DeadLetters
	return c
}

// Check returns an error naming the first identity of the Counts doc that
// does not hold; trec says the input was TREC, for which the QrelsRows
// identity is checked too.
func (c Counts) Check(trec bool) error {
	type identity struct {
		name        string
		left, right int64
	}
	ids := []identity{
		{"Records = Rows + QrelsRows + ParseErrors", c.Records, c.Rows + c.QrelsRows + c.ParseErrors},
		{"Rows = Items + SkippedItems + DeadQueryItems + DuplicatesDropped + DeadGroupRows", c.Rows,
			c.Items + c.SkippedItems + c.DeadQueryItems + c.DuplicatesDropped + c.DeadGroupRows},
		{"DeadLetters = ParseErrors + FileErrors + DeadGroupRows + DeadGroupQrelsRows + DeadQueries", c.DeadLetters,
			c.ParseErrors + c.FileErrors + c.DeadGroupRows + c.DeadGroupQrelsRows + c.DeadQueries},
	}
	if trec {
		ids = append(ids, identity{"QrelsRows = Items + SkippedItems + DeadQueryItems - UnjudgedItems + UnrankedJudged + QrelsDuplicatesDropped + DeadGroupQrelsRows",
			c.QrelsRows, c.Items + c.SkippedItems + c.DeadQueryItems - c.UnjudgedItems + c.UnrankedJudged + c.QrelsDuplicatesDropped + c.DeadGroupQrelsRows})
	}
	for _, id := range ids {
		if id.left != id.right {
			return fmt.Errorf("counts do not add up: %s: %d != %d", id.name, id.left, id.right)
		}
	}
	return nil
}
