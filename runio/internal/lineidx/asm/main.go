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
// a NUL byte in a line marks its record) or every byte up to ' '.
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
	nr := Load(Param("recs").Len(), GP64())
	count := GP64()
	XORQ(count, count)

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
	c255 := GP64()
	if cspace {
		MOVQ(U32(255), c255)
	}

	Label(name + "_loop")
	CMPQ(p, end)
	JA(LabelRef(name + "_done"))
	CMPQ(count, nr)
	JAE(LabelRef(name + "_done"))
	lo, hi := YMM(), YMM()
	VMOVDQU(Mem{Base: p}, lo)
	VMOVDQU(Mem{Base: p, Disp: 32}, hi)

	Comment("The line ends at the first newline; none in 64 bytes: stop.")
	elo, ehi := YMM(), YMM()
	VPCMPEQB(lo, nl, elo)
	VPCMPEQB(hi, nl, ehi)
	nlm := mask64(elo, ehi)
	TESTQ(nlm, nlm)
	JZ(LabelRef(name + "_done"))
	ln := GP64()
	TZCNTQ(nlm, ln)

	Comment("sep: the separator bytes.")
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
	Comment("f: the field bytes of the line.")
	NOTQ(f)
	BZHIQ(ln, f, f)
	g := GP64()
	LEAQ(Mem{Base: f, Index: f, Scale: 1}, g)
	starts, ends := GP64(), GP64()
	ANDNQ(g, f, ends)   // g &^ f: the first byte after each field
	ANDNQ(f, g, starts) // f &^ g: the first byte of each field
	k := GP64()
	POPCNTQ(starts, k)
	if cspace {
		Comment("A NUL byte in the line: count 255.")
		VPCMPEQB(lo, zero, elo)
		VPCMPEQB(hi, zero, ehi)
		z := mask64(elo, ehi)
		BZHIQ(ln, z, z)
		TESTQ(z, z)
		CMOVQNE(c255, k)
	}
	MOVB(ln.As8(), Mem{Base: r, Disp: offLen})
	MOVB(k.As8(), Mem{Base: r, Disp: offN})
	Comment("The first fields' spans.")
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
	LEAQ(Mem{Base: p, Index: ln, Scale: 1, Disp: 1}, p)
	ADDQ(Imm(recSize), r)
	INCQ(count)
	JMP(LabelRef(name + "_loop"))

	Label(name + "_done")
	VZEROUPPER()
	Store(count, ReturnIndex(0))
	RET()
}
