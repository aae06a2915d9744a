package main

import (
	. "github.com/dave/jennifer/jen" // jennifer is a DSL meant to be dot-imported
)

// kernelTestFile writes the tests of one variant: the kernel against the
// naive reference of reference_test.go on random batches under every
// deterministic tie policy, and the allocation count of a steady-state
// update.
func kernelTestFile(v variant) *File {
	f := NewFile("metric")
	f.HeaderComment(header)
	t := Id("t")

	f.Commentf("TestCompute%sMatchesReference checks the %s kernel, bit for bit, against the", v.Name, v.T)
	f.Comment("naive reference on random dense and ragged batches.")
	f.Func().Id("TestCompute"+v.Name+"MatchesReference").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("n").Op(":=").Lit(0),
		For(List(Id("_"), Id("tc")).Op(":=").Range().Id("randomBatches").Call(Lit(400), Lit(int64(len(v.T))))).Block(
			For(List(Id("_"), Id("ties")).Op(":=").Range().Index().Id("TiePolicy").Values(Id("Stable"), Id("Pessimistic"), Id("Optimistic"), Id("Expected"))).Block(
				Id("want").Op(":=").Id("referenceCompute").Index(Id(v.T)).Call(Id("tc"), Id("ties")),
				Id("got").Op(":=").Id("computeCase").Call(t, Id("tc"), Id(v.DType), Id("ties")),
				Id("comparePerList").Call(t, Id("tc"), Id("ties"), Id("got"), Id("want"), Lit(v.Tol)),
				Id("n").Op("++"),
			),
		),
		If(Id("n").Op("<").Lit(1000)).Block(t.Clone().Dot("Fatalf").Call(Lit("only %d comparisons ran"), Id("n"))),
	)

	f.Commentf("TestUpdate%sAllocatesNothing checks that a steady-state %s update allocates", v.Name, v.T)
	f.Comment("nothing, for every tie policy and weight kind.")
	f.Func().Id("TestUpdate" + v.Name + "AllocatesNothing").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkUpdateAllocs").Call(t, Id(v.DType)),
	)
	return f
}
