package main

import (
	. "github.com/dave/jennifer/jen" // jennifer is a DSL meant to be dot-imported
)

// rankFunc writes the fast path of one list: it sorts the keys of the
// relevant items only and places every other valid item among them with a
// binary search, which gives each relevant item its rank without sorting
// the list. It reports ok = false, and the caller takes the sorting path,
// when the policy is Random or Expected and a tie touches a relevant item.
func rankFunc(f *File, v variant) {
	lowerBoundFunc(f, v)
	T := Id(v.T)
	ws := func() *Statement { return Id("ws") }
	weight := func(i Code) *Statement { return Id("slotWeight").Call(Id("w"), Id("wc"), i) }
	f.Commentf("rank computes in %s what list computes, without sorting the whole list:", v.T)
	f.Comment("it sorts the relevant items' keys and counts, with a binary search per")
	f.Comment("other valid item, the items ranked ahead of each. When items is true, w")
	f.Comment("holds the item weights; otherwise w is nil and every slot, padding included,")
	f.Comment("weighs wc. n is the padded length. ok is false")
	f.Comment("when the policy is Random or Expected and a tie touches a relevant item:")
	f.Comment("the caller must then use list.")
	f.Func().Params(ws().Op("*").Id(v.ws())).Id("rank").Params(
		List(Id("lab"), Id("sc"), Id("w")).Index().Add(T), Id("wc").Add(T), Id("items").Bool(), Id("n").Int(),
		Id("ragged").Bool(), Id("topn").Int(), Id("ties").Id("TiePolicy"),
	).Params(
		List(Id("ap"), Id("pw"), Id("sw")).Add(T), List(Id("nrel"), Id("bad")).Int(), Id("ok").Bool(),
	).Block(
		List(Id("rel"), Id("oth")).Op(":=").List(ws().Dot("rel").Index(Op(":").Lit(0)), ws().Dot("keys").Index(Op(":").Lit(0))),
		Comment("Weighted relevance, in slot order as TF's reduce_sum adds it."),
		Var().Id("tr").Add(T),
		For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
			Id("wi").Op(":=").Add(weight(Id("i"))),
			If(Op("!").Parens(Id("wi").Op(">").Lit(0)).Op("||").Op("!").Parens(Id("ragged").Op("||").Id("l").Op(">=").Lit(0))).Block(Continue()),
			If(Id("sc").Index(Id("i")).Op("!=").Id("sc").Index(Id("i"))).Block(
				Return(Lit(0), Lit(0), Lit(0), Lit(0), Id("i"), True()),
			),
			If(Id("l").Op(">=").Lit(1)).Block(
				Id("rel").Op("=").Append(Id("rel"), Id(v.MakeKy).Call(Id("sc").Index(Id("i")), Id("tieBits").Call(Id("ties"), True(), Id("i")))),
				Id("tr").Op("+=").Id("wi"),
			).Else().Block(
				Id("oth").Op("=").Append(Id("oth"), Id(v.MakeKy).Call(Id("sc").Index(Id("i")), Id("tieBits").Call(Id("ties"), False(), Id("i")))),
			),
		),
		List(ws().Dot("rel"), ws().Dot("keys")).Op("=").List(Id("rel"), Id("oth")),
		Id("sw").Op("=").Id("wc"),
		If(Id("items")).Block(
			Id("sw").Op("=").Id("sum"+v.Name).Call(Id("w")),
		).Else().If(Id("n").Op("==").Lit(0)).Block(
			Id("sw").Op("=").Lit(0),
		),
		Id("nrel").Op("=").Len(Id("rel")),
		If(Id("nrel").Op("==").Lit(0)).Block(Return(Lit(0), Lit(0), Id("sw"), Lit(0), Lit(-1), True())),
		Id("pw").Op("=").Id("tr").Op("/").Add(v.conv(Id("nrel"))),
		Id(v.Sort).Call(Id("rel")),
		Id("exact").Op(":=").Id("ties").Op("!=").Id("Random").Op("&&").Id("ties").Op("!=").Id("Expected"),
		If(Op("!").Id("exact")).Block(
			For(Id("j").Op(":=").Lit(1), Id("j").Op("<").Len(Id("rel")), Id("j").Op("++")).Block(
				If(Id("rel").Index(Id("j")).Dot("score").Call().Op("==").Id("rel").Index(Id("j").Op("-").Lit(1)).Dot("score").Call()).Block(
					Return(Lit(0), Lit(0), Lit(0), Lit(0), Lit(-1), False()),
				),
			),
		),
		Comment("ahead[j] counts the other items ranked between relevant items j-1 and j."),
		Id("ahead").Op(":=").Id("grow").Call(ws().Dot("ahead"), Id("nrel").Op("+").Lit(1)),
		ws().Dot("ahead").Op("=").Id("ahead"),
		Clear(Id("ahead")),
		For(List(Id("_"), Id("key")).Op(":=").Range().Id("oth")).Block(
			Id("p").Op(":=").Id("lowerBound"+v.Name).Call(Id("rel"), Id("key")),
			If(Op("!").Id("exact").Op("&&").Parens(
				Id("p").Op("<").Id("nrel").Op("&&").Id("rel").Index(Id("p")).Dot("score").Call().Op("==").Id("key").Dot("score").Call().Op("||").
					Id("p").Op(">").Lit(0).Op("&&").Id("rel").Index(Id("p").Op("-").Lit(1)).Dot("score").Call().Op("==").Id("key").Dot("score").Call(),
			)).Block(
				Return(Lit(0), Lit(0), Lit(0), Lit(0), Lit(-1), False()),
			),
			Id("ahead").Index(Id("p")).Op("++"),
		),
		Id("k").Op(":=").Id("n"),
		If(Id("topn").Op(">=").Lit(0).Op("&&").Id("topn").Op("<").Id("n")).Block(Id("k").Op("=").Id("topn")),
		Comment("The AP numerator: precision at each relevant rank within k, times the"),
		Comment("item's weight, added in rank order; the zero terms TF adds between them"),
		Comment("change no bits."),
		Var().Id("tp").Add(T),
		Id("pos").Op(":=").Lit(0),
		For(List(Id("j"), Id("key")).Op(":=").Range().Id("rel")).Block(
			Id("pos").Op("+=").Id("ahead").Index(Id("j")).Op("+").Lit(1),
			If(Id("pos").Op(">").Id("k")).Block(Break()),
			Id("tp").Op("+=").Add(v.conv(v.conv(Id("j").Op("+").Lit(1)).Op("/").Add(v.conv(Id("pos"))))).Op("*").Add(weight(Id("key").Dot("index").Call())),
		),
		If(Id("tr").Op("!=").Lit(0)).Block(Id("ap").Op("=").Id("tp").Op("/").Id("tr")),
		Return(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Lit(-1), True()),
	)
}

// lowerBoundFunc writes a branch-free binary search over sorted keys.
func lowerBoundFunc(f *File, v variant) {
	at := func(i Code) *Statement { return Id("sorted").Index(i) }
	f.Commentf("lowerBound%s returns the number of keys in sorted that are less than k.", v.Name)
	f.Func().Id("lowerBound"+v.Name).Params(Id("sorted").Index().Id(v.Key), Id("k").Id(v.Key)).Int().Block(
		List(Id("lo"), Id("n")).Op(":=").List(Lit(0), Len(Id("sorted"))),
		For(Id("n").Op(">").Lit(1)).Block(
			Id("half").Op(":=").Id("n").Op("/").Lit(2),
			If(v.Less(at(Id("lo").Op("+").Id("half").Op("-").Lit(1)), Id("k"))).Block(Id("lo").Op("+=").Id("half")),
			Id("n").Op("-=").Id("half"),
		),
		If(Id("n").Op("==").Lit(1).Op("&&").Parens(v.Less(at(Id("lo")), Id("k")))).Block(Id("lo").Op("++")),
		Return(Id("lo")),
	)
}
