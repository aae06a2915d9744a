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
	listFunc(f, v)

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

	f.Commentf("TestRank%sMatchesList checks the %s kernel against the sorting kernel", v.Name, v.T)
	f.Comment("on the same lists, bit for bit, under every deterministic tie policy.")
	f.Func().Id("TestRank"+v.Name+"MatchesList").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Var().Id("ws").Id(v.ws()),
		Id("rng").Op(":=").Qual(randPath, "New").Call(Qual(randPath, "NewPCG").Call(Lit(1), Lit(2))),
		Id("answered").Op(":=").Lit(0),
		For(List(Id("_"), Id("lc")).Op(":=").Range().Id("randomLists").Index(Id(v.T)).Call(Lit(2000))).Block(
			For(List(Id("_"), Id("ties")).Op(":=").Range().Id("allPolicies")).Block(
				If(Id("ties").Op("==").Id("Random")).Block(Continue()),
				List(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Id("bad")).Op(":=").Id("ws").Dot("rank").Call(
					Lit(0), Id("lc").Dot("lab"), Id("lc").Dot("sc"), Id("lc").Dot("items"), Lit(0), Id("lc").Dot("wc"), Id("lc").Dot("items").Op("!=").Nil(),
					Len(Id("lc").Dot("w")), Id("lc").Dot("ragged"), Id("lc").Dot("topn"), Id("ties"), Id("rng")),
				Id("answered").Op("++"),
				List(Id("ap2"), Id("pw2"), Id("sw2"), Id("nrel2"), Id("bad2")).Op(":=").Id("ws").Dot("list").Call(
					Id("lc").Dot("lab"), Id("lc").Dot("sc"), Id("lc").Dot("w"), Id("lc").Dot("ragged"), Id("lc").Dot("topn"), Id("ties"), Id("rng")),
				If(Id("ap").Op("!=").Id("ap2").Op("||").Id("pw").Op("!=").Id("pw2").Op("||").Parens(Id("sw").Op(">").Lit(0)).Op("!=").Parens(Id("sw2").Op(">").Lit(0)).Op("||").Id("nrel").Op("!=").Id("nrel2").Op("||").Id("bad").Op("!=").Id("bad2")).Block(
					t.Clone().Dot("Fatalf").Call(Lit("%s: rank (%v %v %v %d %d), list (%v %v %v %d %d); list %+v"),
						Id("ties"), Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Id("bad"), Id("ap2"), Id("pw2"), Id("sw2"), Id("nrel2"), Id("bad2"), Id("lc")),
				),
			),
		),
		If(Id("answered").Op("<").Lit(4000)).Block(t.Clone().Dot("Fatalf").Call(Lit("only %d comparisons ran"), Id("answered"))),
	)

	f.Commentf("TestUpdate%sAllocatesNothing checks that a steady-state %s update allocates", v.Name, v.T)
	f.Comment("nothing, for every tie policy and weight kind.")
	f.Func().Id("TestUpdate" + v.Name + "AllocatesNothing").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkUpdateAllocs").Call(t, Id(v.DType)),
	)
	return f
}
