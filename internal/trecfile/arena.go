package trecfile

import "unsafe"

// arenaChunk is the size of the blocks an Arena copies strings into.
const arenaChunk = 1 << 20

// Arena copies byte slices into large shared blocks and returns strings
// that point into them: one allocation per megabyte instead of one per
// document when a whole run is kept in memory.
type Arena struct {
	buf []byte
}

// String returns a string with the bytes of b.
func (a *Arena) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaChunk/4 {
		return string(b)
	}
	if cap(a.buf)-len(a.buf) < len(b) {
		a.buf = make([]byte, 0, arenaChunk)
	}
	off := len(a.buf)
	a.buf = append(a.buf, b...)
	return unsafe.String(&a.buf[off], len(b))
}

func unsafeBytes(s string) []byte {
	if s == "" {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// unsafeString views b as a string for a lookup or a parse that does not
// keep it.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
