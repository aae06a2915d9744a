package runio

import "bytes"

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
