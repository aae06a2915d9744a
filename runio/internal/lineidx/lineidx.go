package lineidx

// Fields is how many field spans a record holds.
const Fields = 6

// Window is the size of the blocks that Index reads: a line it describes
// ends within the block that starts at or before its start, so it is at
// most Window-1 bytes long besides its "\n".
const Window = 64

// NUL is the field count of a line holding a NUL byte, with C's
// separators.
const NUL = 255

// Rec describes one line: byte 0 is its length (without its "\n"), byte 1
// its number of fields (at most Window/2, or NUL), and bytes 2+2k and
// 3+2k the start and end of field k (k < Fields) within the line; for
// k at or past the count both are Window; bytes 14 and 15 are unused.
// A field is a maximal run of bytes that are not separators.
type Rec = [16]byte

// Index describes the lines at the start of data in recs and returns how
// many it described. It reads data in blocks of [Window] bytes: the first
// at data's start, each next one at the start of the first line whose
// "\n" was not in the block before; it describes the lines whose "\n" is
// in a block, and stops at the end of recs, at a block without a "\n"
// (a line of Window bytes or more) and when fewer than Window bytes of data
// are left for a block. With cspace, the separators are C's isspace bytes
// ('\t', '\n', '\v', '\f', '\r' and ' ') and a line with a NUL byte gets
// the count [NUL]; otherwise every byte up to ' ' is one.
func Index(data []byte, recs []Rec, cspace bool) int {
	if !Fast {
		return indexGo(data, recs, cspace)
	}
	if cspace {
		return indexCAVX2(data, recs)
	}
	return indexStrictAVX2(data, recs)
}

// indexGo is Index byte by byte: the reference of the kernels and their
// stand-in where there are none.
func indexGo(data []byte, recs []Rec, cspace bool) int {
	pos, n := 0, 0
	for n < len(recs) && len(data)-pos >= Window {
		w := data[pos : pos+Window]
		s := 0
		for e, c := range w {
			if c != '\n' || n == len(recs) {
				continue
			}
			recs[n] = describe(w[s:e], cspace)
			n++
			s = e + 1
		}
		if s == 0 {
			break
		}
		pos += s
	}
	return n
}

// describe returns the record of line b.
func describe(b []byte, cspace bool) Rec {
	var r Rec
	r[0] = byte(len(b))
	var spans [Window + 1]int
	ns := 0
	nul := false
	in := false
	for i, c := range b {
		var sep bool
		if cspace {
			sep = c == ' ' || c >= 9 && c <= 13
			nul = nul || c == 0
		} else {
			sep = c <= ' '
		}
		if !sep != in {
			spans[ns] = i
			ns++
		}
		in = !sep
	}
	if in {
		spans[ns] = len(b)
		ns++
	}
	count := ns / 2
	if nul {
		count = NUL
	}
	r[1] = byte(count)
	for k := range Fields {
		st, en := Window, Window
		if 2*k < ns {
			st, en = spans[2*k], spans[2*k+1]
		}
		r[2+2*k], r[3+2*k] = byte(st), byte(en)
	}
	return r
}
