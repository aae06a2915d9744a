package cases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// Rows is a batch of rows of numbers as a case writes them ("labels",
// "predictions" or "weights"): the values of all rows one after the other,
// and where each row starts.
//
// Decoding walks the JSON text of the rows twice, first to count the rows
// and numbers and then to parse them into slices of exactly that size, so
// that a case holds 8 bytes per number and 8 per row besides its line, and
// the rows become tensors without a copy. A number takes at least 2 bytes
// of the line ("0,") and a row 3 ("[],"), so the rows of a line of n bytes
// take at most 4n bytes.
type Rows struct {
	values []float64
	splits []int // len Len()+1; nil when null or absent
	// err is what is wrong with the rows; the decoder does not stop at it,
	// so that the error can name the update and key.
	err *rowsError
}

// rowsError is a row that is not a list of numbers, or an element of one
// that is not a number; row and index are -1 when they do not apply.
type rowsError struct {
	row, index int
	msg        string
}

// Len returns the number of rows; 0 when the rows are null or absent.
func (r *Rows) Len() int { return max(len(r.splits)-1, 0) }

// Row returns row b.
func (r *Rows) Row(b int) []float64 { return r.values[r.splits[b]:r.splits[b+1]] }

// IsNull reports whether the rows are null or absent.
func (r *Rows) IsNull() bool { return r.splits == nil && r.err == nil }

// check returns an error naming the rows by name (such as
// "updates[0].labels") when they hold something other than lists of
// numbers, or are null and not optional.
func (r *Rows) check(name string, optional bool) error {
	e := r.err
	switch {
	case e == nil && r.splits == nil && !optional:
		return fmt.Errorf("%s is null or missing; give rows of numbers, [] for no lists", name)
	case e == nil:
		return nil
	case e.row < 0:
		return fmt.Errorf("%s %s", name, e.msg)
	case e.index < 0:
		return fmt.Errorf("%s[%d] %s", name, e.row, e.msg)
	}
	return fmt.Errorf("%s[%d][%d] %s", name, e.row, e.index, e.msg)
}

// lists returns the rows as a tensor, without copying: ragged, or dense
// when every row has the length of the first.
func (r *Rows) lists(ragged bool) (tensor.Lists, error) {
	if ragged {
		return tensor.Ragged(r.values, r.splits)
	}
	rows, cols := r.Len(), 0
	if rows > 0 {
		cols = r.splits[1]
	}
	for b := 1; b < rows; b++ {
		if n := r.splits[b+1] - r.splits[b]; n != cols {
			return tensor.Lists{}, fmt.Errorf("row %d has %d values, row 0 has %d; set \"ragged\": true for lists of different lengths: %w",
				b, n, cols, tensor.ErrShape)
		}
	}
	return tensor.Dense(r.values, rows, cols)
}

// UnmarshalJSON reads rows of numbers, each a JSON number or one of the
// strings "NaN", "Infinity" and "-Infinity"; null is no rows. b is a valid
// JSON value, as encoding/json checks it before calling; anything else in
// it is recorded, not returned, so that the case's error can say where.
func (r *Rows) UnmarshalJSON(b []byte) error {
	*r = Rows{}
	rows, n, err := walkRows(b, nil, nil)
	if err != nil {
		r.err = err
		return nil
	}
	if rows < 0 {
		return nil // null
	}
	r.values = make([]float64, 0, n)
	r.splits = make([]int, 1, rows+1)
	_, _, err = walkRows(b, &r.values, &r.splits)
	if err != nil { // the first walk would have found it
		*r = Rows{err: err}
	}
	return nil
}

// errRowsNull says that a number is null.
var errRowsNull = "is null" + nullText

// walkRows walks the valid JSON value b, which must be null or a list of
// lists of numbers, and returns the number of rows (-1 for null) and of
// numbers. When values is not nil it appends the numbers to *values and
// the end of each row to *splits.
func walkRows(b []byte, values *[]float64, splits *[]int) (rows, n int, rerr *rowsError) {
	p := skipSpace(b, 0)
	switch {
	case p < len(b) && b[p] == 'n':
		return -1, 0, nil
	case p >= len(b) || b[p] != '[':
		return 0, 0, &rowsError{-1, -1, "is not a list of rows; give rows of numbers, [] for no lists"}
	}
	p = skipSpace(b, p+1)
	if b[p] == ']' {
		return 0, 0, nil
	}
	for ; ; rows++ {
		switch b[p] {
		case '[':
		case 'n':
			return rows, n, &rowsError{rows, -1, "is null; a row is a list of numbers, [] for an empty one"}
		default:
			return rows, n, &rowsError{rows, -1, "is not a list of numbers; a row is a list of numbers, [] for an empty one"}
		}
		p = skipSpace(b, p+1)
		for i := 0; b[p] != ']'; i++ {
			var x float64
			var msg string
			x, p, msg = scanNumber(b, p)
			if msg != "" {
				return rows, n, &rowsError{rows, i, msg}
			}
			if values != nil {
				*values = append(*values, x)
			}
			n++
			if p = skipSpace(b, p); b[p] == ',' {
				p = skipSpace(b, p+1)
			}
		}
		if splits != nil {
			*splits = append(*splits, len(*values))
		}
		if p = skipSpace(b, p+1); b[p] == ']' {
			return rows + 1, n, nil
		}
		p = skipSpace(b, p+1) // the comma between rows
	}
}

// skipSpace returns the position of the first byte of b from p on that is
// not JSON white space.
func skipSpace(b []byte, p int) int {
	for p < len(b) && (b[p] == ' ' || b[p] == '\t' || b[p] == '\n' || b[p] == '\r') {
		p++
	}
	return p
}

// scanNumber reads the number or string at b[p] and returns its value and
// the position after it, or a message saying why it is not a number.
func scanNumber(b []byte, p int) (x float64, next int, msg string) {
	switch c := b[p]; {
	case c == '-' || c >= '0' && c <= '9':
		end := p + 1
		for end < len(b) && isNumByte(b[end]) {
			end++
		}
		x, err := strconv.ParseFloat(string(b[p:end]), 64)
		if err != nil { // out of float64's range: encoding/json rejects it too
			return 0, end, fmt.Sprintf("is %s, beyond the range of a float64", clip(b[p:end]))
		}
		return x, end, ""
	case c == '"':
		end := p + 1
		for b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		end++
		x, ok := namedNumber(b[p:end])
		if !ok {
			return 0, end, fmt.Sprintf("is the string %s; write a number, or \"NaN\", \"Infinity\" or \"-Infinity\"", clip(b[p:end]))
		}
		return x, end, ""
	case c == 'n':
		return 0, p, errRowsNull
	}
	return 0, p, fmt.Sprintf("is %s, not a number; write a number, or \"NaN\", \"Infinity\" or \"-Infinity\"", kindOf(b[p]))
}

// isNumByte reports whether c can be part of a JSON number after its first
// byte.
func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}

// namedNumber returns the value of the JSON string s when it is one of the
// names of a number JSON cannot write.
func namedNumber(s []byte) (float64, bool) {
	switch {
	case len(s) > 64: // longer than any name, even with every letter escaped
		return 0, false
	case bytes.IndexByte(s, '\\') < 0:
		return namedValue(s[1 : len(s)-1])
	}
	var name string
	if err := json.Unmarshal(s, &name); err != nil {
		return 0, false
	}
	return namedValue([]byte(name))
}

// namedValue returns the number that name names.
func namedValue(name []byte) (float64, bool) {
	switch string(name) {
	case "NaN":
		return math.NaN(), true
	case "Infinity", "inf", "+Infinity":
		return math.Inf(1), true
	case "-Infinity", "-inf":
		return math.Inf(-1), true
	}
	return 0, false
}

// kindOf names the kind of JSON value that starts with c.
func kindOf(c byte) string {
	switch c {
	case 't', 'f':
		return "a boolean"
	case '[':
		return "a list"
	case '{':
		return "an object"
	}
	return "not a number"
}
