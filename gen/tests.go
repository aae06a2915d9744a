package main

import (
	. "github.com/dave/jennifer/jen" // jennifer is a DSL meant to be dot-imported
)

// mapTests writes the tests of one variant's MAP specialisation: the
// kernel against the naive reference of reference_test.go on random batches
// under every deterministic tie policy, mapRank against the sorting kernel
// mapList, and the allocation count of a steady-state update.
func mapTests(f *File, v variant) {
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
				List(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Id("bad")).Op(":=").Id("ws").Dot("mapRank").Call(
					Lit(0), Id("lc").Dot("lab"), Id("lc").Dot("sc"), Id("lc").Dot("items"), Lit(0), Id("lc").Dot("wc"), Id("lc").Dot("items").Op("!=").Nil(),
					Len(Id("lc").Dot("w")), Id("lc").Dot("ragged"), Id("lc").Dot("topn"), Id("ties"), Id("rng")),
				Id("answered").Op("++"),
				List(Id("ap2"), Id("pw2"), Id("sw2"), Id("nrel2"), Id("bad2")).Op(":=").Id("ws").Dot("mapList").Call(
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
}

func listFunc(f *File, v variant) {
	T := Id(v.T)
	ws := Id("ws")
	f.Commentf("mapList is the sorting kernel the tests check mapRank against: it computes in %s", v.T)
	f.Comment("what mapRank computes by sorting every valid item, then summing a term per")
	f.Comment("position. It computes the average precision of one list and the parts of its")
	f.Comment("list weight: pw, the mean weight of its relevant items, sw, the sum of the")
	f.Comment("weights of all its slots, and nrel, the number of relevant items. lab and sc")
	f.Comment("hold the list's items; w holds the weights of every slot, ragged padding")
	f.Comment("included, so len(w) is the padded length. bad is the index of an unmasked")
	f.Comment("item whose score is NaN, or -1.")
	f.Func().Params(ws.Clone().Op("*").Id(v.ws())).Id("mapList").Params(
		List(Id("lab"), Id("sc"), Id("w")).Index().Add(T),
		Id("ragged").Bool(), Id("topn").Int(), Id("ties").Id("TiePolicy"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Params(
		List(Id("ap"), Id("pw"), Id("sw")).Add(T), List(Id("nrel"), Id("bad")).Int(),
	).Block(
		Id("n").Op(":=").Len(Id("w")),
		Comment("Mask as TF-Ranking does: a slot is valid when its weight is > 0 and,"),
		Comment("in a dense list, its label is >= 0 (which NaN is not)."),
		Id("keys").Op(":=").Add(ws).Dot("keys").Index(Op(":").Lit(0)),
		For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
			If(Op("!").Parens(Id("w").Index(Id("i")).Op(">").Lit(0)).Op("||").Op("!").Parens(Id("ragged").Op("||").Id("l").Op(">=").Lit(0))).Block(Continue()),
			If(Id("sc").Index(Id("i")).Op("!=").Id("sc").Index(Id("i"))).Block(
				Return(Lit(0), Lit(0), Lit(0), Lit(0), Id("i")),
			),
			Id("rel").Op(":=").Id("l").Op(">=").Lit(1),
			If(Id("rel")).Block(Id("nrel").Op("++")),
			Id("keys").Op("=").Append(Id("keys"), Id(v.MakeKy).Call(Id("sc").Index(Id("i")), Id("tieBits").Call(Id("ties"), Id("rel"), Id("i")))),
		),
		ws.Clone().Dot("keys").Op("=").Id("keys"),
		Id(v.Sort).Call(Id("keys")),
		Line(),
		Comment("The weighted relevance of the whole list, whatever topn is: the AP"),
		Comment("denominator, and the numerator of the mean relevant weight."),
		Id("terms").Op(":=").Make(Index().Add(T), Id("n")),
		For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
			If(Id("l").Op(">=").Lit(1).Op("&&").Id("w").Index(Id("i")).Op(">").Lit(0)).Block(
				Id("terms").Index(Id("i")).Op("=").Id("w").Index(Id("i")),
			),
		),
		Id("tr").Op(":=").Id(v.sum()).Call(Id("terms"), Lit(0)),
		Id("sw").Op("=").Id(v.sum()).Call(Id("w"), Lit(0)),
		If(Id("nrel").Op(">").Lit(0)).Block(
			Id("pw").Op("=").Add(v.ftz(Id("tr").Op("/").Add(v.conv(Id("nrel"))))),
		),
		Id("k").Op(":=").Id("n"),
		If(Id("topn").Op(">=").Lit(0).Op("&&").Id("topn").Op("<").Id("n")).Block(Id("k").Op("=").Id("topn")),
		Line(),
		Comment("One summand per position 1..k, zero where the item is not relevant,"),
		Comment("as TF sums precision@k * weight * relevance over the top k."),
		Id("terms").Op("=").Id("terms").Index(Op(":").Id("k")),
		Clear(Id("terms")),
		If(Id("ties").Op("==").Id("Expected")).Block(
			Id("expectedTerms").Call(Id("keys"), Id("lab"), Id("w"), Id("terms")),
		).Else().Block(
			If(Id("ties").Op("==").Id("Random")).Block(
				Id("shuffleTies").Call(Id("keys"), Id("rng")),
			),
			Id("cnt").Op(":=").Lit(0),
			For(List(Id("j"), Id("key")).Op(":=").Range().Id("keys").Index(Op(":").Min(Id("k"), Len(Id("keys"))))).Block(
				Id("i").Op(":=").Id("key").Dot("index").Call(),
				If(Id("lab").Index(Id("i")).Op(">=").Lit(1)).Block(
					Id("cnt").Op("++"),
					Id("terms").Index(Id("j")).Op("=").Add(v.ftz(v.conv(v.conv(Id("cnt")).Op("/").Add(v.conv(Id("j").Op("+").Lit(1)))).Op("*").Id("w").Index(Id("i")))),
				),
			),
		),
		If(Id("tr").Op("!=").Lit(0)).Block(
			Id("ap").Op("=").Add(v.ftz(Id(v.sum()).Call(Id("terms"), Lit(0)).Op("/").Id("tr"))),
		),
		Return(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Lit(-1)),
	)
}
