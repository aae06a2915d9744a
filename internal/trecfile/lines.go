package trecfile

import (
	"fmt"
)

// FieldError is a malformed line: file, physical line number (from 1) and
// the field that is missing or wrong.
type FieldError struct {
	File  string
	Line  int64
	Field string
	Msg   string
}

// Error formats the error as FILE:LINE: field FIELD: MESSAGE.
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s:%d: field %s: %s", e.File, e.Line, e.Field, e.Msg)
}

// spaceTab marks the bytes C's isspace accepts in the C locale.
var spaceTab = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool { return spaceTab[c] }

// fields splits line (without its newline) into white-space separated
// fields as trec_eval does, appending at most max fields to dst.
func fields(dst [][]byte, line []byte, max int) [][]byte {
	i := 0
	for len(dst) < max {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i >= len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		dst = append(dst, line[i:j])
		i = j
	}
	return dst
}
