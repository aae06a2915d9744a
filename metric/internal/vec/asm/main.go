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
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("amd64,!purego")
	packets32()
	countLE()
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
		"countLEAVX2 is countLEGo on AVX2 for len(xs) a multiple of 4: it sets",
		"counts[j] to the number of elements of xs that are <= pivots[j], unsigned;",
		"len(counts) >= len(pivots).",
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

	last := GP64()
	MOVQ(np, last)
	DECQ(last)
	j := GP64()
	XORQ(j, j)

	Comment("Four pivots at a time, the last one repeated to fill the last block.")
	Label("block")
	CMPQ(j, np)
	JAE(LabelRef("done"))
	var pv, acc [4]reg.VecVirtual
	for k := range pv {
		t := GP64()
		MOVQ(j, t)
		if k > 0 {
			ADDQ(Imm(uint64(k)), t)
		}
		CMPQ(t, last)
		CMOVQHI(last, t)
		px := XMM()
		VMOVQ(Mem{Base: pp, Index: t, Scale: 8}, px)
		pv[k] = YMM()
		VPBROADCASTQ(px, pv[k])
		VPXOR(sign, pv[k], pv[k])
		acc[k] = YMM()
		VPXOR(acc[k], acc[k], acc[k])
	}
	i := GP64()
	XORQ(i, i)

	Comment("acc[k] counts, lane by lane, the elements greater than pivot k.")
	Label("vector")
	CMPQ(i, n)
	JAE(LabelRef("reduce"))
	x := YMM()
	VPXOR(Mem{Base: xp, Index: i, Scale: 8}, sign, x)
	for k := range pv {
		gt := YMM()
		VPCMPGTQ(pv[k], x, gt)
		VPSUBQ(gt, acc[k], acc[k])
	}
	ADDQ(Imm(4), i)
	JMP(LabelRef("vector"))

	Label("reduce")
	for k := range acc {
		if k > 0 {
			t := GP64()
			MOVQ(j, t)
			ADDQ(Imm(uint64(k)), t)
			CMPQ(t, np)
			JAE(LabelRef("next"))
		}
		hi := XMM()
		VEXTRACTI128(Imm(1), acc[k], hi)
		lo := acc[k].AsX()
		VPADDQ(hi, lo, lo)
		VPSHUFD(Imm(0x4e), lo, hi)
		VPADDQ(hi, lo, lo)
		gt := GP64()
		VMOVQ(lo, gt)
		le := GP64()
		MOVQ(n, le)
		SUBQ(gt, le)
		MOVQ(le, Mem{Base: cp, Index: j, Scale: 8, Disp: 8 * k})
	}
	Label("next")
	ADDQ(Imm(4), j)
	JMP(LabelRef("block"))

	Label("done")
	VZEROUPPER()
	RET()
}
