package runio

import "bytes"

// nulError is the trec_eval modes' error for a line holding a NUL byte.
func (s *TRECScanner) nulError() error {
	return s.lineError("line", "NUL byte (trec_eval cannot read it)")
}

// splitCFields is splitFields with trec_eval's separators (cSpace) that
// also reports whether b holds a NUL byte, which trec_eval cannot read,
// anywhere, the bytes after the last field kept included: the field loop
// meets a NUL byte in its test for a separator (both are at most ' '), so
// a line is not searched a second time for one. With a NUL byte, the
// fields returned are incomplete.
func splitCFields(b []byte, out [][]byte, max int) ([][]byte, bool) {
	i := 0
	for ; i < len(b) && len(out) < max; i++ {
		if c := b[i]; c <= ' ' {
			if c == 0 {
				return out, true
			}
			if cSpace>>c&1 != 0 {
				continue
			}
		}
		j := i + 1
		for ; j < len(b); j++ {
			if c := b[j]; c <= ' ' {
				if c == 0 {
					return out, true
				}
				if cSpace>>c&1 != 0 {
					break
				}
			}
		}
		out = append(out, b[i:j])
		i = j
	}
	return out, i < len(b) && bytes.IndexByte(b[i:], 0) >= 0
}
