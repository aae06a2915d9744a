package runio

import (
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go/format"
)

// This file exports the pieces of the readers that other front ends (the
// Beam readers) reuse, so that a field is parsed, checked and explained
// the same way everywhere.

// Flag names of the limits, for the errors that say how to raise them.
const (
	FlagMaxLineBytes  = "--max-line-bytes"
	FlagMaxInputBytes = "--max-input-bytes"
)

// LineTooLong says that a line is longer than max bytes and names the flag
// that raises the limit.
func LineTooLong(max int) string {
	return fmt.Sprintf("line longer than %d bytes (%s raises the limit)", max, FlagMaxLineBytes)
}

// InputTooLarge says that an input read whole is larger than limit bytes
// once decompressed, and names the flag that raises the limit.
func InputTooLarge(limit int64) string {
	return fmt.Sprintf("decompressed input larger than %d bytes, the limit for inputs read whole (%s raises it)", limit, FlagMaxInputBytes)
}

// Messages of rejected field values.
const (
	// msgInfLabel rejects a label of ±Inf (written as inf, Infinity or a
	// number beyond float64's range such as 1e400): no measure gives it a
	// meaning, and it would turn sums into NaN.
	msgInfLabel = "infinite label (labels must be finite; NaN masks an item)"
	msgInfRel   = "infinite relevance (judgments must be finite)"
)

// ParseNumber parses a numeric field as the readers do: as
// strconv.ParseFloat(string(b), 64), a value beyond float64's range giving
// its ±Inf or 0 rounding; ok is false when b is not a number.
func ParseNumber(b []byte) (v float64, ok bool) { return parseFloat(b) }

// ParseLabel parses a label field (of TSV, CSV, JSON Lines or Parquet
// input): msg is "" or why the value is rejected, as the readers say it
// after `field F: value "V": `. NaN is a label (it masks the item); ±Inf
// is rejected.
func ParseLabel(b []byte) (v float64, msg string) { return parseField(b, "", msgInfLabel) }

// ParseRel parses the relevance field of a TREC qrels line: msg is "" or
// why the value is rejected (NaN and ±Inf are).
func ParseRel(b []byte) (v float64, msg string) { return parseField(b, "not a number", msgInfRel) }

// ParseScore parses a score field: msg is "" or why the value is rejected
// (NaN is; ±Inf ranks first or last).
func ParseScore(b []byte) (v float64, msg string) { return parseField(b, "NaN score", "") }

// parseField parses a number, rejecting NaN with nanMsg and ±Inf with
// infMsg when they are not empty (parseShort gives neither).
func parseField(b []byte, nanMsg, infMsg string) (float64, string) {
	if v, ok := parseShort(b); ok {
		return v, ""
	}
	v, ok := parseFloatLong(b)
	switch {
	case !ok:
		return 0, "not a number"
	case nanMsg != "" && math.IsNaN(v):
		return 0, nanMsg
	case infMsg != "" && math.IsInf(v, 0):
		return 0, infMsg
	}
	return v, ""
}

// CheckLabel returns why a label value read from a typed column (Parquet)
// is rejected, or "".
func CheckLabel(v float64) string {
	if math.IsInf(v, 0) {
		return msgInfLabel
	}
	return ""
}

// CheckParquet checks a Parquet file of size bytes before parquet-go opens
// it: its magic bytes and footer length (parquet-go allocates the footer
// length as read).
func CheckParquet(r io.ReaderAt, size int64, name string) error {
	return checkParquetFooter(r, size, name)
}

// CheckParquetPages checks the page headers of the given columns (leaf
// column indexes) of every row group against the file of size bytes,
// before parquet-go reads them: see checkPages. md is the opened file's
// metadata (parquet.File.Metadata).
func CheckParquetPages(r io.ReaderAt, size int64, name string, md *format.FileMetaData, columns []int) error {
	return checkPages(r, size, name, md, columns)
}
