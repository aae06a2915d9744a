// Command asm generates the AVX2 kernels of package lineidx with avo:
//
//	go run ./runio/internal/lineidx/asm -out runio/internal/lineidx/lineidx_amd64.s -stubs runio/internal/lineidx/stub_amd64.go -pkg lineidx
//
// (go generate ./runio/internal/lineidx runs that.) The kernels write the
// records that indexGo (lineidx.go) writes, byte for byte, for every line
// they index; they index the lines indexGo indexes.
package main

//lint:file-ignore ST1001 avo's instruction set reads as assembly only dot-imported.

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Record layout (see lineidx.Rec).
const (
	recSize = 16
	offLen  = 0
	offN    = 1
	offSpan = 2
	fields  = 6
)

func main() {
	ConstraintExpr("amd64,!purego")
	index("indexStrictAVX2", false)
	index("indexCAVX2", true)
	Generate()
}

// broadcast8 returns a YMM register holding c in each byte.
func broadcast8(c uint8) reg.VecVirtual {
	g := GP32()
	MOVL(U32(uint32(c)), g)
	x := XMM()
	VMOVD(g, x)
	y := YMM()
	VPBROADCASTB(x, y)
	return y
}

// mask64 turns the byte masks lo and hi (0xff or 0 per byte) of 64 bytes
// into a 64-bit mask, bit i for byte i.
func mask64(lo, hi reg.VecVirtual) reg.GPVirtual {
	a, b := GP64(), GP64()
	VPMOVMSKB(lo, a.As32())
	VPMOVMSKB(hi, b.As32())
	SHLQ(Imm(32), b)
	ORQ(b, a)
	return a
}

// index writes the kernel named name: C's isspace separators (cspace, and
// a NUL byte in a line marks its record) or every byte up to ' '. It reads
// the 64 bytes at p, the start of the first line not yet described, and
// describes every line whose "\n" is among them from their masks (one
// load per block, not per line: the lines are short), then goes on at the
// start of the first line that was not whole in the block.
func index(name string, cspace bool) {
	TEXT(name, NOSPLIT, "func(data []byte, recs [][16]byte) int")
	Pragma("noescape")
	if cspace {
		Doc(
			name+" is indexGo(data, recs, true) on AVX2+BMI1+BMI2+POPCNT: the",
			"separators are C's isspace bytes, and a line holding a NUL byte gets",
			"the field count 255.",
		)
	} else {
		Doc(
			name+" is indexGo(data, recs, false) on AVX2+BMI1+BMI2+POPCNT: every",
			"byte up to ' ' separates fields.",
		)
	}
	p := Load(Param("data").Base(), GP64())
	n := Load(Param("data").Len(), GP64())
	r := Load(Param("recs").Base(), GP64())
	rend := Load(Param("recs").Len(), GP64())
	Comment("rend: the end of recs.")
	SHLQ(Imm(4), rend)
	ADDQ(r, rend)

	Comment("end: the last address at which 64 bytes can be read.")
	CMPQ(n, Imm(64))
	JB(LabelRef(name + "_done"))
	end := GP64()
	LEAQ(Mem{Base: p, Index: n, Scale: 1, Disp: -64}, end)

	nl := broadcast8('\n')
	var sp, c9, c4, zero reg.VecVirtual
	sp = broadcast8(' ')
	if cspace {
		c9 = broadcast8(9)
		c4 = broadcast8(4)
		zero = YMM()
		VPXOR(zero, zero, zero)
	}

	Label(name + "_block")
	CMPQ(p, end)
	JA(LabelRef(name + "_done"))
	CMPQ(r, rend)
	JAE(LabelRef(name + "_done"))
	lo, hi := YMM(), YMM()
	VMOVDQU(Mem{Base: p}, lo)
	VMOVDQU(Mem{Base: p, Disp: 32}, hi)

	Comment("m: the newlines; none: the line at p is too long, stop.")
	elo, ehi := YMM(), YMM()
	VPCMPEQB(lo, nl, elo)
	VPCMPEQB(hi, nl, ehi)
	m := mask64(elo, ehi)
	TESTQ(m, m)
	JZ(LabelRef(name + "_done"))

	Comment("f: the field bytes, the bytes that are no separators.")
	slo, shi := YMM(), YMM()
	if cspace {
		// c == ' ' or c-9 <= 4 (unsigned): 9..13.
		tlo, thi := YMM(), YMM()
		VPSUBB(c9, lo, tlo)
		VPSUBB(c9, hi, thi)
		ulo, uhi := YMM(), YMM()
		VPMINUB(c4, tlo, ulo)
		VPMINUB(c4, thi, uhi)
		VPCMPEQB(ulo, tlo, tlo)
		VPCMPEQB(uhi, thi, thi)
		VPCMPEQB(lo, sp, slo)
		VPCMPEQB(hi, sp, shi)
		VPOR(tlo, slo, slo)
		VPOR(thi, shi, shi)
	} else {
		// c <= ' ': max(c, ' ') == ' '.
		VPMAXUB(sp, lo, slo)
		VPMAXUB(sp, hi, shi)
		VPCMPEQB(slo, sp, slo)
		VPCMPEQB(shi, sp, shi)
	}
	f := mask64(slo, shi)
	NOTQ(f)
	var z reg.GPVirtual
	if cspace {
		Comment("z: the NUL bytes.")
		VPCMPEQB(lo, zero, elo)
		VPCMPEQB(hi, zero, ehi)
		z = mask64(elo, ehi)
	}
	s := GP64()
	XORQ(s, s)

	Comment("One line: from s to the newline at e.")
	Label(name + "_line")
	e, ln := GP64(), GP64()
	TZCNTQ(m, e)
	MOVQ(e, ln)
	SUBQ(s, ln)
	MOVB(ln.As8(), Mem{Base: r, Disp: offLen})
	fl := GP64()
	BZHIQ(e, f, fl)
	SHRXQ(s, fl, fl)
	g := GP64()
	LEAQ(Mem{Base: fl, Index: fl, Scale: 1}, g)
	ends := GP64()
	ANDNQ(g, fl, ends) // g &^ fl: the first byte after each field
	ANDNQ(fl, g, g)    // fl &^ g: the first byte of each field
	starts := g
	k := GP64()
	POPCNTQ(starts, k)
	if cspace {
		zl := GP64()
		BZHIQ(e, z, zl)
		SHRXQ(s, zl, zl)
		TESTQ(zl, zl)
		JZ(LabelRef(name + "_nonul"))
		MOVL(U32(255), k.As32())
		Label(name + "_nonul")
	}
	MOVB(k.As8(), Mem{Base: r, Disp: offN})
	t := GP64()
	for i := range fields {
		TZCNTQ(starts, t)
		MOVB(t.As8(), Mem{Base: r, Disp: offSpan + 2*i})
		TZCNTQ(ends, t)
		MOVB(t.As8(), Mem{Base: r, Disp: offSpan + 2*i + 1})
		if i < fields-1 {
			BLSRQ(starts, starts)
			BLSRQ(ends, ends)
		}
	}
	ADDQ(Imm(recSize), r)
	LEAQ(Mem{Base: e, Disp: 1}, s)
	BLSRQ(m, m)
	JZ(LabelRef(name + "_next"))
	CMPQ(r, rend)
	JB(LabelRef(name + "_line"))
	Label(name + "_next")
	ADDQ(s, p)
	JMP(LabelRef(name + "_block"))

	Label(name + "_done")
	VZEROUPPER()
	Comment("The count of records written.")
	base := Load(Param("recs").Base(), GP64())
	SUBQ(base, r)
	SHRQ(Imm(4), r)
	Store(r, ReturnIndex(0))
	RET()
}
