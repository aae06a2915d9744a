// Command gofloor is bench/workfloor/workfloor.c written in Go, statement
// for statement: the least work a reader of a sorted TREC qrels file and
// run must do for MAP, checking nothing. Beside the C program it shows
// what the language costs on the same algorithm, and beside rankmetrics
// eval what the checks, the line numbers, the error paths and the
// general query policy cost. It prints the same JSON line as workfloor.
//
//	go build -o gofloor ./bench/workfloor/gofloor
//	gofloor QRELS RUN [REPS]
package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

const bufSize = 1 << 20

// reader hands out the lines of a file read through a 1 MiB buffer.
type reader struct {
	f        *os.File
	buf      []byte
	pos, end int
	eof      bool
}

func (r *reader) open(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	if r.buf == nil {
		r.buf = make([]byte, bufSize)
	}
	r.f, r.pos, r.end, r.eof = f, 0, 0, false
	return nil
}

// next returns the next line without its '\n', or nil at the end.
func (r *reader) next() []byte {
	for {
		if i := bytes.IndexByte(r.buf[r.pos:r.end], '\n'); i >= 0 {
			b := r.buf[r.pos : r.pos+i]
			r.pos += i + 1
			return b
		}
		if r.eof {
			if r.pos < r.end {
				b := r.buf[r.pos:r.end]
				r.pos = r.end
				return b
			}
			return nil
		}
		rest := copy(r.buf, r.buf[r.pos:r.end])
		r.pos, r.end = 0, rest
		n, err := r.f.Read(r.buf[rest:])
		r.end += n
		if n == 0 || err == io.EOF {
			r.eof = true
		}
	}
}

// fields cuts b at bytes <= ' ' into at most len(f) fields.
func fields(b []byte, f *[6][]byte, max int) int {
	k, i := 0, 0
	for i < len(b) && k < max {
		for i < len(b) && b[i] <= ' ' {
			i++
		}
		if i == len(b) {
			break
		}
		j := i
		for j < len(b) && b[j] > ' ' {
			j++
		}
		f[k] = b[i:j]
		k++
		i = j
	}
	return k
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

func parseNum(b []byte) float64 {
	i, neg := 0, false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var m uint64
	exp := 0
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		m = m*10 + uint64(b[i]-'0')
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i]-'0' <= 9; i++ {
			m = m*10 + uint64(b[i]-'0')
			exp--
		}
	}
	v := float64(m)
	if exp < 0 {
		v /= pow10[-exp]
	}
	if neg {
		return -v
	}
	return v
}

// load8 reads the first min(len(b), 8) bytes of b as a little-endian
// word, zeros above.
func load8(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.LittleEndian.Uint64(b)
	}
	if len(b) >= 4 {
		x := uint64(binary.LittleEndian.Uint32(b))
		y := uint64(binary.LittleEndian.Uint32(b[len(b)-4:]))
		return x | y<<(8*(len(b)-4))
	}
	var w uint64
	for i, c := range b {
		w |= uint64(c) << (8 * i)
	}
	return w
}

func mix(h uint64) uint64 {
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>32
}

func hashLong(b []byte) uint64 {
	h := 0x243f6a8885a308d3 ^ uint64(len(b))
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		b = b[8:]
	}
	return mix(h ^ load8(b))
}

const slots = 1 << 12

type slot struct {
	key    uint64
	off, n uint32
	rel    float64
}

// table holds a query's judged docnos (ids of at most 8 bytes are their
// own keys; longer ones are compared in the arena).
type table struct {
	s     [slots]slot
	used  []uint16
	arena []byte
}

func (t *table) clear() {
	for _, i := range t.used {
		t.s[i].n = 0
	}
	t.used, t.arena = t.used[:0], t.arena[:0]
}

func keyOf(d []byte) uint64 {
	if len(d) <= 8 {
		return load8(d)
	}
	return hashLong(d)
}

func (t *table) same(s *slot, key uint64, d []byte) bool {
	return s.key == key && int(s.n) == len(d) && (len(d) <= 8 || bytes.Equal(t.arena[s.off:s.off+s.n], d))
}

func (t *table) put(d []byte, rel float64) {
	key := keyOf(d)
	for i := mix(key^uint64(len(d))) & (slots - 1); ; i = (i + 1) & (slots - 1) {
		s := &t.s[i]
		if s.n == 0 {
			if len(t.used) == slots/2 {
				fmt.Fprintln(os.Stderr, "gofloor: too many judgments in a query")
				os.Exit(1)
			}
			off := uint32(len(t.arena))
			if len(d) > 8 {
				t.arena = append(t.arena, d...)
			}
			*s = slot{key, off, uint32(len(d)), rel}
			t.used = append(t.used, uint16(i))
			return
		}
		if t.same(s, key, d) {
			return
		}
	}
}

func (t *table) get(d []byte) float64 {
	key := keyOf(d)
	for i := mix(key^uint64(len(d))) & (slots - 1); ; i = (i + 1) & (slots - 1) {
		s := &t.s[i]
		if s.n == 0 {
			return 0
		}
		if t.same(s, key, d) {
			return s.rel
		}
	}
}

type item struct {
	score float64
	rel   bool
	idx   int32
}

func before(x, y *item) bool {
	return x.score > y.score || x.score == y.score && x.idx < y.idx
}

// sortItems is workfloor.c's sort: a quicksort with the comparison
// inlined, insertion sort below 16 items.
func sortItems(it []item) {
	for len(it) > 16 {
		p := it[len(it)/2]
		i, j := 0, len(it)-1
		for i <= j {
			for before(&it[i], &p) {
				i++
			}
			for before(&p, &it[j]) {
				j--
			}
			if i <= j {
				it[i], it[j] = it[j], it[i]
				i++
				j--
			}
		}
		if j+1 < len(it)-i {
			sortItems(it[:j+1])
			it = it[i:]
		} else {
			sortItems(it[i:])
			it = it[:j+1]
		}
	}
	for i := 1; i < len(it); i++ {
		x := it[i]
		j := i
		for j > 0 && before(&x, &it[j-1]) {
			it[j] = it[j-1]
			j--
		}
		it[j] = x
	}
}

func sameQid(a, qid []byte) bool {
	if len(a) != len(qid) {
		return false
	}
	if len(a) <= 8 {
		return load8(a) == load8(qid)
	}
	return bytes.Equal(a, qid)
}

type state struct {
	q, r  reader
	t     table
	items []item
	qid   []byte
}

func (st *state) pass(qpath, rpath string) (float64, int, error) {
	if err := st.q.open(qpath); err != nil {
		return 0, 0, err
	}
	defer st.q.f.Close()
	if err := st.r.open(rpath); err != nil {
		return 0, 0, err
	}
	defer st.r.f.Close()
	var f [6][]byte
	sum, nq := 0.0, 0
	ql, rl := st.q.next(), st.r.next()
	for rl != nil {
		fields(rl, &f, 6)
		st.qid = append(st.qid[:0], f[0]...)
		st.t.clear()
		relevant := 0
		for ql != nil {
			fields(ql, &f, 4)
			if !sameQid(f[0], st.qid) {
				break
			}
			rel := parseNum(f[3])
			if rel > 0 {
				relevant++
			}
			st.t.put(f[2], rel)
			ql = st.q.next()
		}
		st.items = st.items[:0]
		for rl != nil {
			fields(rl, &f, 6)
			if !sameQid(f[0], st.qid) {
				break
			}
			st.items = append(st.items, item{parseNum(f[4]), st.t.get(f[2]) > 0, int32(len(st.items))})
			rl = st.r.next()
		}
		sortItems(st.items)
		ap, hits := 0.0, 0
		for i := range st.items {
			if st.items[i].rel {
				hits++
				ap += float64(hits) / float64(i+1)
			}
		}
		if relevant > 0 {
			sum += ap / float64(relevant)
		}
		nq++
	}
	if nq == 0 {
		return 0, 0, nil
	}
	return sum / float64(nq), nq, nil
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: gofloor QRELS RUN [REPS]")
		os.Exit(2)
	}
	reps := 5
	if len(os.Args) > 3 {
		n, err := strconv.Atoi(os.Args[3])
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "gofloor: REPS must be a positive number")
			os.Exit(2)
		}
		reps = n
	}
	st := &state{}
	best := time.Duration(1 << 62)
	var mapv float64
	var nq int
	for i := -1; i < reps; i++ { // one warm-up run
		start := time.Now()
		var err error
		mapv, nq, err = st.pass(os.Args[1], os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "gofloor:", err)
			os.Exit(1)
		}
		if d := time.Since(start); i >= 0 && d < best {
			best = d
		}
	}
	fmt.Printf("{\"peer\": \"floor-work-go\", \"queries\": %d, \"map\": %.6f, \"seconds\": %.4f}\n", nq, mapv, best.Seconds())
}
