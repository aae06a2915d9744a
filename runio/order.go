package runio

import (
	"bytes"
	"fmt"
)

// unsortedMsg is the message for a qid that comes after prev in the
// input and before it in the order of CompareQID.
func unsortedMsg(prev []byte) string {
	return fmt.Sprintf("input is not sorted by qid: it comes after %q (sorted input streams in constant memory; --unsorted auto, the default, reads any order)", clip(prev))
}

// lateUnsortedMsg is the message of UnsortedAuto for a qid out of order
// after the first window rows (or lines) of an input read once, which were
// sorted and are streamed: the queries before it are evaluated already.
func lateUnsortedMsg(prev []byte, window int) string {
	return fmt.Sprintf("input is not sorted by qid: it comes after %q, and the first %d rows were sorted, so the input is streamed; rerun with --unsorted group to read it in any order, held in memory", clip(prev), window)
}

// lagUnsortedMsg is the message of UnsortedAuto for a qid that does not
// come after the queries already returned from a file read once (gzip,
// standard input), which streams window lines behind its reading.
func lagUnsortedMsg(sent []byte, window int) string {
	return fmt.Sprintf("input is not sorted by qid: it comes after %q, returned already (a file read once, compressed or standard input, is streamed once its first %d lines are sorted); rerun with --unsorted group to read it in any order, held in memory", clip(sent), window)
}

// duplicateMsg is the message for a second document (or judgment) of
// qid, first seen at line first.
func duplicateMsg(what, qid string, first int64) string {
	return fmt.Sprintf("duplicate %s for qid %q (first at line %d; --dedupe first or --dedupe max keeps one)", what, qid, first)
}

// swapHint returns the hint for a TREC line of n fields where the other
// file of the pair has other fields: the files may be given in the wrong
// order.
func swapHint(n, other int) string {
	if n != other {
		return ""
	}
	if other == 4 {
		return ": it looks like a qrels line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN"
	}
	return ": it looks like a run line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN"
}

// CompareQID orders query ids: two unsigned decimal integers compare by
// numeric value (so "9" < "10"), with leading zeros breaking a tie byte-wise;
// an integer sorts before any other id; other ids compare byte-wise. It
// returns -1, 0 or +1. This is the order in which sorted input is streamed.
func CompareQID(a, b string) int {
	return compareQID([]byte(a), []byte(b))
}

func compareQID(a, b []byte) int {
	da, db := isDigits(a), isDigits(b)
	switch {
	case da && db:
		ta, tb := trimZeros(a), trimZeros(b)
		if len(ta) != len(tb) {
			if len(ta) < len(tb) {
				return -1
			}
			return 1
		}
		if c := bytes.Compare(ta, tb); c != 0 {
			return c
		}
		return bytes.Compare(a, b)
	case da:
		return -1
	case db:
		return 1
	}
	return bytes.Compare(a, b)
}

func isDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c-'0' > 9 {
			return false
		}
	}
	return true
}

func trimZeros(b []byte) []byte {
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	return b
}
