// Command asm generates the AVX2 kernels of package vec with avo:
//
//	go run ./metric/internal/vec/asm -out metric/internal/vec/vec_amd64.s -stubs metric/internal/vec/stub_amd64.go -pkg vec
//
// (go generate ./metric/internal/vec runs that.) The kernels reproduce the
// Go references of vec_generic.go bit for bit: the same additions in the same
// order, with float32 subnormals flushed to zeros of their sign before and
// after every addition, as TF's kernels run (DAZ/FTZ), without touching MXCSR.
package main

//lint:file-ignore ST1001 avo's instruction set reads as assembly only dot-imported.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	packets32()
	countLE()
	pack32()
	countScores()
	terms32()
	countAbove96()
	pack64()
	countScores64()
	Generate()
}

// broadcast32 returns a YMM register holding c in each 32-bit lane.
func broadcast32(c uint32) reg.VecVirtual {
	g := GP32()
	MOVL(U32(c), g)
	x := XMM()
	VMOVD(g, x)
	y := YMM()
	VPBROADCASTD(x, y)
	return y
}

// ftz flushes the subnormal lanes of y to zeros of their sign: a lane whose
// exponent bits are all zero keeps only its sign bit.
func ftz(y, exp, abs, zero reg.VecVirtual) {
	t := YMM()
	VPAND(y, exp, t)
	VPCMPEQD(zero, t, t)
	VPAND(abs, t, t)
	VPANDN(y, t, y)
}

func packets32() {
	TEXT("packets32AVX2", NOSPLIT, "func(xs []float32, acc *[8]float32)")
	Pragma("noescape")
	Doc(
		"packets32AVX2 is packets32Go on AVX2: it adds the whole 8-float packets of",
		"xs into the eight lanes of acc in Eigen's order, with DAZ/FTZ.",
	)
	ptr := Load(Param("xs").Base(), GP64())
	n := Load(Param("xs").Len(), GP64())
	out := Load(Param("acc"), GP64())

	exp := broadcast32(0x7f800000)
	abs := broadcast32(0x7fffffff)
	zero := YMM()
	VPXOR(zero, zero, zero)

	n32, n8 := GP64(), GP64()
	MOVQ(n, n32)
	ANDQ(I32(-32), n32)
	MOVQ(n, n8)
	ANDQ(I32(-8), n8)
	i := GP64()
	XORQ(i, i)

	a := []reg.VecVirtual{YMM(), YMM(), YMM(), YMM()}
	for _, r := range a {
		VXORPS(r, r, r)
	}
	CMPQ(n32, Imm(0))
	JE(LabelRef("packets"))

	Comment("Four accumulators take four packets at a time.")
	Label("quad")
	for q, r := range a {
		x := YMM()
		VMOVUPS(Mem{Base: ptr, Index: i, Scale: 4, Disp: 32 * q}, x)
		ftz(x, exp, abs, zero)
		VADDPS(x, r, r)
		ftz(r, exp, abs, zero)
	}
	ADDQ(Imm(32), i)
	CMPQ(i, n32)
	JB(LabelRef("quad"))

	Comment("Combine them lane by lane as ((a0 + a1) + a2) + a3.")
	for _, r := range a[1:] {
		VADDPS(r, a[0], a[0])
		ftz(a[0], exp, abs, zero)
	}

	Comment("The remaining whole packets go into a0.")
	Label("packets")
	CMPQ(i, n8)
	JAE(LabelRef("done"))
	x := YMM()
	VMOVUPS(Mem{Base: ptr, Index: i, Scale: 4}, x)
	ftz(x, exp, abs, zero)
	VADDPS(x, a[0], a[0])
	ftz(a[0], exp, abs, zero)
	ADDQ(Imm(8), i)
	JMP(LabelRef("packets"))

	Label("done")
	VMOVUPS(a[0], Mem{Base: out})
	VZEROUPPER()
	RET()
}

func countLE() {
	TEXT("countLEAVX2", NOSPLIT, "func(xs, pivots []uint64, counts []int)")
	Pragma("noescape")
	Doc(
		"countLEAVX2 is countLEGo on AVX2: it sets counts[j] to the number of",
		"elements of xs that are <= pivots[j], unsigned; len(counts) >= len(pivots).",
	)
	xp := Load(Param("xs").Base(), GP64())
	n := Load(Param("xs").Len(), GP64())
	pp := Load(Param("pivots").Base(), GP64())
	np := Load(Param("pivots").Len(), GP64())
	cp := Load(Param("counts").Base(), GP64())

	Comment("Unsigned order is signed order with the sign bits flipped.")
	g := GP64()
	MOVQ(U64(1<<63), g)
	sx := XMM()
	VMOVQ(g, sx)
	sign := YMM()
	VPBROADCASTQ(sx, sign)

	Comment("Lane numbers, for the mask of the last len(xs) % 4 elements.")
	lanes := GLOBL("lelanes", RODATA|NOPTR)
	for j := range 4 {
		DATA(8*j, U64(uint64(j)))
	}
	n4 := GP64()
	MOVQ(n, n4)
	ANDQ(I32(-4), n4)
	Comment("tail masks the lanes of the last len(xs) % 4 elements; the others load")
	Comment("as zeros, which flipped are below every pivot: no lane counts them.")
	tail := YMM()
	{
		r, rx := GP64(), XMM()
		MOVQ(n, r)
		SUBQ(n4, r)
		VMOVQ(r, rx)
		VPBROADCASTQ(rx, tail)
		VPCMPGTQ(lanes, tail, tail)
	}

	j := GP64()
	XORQ(j, j)

	// block counts pivots j..j+w-1 and advances j by w; it is taken while at
	// least w pivots are left.
	block := func(w int) {
		name := func(s string) string { return s + string(rune('0'+w)) }
		Label(name("block"))
		t := GP64()
		MOVQ(np, t)
		SUBQ(j, t)
		CMPQ(t, Imm(uint64(w)))
		JB(LabelRef(name("end")))
		pv, acc := make([]reg.VecVirtual, w), make([]reg.VecVirtual, w)
		for k := range pv {
			px := XMM()
			VMOVQ(Mem{Base: pp, Index: j, Scale: 8, Disp: 8 * k}, px)
			pv[k] = YMM()
			VPBROADCASTQ(px, pv[k])
			VPXOR(sign, pv[k], pv[k])
			acc[k] = YMM()
			VPXOR(acc[k], acc[k], acc[k])
		}
		i := GP64()
		XORQ(i, i)
		x, gt := YMM(), YMM()
		compare := func() {
			VPXOR(sign, x, x)
			for k := range pv {
				VPCMPGTQ(pv[k], x, gt)
				VPSUBQ(gt, acc[k], acc[k])
			}
		}
		Comment("acc[k] counts, lane by lane, the elements greater than pivot k.")
		Label(name("vector"))
		CMPQ(i, n4)
		JAE(LabelRef(name("tail")))
		VMOVDQU(Mem{Base: xp, Index: i, Scale: 8}, x)
		compare()
		ADDQ(Imm(4), i)
		JMP(LabelRef(name("vector")))

		Label(name("tail"))
		CMPQ(i, n)
		JAE(LabelRef(name("reduce")))
		VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8}, tail, x)
		compare()

		Label(name("reduce"))
		for k := range acc {
			hi := XMM()
			VEXTRACTI128(Imm(1), acc[k], hi)
			lo := acc[k].AsX()
			VPADDQ(hi, lo, lo)
			VPSHUFD(Imm(0x4e), lo, hi)
			VPADDQ(hi, lo, lo)
			gtn := GP64()
			VMOVQ(lo, gtn)
			le := GP64()
			MOVQ(n, le)
			SUBQ(gtn, le)
			MOVQ(le, Mem{Base: cp, Index: j, Scale: 8, Disp: 8 * k})
		}
		ADDQ(Imm(uint64(w)), j)
		JMP(LabelRef(name("block")))
		Label(name("end"))
	}
	Comment("Four pivots at a time, then two, then one.")
	block(4)
	block(2)
	block(1)
	VZEROUPPER()
	RET()
}

// packOrder is the order in which the permutation table leaves the packed
// keys' halves: VPUNPCKLDQ and VPUNPCKHDQ interleave within 128-bit lanes, so
// packed elements 0, 1, 4, 5 (2, 3, 6, 7) must sit at positions 0, 1, 4, 5
// (2, 3, 6, 7) of the two vectors they interleave to come out in order.
var packOrder = [8]int{0, 1, 4, 5, 2, 3, 6, 7}

// packTable writes the 256-entry VPERMD table of left-packing: entry m lists
// the set bits of m in ascending order, as packOrder places them, padded with 0.
func packTable() Mem {
	t := GLOBL("packperm", RODATA|NOPTR)
	for m := range 256 {
		var p [8]uint32
		k := 0
		for b := range 8 {
			if m>>b&1 != 0 {
				p[k] = uint32(b)
				k++
			}
		}
		for j, o := range packOrder {
			DATA(32*m+4*j, U32(p[o]))
		}
	}
	return t
}

// lanes is what pack32 and pack64 differ in for the steps they share (see
// packMasks): the element's instructions and the label of the NaN exit.
type lanes struct {
	scale             uint8
	movu, cmpImm, and func(...Op)
	andn, or          func(...Op)
	maskmov           func(mxy, xy, mxy1 Op)
	movmsk            func(xy, r Op)
	nan, packed       string // labels of pack32's or pack64's exits
	masksComment      string
}

// lanes32 and lanes64 are the lanes of float32 and of float64 elements.
func lanes32() lanes {
	return lanes{scale: 4, movu: VMOVUPS, cmpImm: VCMPPS, maskmov: VMASKMOVPS, and: VANDPS,
		andn: VANDNPS, or: VORPS, movmsk: VMOVMSKPS, nan: "nan", packed: "packed",
		masksComment: "The masks: rel, l >= thr; valid, ragged or l > -2^-126; zero, |l| < 2^-126."}
}

func lanes64() lanes {
	return lanes{scale: 8, movu: VMOVUPD, cmpImm: VCMPPD, maskmov: VMASKMOVPD, and: VANDPD,
		andn: VANDNPD, or: VORPD, movmsk: VMOVMSKPD, nan: "nan64", packed: "packed64",
		masksComment: "The masks: rel, l >= thr; valid, ragged or l > -2^-1074; zero, l is ±0."}
}

// packRegs holds the registers of pack32 and pack64 that packMasks uses:
// the list pointers and position, the NaN exit's mask, the counts, and the
// broadcast configuration and constants.
type packRegs struct {
	lp, sp                             reg.Register
	i, nrel, nout, bad                 reg.GPVirtual
	thr, ragged, selNZ, selRel, selAll reg.VecVirtual
	negMin, posMin                     Mem
}

// packMasks writes the first steps of a block of pack32 or pack64: it loads
// the labels and scores at i (under the lane mask tail, when not nil),
// computes the relevant, valid and zero masks, jumps to the NaN exit on a
// valid NaN score, counts the relevant items valid and not, and splits the
// valid items into those that go to keys (mask mk) and to oth (mo). It
// returns the scores, the relevance mask, and two registers for the caller's
// use, lo and t.
func packMasks(ln lanes, c *packRegs, tail reg.VecVirtual) (s, rel, lo, t reg.VecVirtual, mk, mo reg.GPVirtual) {
	l := YMM()
	s = YMM()
	if tail == nil {
		ln.movu(Mem{Base: c.lp, Index: c.i, Scale: ln.scale}, l)
		ln.movu(Mem{Base: c.sp, Index: c.i, Scale: ln.scale}, s)
	} else {
		ln.maskmov(Mem{Base: c.lp}, tail, l)
		ln.maskmov(Mem{Base: c.sp}, tail, s)
	}
	Comment(ln.masksComment)
	rel = YMM()
	valid := YMM()
	lo = YMM()
	zl := YMM()
	ln.cmpImm(Imm(0x1d), c.thr, l, rel)      // GE_OQ
	ln.cmpImm(Imm(0x1e), c.negMin, l, valid) // GT_OQ
	ln.cmpImm(Imm(0x11), c.posMin, l, zl)    // LT_OQ
	ln.and(valid, zl, zl)
	ln.or(c.ragged, valid, valid)
	if tail != nil {
		ln.and(tail, valid, valid)
		ln.and(tail, rel, rel)
	}
	Comment("A valid item with a NaN score stops the kernel.")
	nan := YMM()
	ln.cmpImm(Imm(0x03), s, s, nan) // UNORD_Q
	mv, mn := GP32(), c.bad
	ln.movmsk(valid, mv)
	ln.movmsk(nan, mn)
	ANDL(mv, mn)
	JNE(LabelRef(ln.nan))
	Comment("Count the relevant items, valid and not.")
	mr, cnt := GP32(), GP32()
	ln.movmsk(rel, mr)
	MOVL(mr, cnt)
	ANDL(mv, cnt)
	POPCNTL(cnt, cnt)
	ADDQ(cnt.As64(), c.nrel)
	NOTL(mv)
	ANDL(mv, mr)
	POPCNTL(mr, mr)
	ADDQ(mr.As64(), c.nout)
	Comment("pick selects the valid items that go to keys, the others go to oth.")
	pick := YMM()
	t = YMM()
	ln.andn(c.selNZ, zl, pick)
	ln.and(c.selRel, rel, t)
	ln.or(t, pick, pick)
	ln.or(c.selAll, pick, pick)
	mk, mo = GP32(), GP32()
	ln.and(valid, pick, t)
	ln.movmsk(t, mk)
	ln.andn(valid, pick, t)
	ln.movmsk(t, mo)
	return s, rel, lo, t, mk, mo
}

// packLoop sets up the loop of pack32 or pack64 over n items: lp and sp
// point past the whole packets, i runs from minus their items to 0, and the
// counts nk, no, nrel and nout start at 0.
func packLoop(ln lanes, lp, sp, n reg.Register) (nk, no, nrel, nout, i reg.GPVirtual) {
	w := ln.width()
	Comment(fmt.Sprintf("lp and sp point past the whole packets; i runs from -len(lab)/%d*%d to 0.", w, w))
	if ln.scale == 8 {
		Comment("nk and no count the words written, two per key.")
	}
	nk, no, nrel, nout, i = GP64(), GP64(), GP64(), GP64(), GP64()
	ANDQ(I32(-w), n)
	LEAQ(Mem{Base: lp, Index: n, Scale: ln.scale}, lp)
	LEAQ(Mem{Base: sp, Index: n, Scale: ln.scale}, sp)
	MOVQ(n, i)
	NEGQ(i)
	XORQ(nk, nk)
	XORQ(no, no)
	XORQ(nrel, nrel)
	XORQ(nout, nout)
	return nk, no, nrel, nout, i
}

// packExits writes the two exits of pack32 or pack64: the end of the list,
// which returns the counts and bad = -1, and the NaN exit, which returns the
// index of the first valid NaN (the whole packets before the block, plus i,
// plus the lane of the lowest bit of c.bad). pack64 counts words in nk and
// no, two per key, and halves them.
func packExits(ln lanes, c *packRegs, nk, no reg.GPVirtual) {
	w := ln.width()
	ret := func() {
		if ln.scale == 8 {
			SHRQ(Imm(1), nk)
			SHRQ(Imm(1), no)
		}
		Store(nk, ReturnIndex(0))
		Store(no, ReturnIndex(1))
		Store(c.nrel, ReturnIndex(2))
		Store(c.nout, ReturnIndex(3))
	}
	Label(ln.packed)
	ret()
	MOVQ(I64(-1), c.i)
	Store(c.i, ReturnIndex(4))
	VZEROUPPER()
	RET()

	Comment(fmt.Sprintf("The first valid NaN is at n%d + i + its lane.", w))
	Label(ln.nan)
	BSFL(c.bad, c.bad)
	ADDQ(c.bad.As64(), c.i)
	whole := Load(Param("lab").Len(), GP64())
	ANDQ(I32(-w), whole)
	ADDQ(whole, c.i)
	ret()
	Store(c.i, ReturnIndex(4))
	VZEROUPPER()
	RET()
}

// width is the number of elements per vector.
func (ln lanes) width() int { return 32 / int(ln.scale) }

func pack32() {
	TEXT("pack32AVX2", NOSPLIT, "func(lab, sc []float32, keys, oth []uint64, cfg *[8]uint32) (nk, no, nrel, nout, bad int)")
	Pragma("noescape")
	Doc(
		"pack32AVX2 is Pack32.packGo on AVX2, with the configuration's broadcast",
		"constants in cfg (see Pack32.config). It writes keys 8 at a time: keys and",
		"oth must hold len(lab) rounded up to a multiple of 8.",
	)
	table := packTable()
	lp := Load(Param("lab").Base(), GP64())
	n := Load(Param("lab").Len(), GP64())
	sp := Load(Param("sc").Base(), GP64())
	kp := Load(Param("keys").Base(), GP64())
	op := Load(Param("oth").Base(), GP64())
	cp := Load(Param("cfg"), GP64())
	tp := GP64()
	LEAQ(table, tp)

	bc := func(k int) reg.VecVirtual {
		y := YMM()
		VPBROADCASTD(Mem{Base: cp, Disp: 4 * k}, y)
		return y
	}
	thr, ragged, selNZ, selRel, selAll, tieXor, tieAnd := bc(0), bc(1), bc(2), bc(3), bc(4), bc(5), bc(6)
	Comment("The fixed constants stay in memory: the registers hold the configuration.")
	consts := GLOBL("packconst", RODATA|NOPTR)
	for k, c := range []uint32{0x80800000, 0x00800000, 0x7f800000, 0x7fffffff, 8} {
		for j := range 8 {
			DATA(32*k+4*j, U32(c))
		}
	}
	negMin, posMin, exp, mag, eight := consts, consts.Offset(32), consts.Offset(64), consts.Offset(96), consts.Offset(128) // -2^-126, 2^-126
	zero := YMM()
	VPXOR(zero, zero, zero)
	Comment("idx holds the items' indices, eight more each round.")
	iota := GLOBL("packiota", RODATA|NOPTR)
	for j := range 8 {
		DATA(4*j, U32(uint32(j)))
	}
	idx := YMM()
	VMOVDQU(iota, idx)

	nk, no, nrel, nout, i := packLoop(lanes32(), lp, sp, n)

	bad := GP32()
	c := packRegs{lp: lp, sp: sp, i: i, bad: bad, nrel: nrel, nout: nout, thr: thr, ragged: ragged,
		selNZ: selNZ, selRel: selRel, selAll: selAll, negMin: negMin, posMin: posMin}

	// block packs the 8 items at i; tail, when not nil, masks the lanes that
	// hold items, the others being loaded as zeros.
	block := func(tail reg.VecVirtual) {
		s, rel, lo, t, mk, mo := packMasks(lanes32(), &c, tail)

		Comment("The upper halves: the score's bits, zero when its exponent is (a subnormal")
		Comment("reads as a zero, and -0 + 0 is +0), then made to sort ascending for a")
		Comment("descending score: a positive score's bits xor 0x7fffffff, a negative one's as is.")
		hi := YMM()
		VPAND(exp, s, t)
		VPCMPEQD(zero, t, t)
		VPANDN(s, t, hi)
		VPSRAD(Imm(31), hi, t)
		VPANDN(mag, t, t)
		VPXOR(t, hi, hi)
		Comment("The lower halves: the index, with bit 31 by the tie policy.")
		VPXOR(tieXor, rel, lo)
		VPAND(tieAnd, lo, lo)
		VPOR(idx, lo, lo)
		VPADDD(eight, idx, idx)

		Comment("Left-pack both halves by each mask, interleave them and store 8 keys.")
		for _, d := range []struct {
			m   reg.GPVirtual
			p   reg.Register
			cnt reg.GPVirtual
		}{{mk, kp, nk}, {mo, op, no}} {
			perm, ph, k0 := YMM(), YMM(), YMM()
			m64, cnt := d.m.As64(), GP64()
			POPCNTQ(m64, cnt)
			SHLQ(Imm(5), m64)
			VMOVDQU(Mem{Base: tp, Index: m64, Scale: 1}, perm)
			VPERMD(hi, perm, ph)
			VPERMD(lo, perm, perm)
			VPUNPCKLDQ(ph, perm, k0)
			VPUNPCKHDQ(ph, perm, ph)
			VMOVDQU(k0, Mem{Base: d.p, Index: d.cnt, Scale: 8})
			VMOVDQU(ph, Mem{Base: d.p, Index: d.cnt, Scale: 8, Disp: 32})
			ADDQ(cnt, d.cnt)
		}
	}

	Label("pack")
	CMPQ(i, Imm(0))
	JGE(LabelRef("tail"))
	block(nil)
	ADDQ(Imm(8), i)
	JMP(LabelRef("pack"))

	Comment("The last len(lab) % 8 items, loaded under a mask of their lanes.")
	Label("tail")
	rem := GP64()
	Load(Param("lab").Len(), rem)
	ANDQ(Imm(7), rem)
	JE(LabelRef("packed"))
	rx, tail := XMM(), YMM()
	VMOVD(rem.As32(), rx)
	VPBROADCASTD(rx, tail)
	VPCMPGTD(iota, tail, tail)
	block(tail)

	packExits(lanes32(), &c, nk, no)
}

func countScores() {
	TEXT("countScoresAVX2", NOSPLIT, "func(xs, pivots []uint64, below, atOrBelow []int)")
	Pragma("noescape")
	Doc(
		"countScoresAVX2 is countScoresGo on AVX2: it sets below[j] and atOrBelow[j] to",
		"the numbers of elements of xs whose upper 32 bits are < and <= those of",
		"pivots[j], unsigned; below and atOrBelow hold len(pivots) counts.",
	)
	xp := Load(Param("xs").Base(), GP64())
	n := Load(Param("xs").Len(), GP64())
	pp := Load(Param("pivots").Base(), GP64())
	np := Load(Param("pivots").Len(), GP64())
	bp := Load(Param("below").Base(), GP64())
	ap := Load(Param("atOrBelow").Base(), GP64())

	Comment("Unsigned order is signed order with the sign bits flipped.")
	sign := GLOBL("scoresign", RODATA|NOPTR)
	for j := range 8 {
		DATA(4*j, U32(1<<31))
	}

	Comment("Lane numbers, for the masks of the last len(xs) % 8 elements.")
	lanes := GLOBL("scorelanes", RODATA|NOPTR)
	for j := range 8 {
		DATA(8*j, U64(uint64(j)))
	}
	n8 := GP64()
	MOVQ(n, n8)
	ANDQ(I32(-8), n8)
	j := GP64()
	XORQ(j, j)

	// block counts pivots j..j+w-1 and advances j by w; it is taken while at
	// least w pivots are left.
	block := func(w int) {
		name := func(s string) string { return s + string(rune('0'+w)) }
		Label(name("sblock"))
		t := GP64()
		MOVQ(np, t)
		SUBQ(j, t)
		CMPQ(t, Imm(uint64(w)))
		JB(LabelRef(name("send")))
		pv, gt, eq := make([]reg.VecVirtual, w), make([]reg.VecVirtual, w), make([]reg.VecVirtual, w)
		for k := range pv {
			pv[k] = YMM()
			Comment("The upper half of pivot k: the dword at byte 4 of the key.")
			VPBROADCASTD(Mem{Base: pp, Index: j, Scale: 8, Disp: 8*k + 4}, pv[k])
			VPXOR(sign, pv[k], pv[k])
			gt[k], eq[k] = YMM(), YMM()
			VPXOR(gt[k], gt[k], gt[k])
			VPXOR(eq[k], eq[k], eq[k])
		}
		i := GP64()
		XORQ(i, i)

		Comment("gt[k] and eq[k] count, lane by lane, the elements above and at score k.")
		// count adds the 8 elements at i. In the tail, mlo and mhi mask the
		// lanes of the two halves that hold elements (the others load as
		// zeros, whose score is below every other but may equal one, so the
		// equality counts are masked too).
		count := func(tail bool) {
			h, t := YMM(), YMM()
			var mlo reg.VecVirtual
			if !tail {
				VMOVDQU(Mem{Base: xp, Index: i, Scale: 8}, h)
				Comment("The odd dwords of 8 keys are their upper halves (in another order).")
				VSHUFPS(Imm(0xdd), Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, h, h)
			} else {
				r, rx, mhi := GP64(), XMM(), YMM()
				mlo = YMM()
				MOVQ(n, r)
				SUBQ(i, r)
				VMOVQ(r, rx)
				VPBROADCASTQ(rx, mhi)
				VPCMPGTQ(lanes, mhi, mlo)
				VPCMPGTQ(lanes.Offset(32), mhi, mhi)
				VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8}, mlo, h)
				VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, mhi, t)
				VSHUFPS(Imm(0xdd), t, h, h)
				Comment("The dword mask of the upper halves, in their order.")
				VSHUFPS(Imm(0xdd), mhi, mlo, mlo)
			}
			VPXOR(sign, h, h)
			for k := range pv {
				VPCMPGTD(pv[k], h, t)
				VPSUBD(t, gt[k], gt[k])
				VPCMPEQD(pv[k], h, t)
				if tail {
					VPAND(mlo, t, t)
				}
				VPSUBD(t, eq[k], eq[k])
			}
		}

		Label(name("svector"))
		CMPQ(i, n8)
		JAE(LabelRef(name("stail")))
		count(false)
		ADDQ(Imm(8), i)
		JMP(LabelRef(name("svector")))

		Comment("The last len(xs) % 8 elements, loaded under masks of their lanes.")
		Label(name("stail"))
		CMPQ(i, n)
		JAE(LabelRef(name("sreduce")))
		count(true)

		Label(name("sreduce"))
		sum := func(y reg.VecVirtual) reg.GPVirtual {
			hi := XMM()
			VEXTRACTI128(Imm(1), y, hi)
			lo := y.AsX()
			VPADDD(hi, lo, lo)
			VPSHUFD(Imm(0x4e), lo, hi)
			VPADDD(hi, lo, lo)
			VPSHUFD(Imm(0xb1), lo, hi)
			VPADDD(hi, lo, lo)
			g := GP32()
			VMOVD(lo, g)
			return g
		}
		for k := range pv {
			g, e := sum(gt[k]), sum(eq[k])
			le := GP64()
			MOVQ(n, le)
			SUBQ(g.As64(), le)
			MOVQ(le, Mem{Base: ap, Index: j, Scale: 8, Disp: 8 * k})
			SUBQ(e.As64(), le)
			MOVQ(le, Mem{Base: bp, Index: j, Scale: 8, Disp: 8 * k})
		}
		ADDQ(Imm(uint64(w)), j)
		JMP(LabelRef(name("sblock")))
		Label(name("send"))
	}
	Comment("Four pivots at a time, then two, then one.")
	block(4)
	block(2)
	block(1)
	VZEROUPPER()
	RET()
}

func terms32() {
	TEXT("terms32AVX2", NOSPLIT, "func(dst, num, den, w []float32)")
	Pragma("noescape")
	Doc(
		"terms32AVX2 is terms32Go on AVX2 for the first len(dst)/8*8 values:",
		"dst[i] = num[i] / den[i] * w[i], flushed, eight at a time; num, den and w",
		"hold at least len(dst) values. VDIVPS and VMULPS round each lane as the",
		"scalar float32 operations do.",
	)
	dp := Load(Param("dst").Base(), GP64())
	n := Load(Param("dst").Len(), GP64())
	np := Load(Param("num").Base(), GP64())
	ep := Load(Param("den").Base(), GP64())
	wp := Load(Param("w").Base(), GP64())

	exp := broadcast32(0x7f800000)
	abs := broadcast32(0x7fffffff)
	zero := YMM()
	VPXOR(zero, zero, zero)

	ANDQ(I32(-8), n)
	i := GP64()
	XORQ(i, i)
	Label("loop")
	CMPQ(i, n)
	JAE(LabelRef("done"))
	x, d := YMM(), YMM()
	VMOVUPS(Mem{Base: np, Index: i, Scale: 4}, x)
	VMOVUPS(Mem{Base: ep, Index: i, Scale: 4}, d)
	VDIVPS(d, x, x)
	VMULPS(Mem{Base: wp, Index: i, Scale: 4}, x, x)
	ftz(x, exp, abs, zero)
	VMOVUPS(x, Mem{Base: dp, Index: i, Scale: 4})
	ADDQ(Imm(8), i)
	JMP(LabelRef("loop"))

	Label("done")
	VZEROUPPER()
	RET()
}

func countAbove96() {
	TEXT("countAbove96AVX2", NOSPLIT, "func(keys, pivots []uint64, counts []int)")
	Pragma("noescape")
	Doc(
		"countAbove96AVX2 is countAbove96Go on AVX2: it sets counts[j] to the number of",
		"keys greater than pivot j, each key two words (score, tie-break in the low",
		"dword); len(counts) >= len(pivots)/2 and no pivot's score is 0.",
	)
	xp := Load(Param("keys").Base(), GP64())
	n := Load(Param("keys").Len(), GP64())
	pp := Load(Param("pivots").Base(), GP64())
	np := Load(Param("pivots").Len(), GP64())
	cp := Load(Param("counts").Base(), GP64())

	Comment("Whole keys only: n and np count words, two per key.")
	ANDQ(I32(-2), n)
	ANDQ(I32(-2), np)

	Comment("Unsigned order is signed order with the sign bits flipped. The tie-breaks")
	Comment("are compared as dwords (VPCMPGTQ has half the throughput of VPCMPGTD on")
	Comment("some CPUs), each copied into both dwords of its qword to give a qword mask.")
	consts := GLOBL("abovec", RODATA|NOPTR)
	for j := range 4 {
		DATA(8*j, U64(1<<63))
	}
	for j := range 4 {
		DATA(32+8*j, U64(1<<63|1<<31))
	}
	sign, sign32 := consts, consts.Offset(32)
	Comment("Word numbers, for the masks of the last (len(keys)/2) % 4 keys.")
	lanes := GLOBL("abovelanes", RODATA|NOPTR)
	for j := range 8 {
		DATA(8*j, U64(uint64(j)))
	}
	n8 := GP64()
	MOVQ(n, n8)
	ANDQ(I32(-8), n8)

	j := GP64()
	XORQ(j, j)

	// block counts the w pivots at word j and advances j by 2w; it is taken
	// while at least w pivots are left.
	block := func(w int) {
		name := func(s string) string { return s + string(rune('0'+w)) }
		Label(name("ablock"))
		t := GP64()
		MOVQ(np, t)
		SUBQ(j, t)
		CMPQ(t, Imm(uint64(2*w)))
		JB(LabelRef(name("aend")))
		acc, ps, pt := make([]reg.VecVirtual, w), make([]reg.VecVirtual, w), make([]reg.VecVirtual, w)
		for k := range acc {
			ps[k], pt[k] = YMM(), YMM()
			VPBROADCASTQ(Mem{Base: pp, Index: j, Scale: 8, Disp: 16 * k}, ps[k])
			VPXOR(sign, ps[k], ps[k])
			VPBROADCASTD(Mem{Base: pp, Index: j, Scale: 8, Disp: 16*k + 8}, pt[k])
			VPXOR(sign32, pt[k], pt[k])
			acc[k] = YMM()
			VPXOR(acc[k], acc[k], acc[k])
		}
		i := GP64()
		XORQ(i, i)
		xs, xt := YMM(), YMM()
		// compare counts, lane by lane, the keys in xs:xt above each pivot:
		// a greater score, or the same score and a greater tie-break, which
		// is a score above the pivot's minus one when the tie-break is
		// greater (the pivot's score is not 0).
		compare := func() {
			VPXOR(sign, xs, xs)
			VPSHUFD(Imm(0xa0), xt, xt)
			VPXOR(sign32, xt, xt)
			for k := range acc {
				t := YMM()
				VPCMPGTD(pt[k], xt, t)
				VPADDQ(ps[k], t, t)
				VPCMPGTQ(t, xs, t)
				VPSUBQ(t, acc[k], acc[k])
			}
		}
		Comment("Four keys at a time: their scores in xs and tie-breaks in xt, both in")
		Comment("the order 0, 2, 1, 3, which counting ignores.")
		Label(name("avector"))
		CMPQ(i, n8)
		JAE(LabelRef(name("atail")))
		a, b := YMM(), YMM()
		VMOVDQU(Mem{Base: xp, Index: i, Scale: 8}, a)
		VMOVDQU(Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, b)
		VPUNPCKLQDQ(b, a, xs)
		VPUNPCKHQDQ(b, a, xt)
		compare()
		ADDQ(Imm(8), i)
		JMP(LabelRef(name("avector")))

		Comment("The last keys, loaded under masks of their words; the other words load as")
		Comment("zeros, a key no pivot is below.")
		Label(name("atail"))
		CMPQ(i, n)
		JAE(LabelRef(name("areduce")))
		{
			r, rx, ma, mb := GP64(), XMM(), YMM(), YMM()
			MOVQ(n, r)
			SUBQ(i, r)
			VMOVQ(r, rx)
			VPBROADCASTQ(rx, mb)
			VPCMPGTQ(lanes, mb, ma)
			VPCMPGTQ(lanes.Offset(32), mb, mb)
			VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8}, ma, a)
			VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, mb, b)
			VPUNPCKLQDQ(b, a, xs)
			VPUNPCKHQDQ(b, a, xt)
			compare()
		}

		Label(name("areduce"))
		SHRQ(Imm(1), j)
		for k := range acc {
			hi := XMM()
			VEXTRACTI128(Imm(1), acc[k], hi)
			lo := acc[k].AsX()
			VPADDQ(hi, lo, lo)
			VPSHUFD(Imm(0x4e), lo, hi)
			VPADDQ(hi, lo, lo)
			c := GP64()
			VMOVQ(lo, c)
			MOVQ(c, Mem{Base: cp, Index: j, Scale: 8, Disp: 8 * k})
		}
		SHLQ(Imm(1), j)
		ADDQ(Imm(uint64(2*w)), j)
		JMP(LabelRef(name("ablock")))
		Label(name("aend"))
	}
	Comment("Four pivots at a time, then two, then one.")
	block(4)
	block(2)
	block(1)
	VZEROUPPER()
	RET()
}

// packOrder64 is packOrder for 64-bit lanes: VPUNPCKLQDQ and VPUNPCKHQDQ
// interleave within 128-bit lanes, so packed keys 0, 1 (2, 3) must sit at
// positions 0, 2 (1, 3) to come out in order.
var packOrder64 = [4]int{0, 2, 1, 3}

// pack64Table writes the 16-entry VPERMD table of left-packing qwords: entry
// m lists the dword pairs of the set bits of m in ascending order, as
// packOrder64 places them, padded with 0.
func pack64Table() Mem {
	t := GLOBL("pack64perm", RODATA|NOPTR)
	for m := range 16 {
		var p [4]uint32
		k := 0
		for b := range 4 {
			if m>>b&1 != 0 {
				p[k] = uint32(b)
				k++
			}
		}
		for j, o := range packOrder64 {
			DATA(32*m+8*j, U32(2*p[o]))
			DATA(32*m+8*j+4, U32(2*p[o]+1))
		}
	}
	return t
}

func pack64() {
	TEXT("pack64AVX2", NOSPLIT, "func(lab, sc []float64, keys, oth []uint64, cfg *[8]uint64) (nk, no, nrel, nout, bad int)")
	Pragma("noescape")
	Doc(
		"pack64AVX2 is Pack64.packGo on AVX2, with the configuration's broadcast",
		"constants in cfg (see Pack64.config). It writes keys 4 at a time, two words",
		"each: keys and oth must hold twice len(lab) rounded up to a multiple of 4.",
	)
	table := pack64Table()
	lp := Load(Param("lab").Base(), GP64())
	n := Load(Param("lab").Len(), GP64())
	sp := Load(Param("sc").Base(), GP64())
	kp := Load(Param("keys").Base(), GP64())
	op := Load(Param("oth").Base(), GP64())
	cp := Load(Param("cfg"), GP64())
	tp := GP64()
	LEAQ(table, tp)

	bc := func(k int) reg.VecVirtual {
		y := YMM()
		VPBROADCASTQ(Mem{Base: cp, Disp: 8 * k}, y)
		return y
	}
	thr, ragged, selNZ, selRel, selAll, tieXor, tieAnd := bc(0), bc(1), bc(2), bc(3), bc(4), bc(5), bc(6)
	Comment("The fixed constants stay in memory: the registers hold the configuration.")
	consts := GLOBL("pack64const", RODATA|NOPTR)
	for k, c := range []uint64{1<<63 | 1, 1, 1<<63 - 1, 4} {
		for j := range 4 {
			DATA(32*k+8*j, U64(c))
		}
	}
	negMin, posMin, mag, four := consts, consts.Offset(32), consts.Offset(64), consts.Offset(96) // -2^-1074, 2^-1074
	zero := YMM()
	VPXOR(zero, zero, zero)
	Comment("idx holds the items' indices, four more each round.")
	iota := GLOBL("pack64iota", RODATA|NOPTR)
	for j := range 4 {
		DATA(8*j, U64(uint64(j)))
	}
	idx := YMM()
	VMOVDQU(iota, idx)

	nk, no, nrel, nout, i := packLoop(lanes64(), lp, sp, n)

	bad := GP32()
	c := packRegs{lp: lp, sp: sp, i: i, bad: bad, nrel: nrel, nout: nout, thr: thr, ragged: ragged,
		selNZ: selNZ, selRel: selRel, selAll: selAll, negMin: negMin, posMin: posMin}

	// block packs the 4 items at i; tail, when not nil, masks the lanes that
	// hold items, the others being loaded as zeros.
	block := func(tail reg.VecVirtual) {
		s, rel, lo, t, mk, mo := packMasks(lanes64(), &c, tail)

		Comment("The scores' words: -0 + 0 is +0, then the bits made to sort ascending for")
		Comment("a descending score: a positive score's bits xor 1<<63 - 1, a negative one's as is.")
		ks := YMM()
		VADDPD(zero, s, ks)
		VPCMPGTQ(ks, zero, t)
		VPANDN(mag, t, t)
		VPXOR(t, ks, ks)
		Comment("The tie-break words: the index, with bit 31 by the tie policy.")
		VPXOR(tieXor, rel, lo)
		VPAND(tieAnd, lo, lo)
		VPOR(idx, lo, lo)
		VPADDQ(four, idx, idx)

		Comment("Left-pack both words by each mask, interleave them and store 4 keys.")
		for _, d := range []struct {
			m   reg.GPVirtual
			p   reg.Register
			cnt reg.GPVirtual
		}{{mk, kp, nk}, {mo, op, no}} {
			perm, ps, k0 := YMM(), YMM(), YMM()
			m64, cnt := d.m.As64(), GP64()
			POPCNTQ(m64, cnt)
			SHLQ(Imm(5), m64)
			VMOVDQU(Mem{Base: tp, Index: m64, Scale: 1}, perm)
			VPERMD(ks, perm, ps)
			VPERMD(lo, perm, perm)
			VPUNPCKLQDQ(perm, ps, k0)
			VPUNPCKHQDQ(perm, ps, ps)
			VMOVDQU(k0, Mem{Base: d.p, Index: d.cnt, Scale: 8})
			VMOVDQU(ps, Mem{Base: d.p, Index: d.cnt, Scale: 8, Disp: 32})
			LEAQ(Mem{Base: d.cnt, Index: cnt, Scale: 2}, d.cnt)
		}
	}

	Label("pack64")
	CMPQ(i, Imm(0))
	JGE(LabelRef("tail64"))
	block(nil)
	ADDQ(Imm(4), i)
	JMP(LabelRef("pack64"))

	Comment("The last len(lab) % 4 items, loaded under a mask of their lanes.")
	Label("tail64")
	rem := GP64()
	Load(Param("lab").Len(), rem)
	ANDQ(Imm(3), rem)
	JE(LabelRef("packed64"))
	rx, tail := XMM(), YMM()
	VMOVQ(rem, rx)
	VPBROADCASTQ(rx, tail)
	VPCMPGTQ(iota, tail, tail)
	block(tail)

	packExits(lanes64(), &c, nk, no)
}

func countScores64() {
	TEXT("countScores64AVX2", NOSPLIT, "func(keys, pivots []uint64, below, atOrBelow []int)")
	Pragma("noescape")
	Doc(
		"countScores64AVX2 is countScores64Go on AVX2: it sets below[j] and atOrBelow[j]",
		"to the numbers of keys (pairs of words) whose first word is < and <= that of",
		"pivot j, unsigned; below and atOrBelow hold len(pivots)/2 counts.",
	)
	xp := Load(Param("keys").Base(), GP64())
	n := Load(Param("keys").Len(), GP64())
	pp := Load(Param("pivots").Base(), GP64())
	np := Load(Param("pivots").Len(), GP64())
	bp := Load(Param("below").Base(), GP64())
	ap := Load(Param("atOrBelow").Base(), GP64())

	Comment("Whole keys only: n and np count words, two per key.")
	ANDQ(I32(-2), n)
	ANDQ(I32(-2), np)
	Comment("Unsigned order is signed order with the sign bits flipped.")
	sign := GLOBL("s64sign", RODATA|NOPTR)
	for j := range 4 {
		DATA(8*j, U64(1<<63))
	}
	Comment("Word numbers, for the masks of the last (len(keys)/2) % 4 keys.")
	lanes := GLOBL("s64lanes", RODATA|NOPTR)
	for j := range 8 {
		DATA(8*j, U64(uint64(j)))
	}
	n8 := GP64()
	MOVQ(n, n8)
	ANDQ(I32(-8), n8)
	j := GP64()
	XORQ(j, j)

	// block counts the w pivots at word j and advances j by 2w; it is taken
	// while at least w pivots are left.
	block := func(w int) {
		name := func(s string) string { return s + string(rune('0'+w)) }
		Label(name("cblock"))
		t := GP64()
		MOVQ(np, t)
		SUBQ(j, t)
		CMPQ(t, Imm(uint64(2*w)))
		JB(LabelRef(name("cend")))
		pv, gt, eq := make([]reg.VecVirtual, w), make([]reg.VecVirtual, w), make([]reg.VecVirtual, w)
		for k := range pv {
			pv[k] = YMM()
			VPBROADCASTQ(Mem{Base: pp, Index: j, Scale: 8, Disp: 16 * k}, pv[k])
			VPXOR(sign, pv[k], pv[k])
			gt[k], eq[k] = YMM(), YMM()
			VPXOR(gt[k], gt[k], gt[k])
			VPXOR(eq[k], eq[k], eq[k])
		}
		i := GP64()
		XORQ(i, i)
		Comment("gt[k] and eq[k] count, lane by lane, the keys above and at score k.")
		// count adds the 4 keys at word i. In the tail, m masks the lanes
		// that hold keys (the others load as zeros, whose score is below
		// every other but may equal one, so the equality counts are masked).
		count := func(tail bool) {
			a, b, x := YMM(), YMM(), YMM()
			var m reg.VecVirtual
			if !tail {
				VMOVDQU(Mem{Base: xp, Index: i, Scale: 8}, a)
				VMOVDQU(Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, b)
			} else {
				r, rx := GP64(), XMM()
				m = YMM()
				MOVQ(n, r)
				SUBQ(i, r)
				VMOVQ(r, rx)
				VPBROADCASTQ(rx, m)
				VPCMPGTQ(lanes, m, a)
				VPCMPGTQ(lanes.Offset(32), m, m)
				VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8}, a, x)
				VPMASKMOVQ(Mem{Base: xp, Index: i, Scale: 8, Disp: 32}, m, b)
				Comment("The mask of the score lanes, in their order.")
				VPUNPCKLQDQ(m, a, m)
				a = x
			}
			Comment("The scores of 4 keys, in the order 0, 2, 1, 3, which counting ignores.")
			VPUNPCKLQDQ(b, a, x)
			VPXOR(sign, x, x)
			for k := range pv {
				c := YMM()
				VPCMPGTQ(pv[k], x, c)
				VPSUBQ(c, gt[k], gt[k])
				VPCMPEQQ(pv[k], x, c)
				if tail {
					VPAND(m, c, c)
				}
				VPSUBQ(c, eq[k], eq[k])
			}
		}

		Label(name("cvector"))
		CMPQ(i, n8)
		JAE(LabelRef(name("ctail")))
		count(false)
		ADDQ(Imm(8), i)
		JMP(LabelRef(name("cvector")))

		Comment("The last keys, loaded under masks of their words.")
		Label(name("ctail"))
		CMPQ(i, n)
		JAE(LabelRef(name("creduce")))
		count(true)

		Label(name("creduce"))
		sum := func(y reg.VecVirtual) reg.GPVirtual {
			hi := XMM()
			VEXTRACTI128(Imm(1), y, hi)
			lo := y.AsX()
			VPADDQ(hi, lo, lo)
			VPSHUFD(Imm(0x4e), lo, hi)
			VPADDQ(hi, lo, lo)
			g := GP64()
			VMOVQ(lo, g)
			return g
		}
		SHRQ(Imm(1), j)
		keys := GP64()
		MOVQ(n, keys)
		SHRQ(Imm(1), keys)
		for k := range pv {
			g, e := sum(gt[k]), sum(eq[k])
			le := GP64()
			MOVQ(keys, le)
			SUBQ(g, le)
			MOVQ(le, Mem{Base: ap, Index: j, Scale: 8, Disp: 8 * k})
			SUBQ(e, le)
			MOVQ(le, Mem{Base: bp, Index: j, Scale: 8, Disp: 8 * k})
		}
		SHLQ(Imm(1), j)
		ADDQ(Imm(uint64(2*w)), j)
		JMP(LabelRef(name("cblock")))
		Label(name("cend"))
	}
	Comment("Four pivots at a time, then two, then one.")
	block(4)
	block(2)
	block(1)
	VZEROUPPER()
	RET()
}
