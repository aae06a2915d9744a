package main

import (
	. "github.com/dave/jennifer/jen" // jennifer is a DSL meant to be dot-imported
)

// rankFunc writes the MAP specialisation's kernel of one list: it sorts
// the keys of the relevant items only (where the general kernel sorts
// every item whose label is not 0) and places every other valid item among
// them with a binary search, which gives each relevant item its rank
// without sorting the list, and stops at the cutoff. Under Random and Expected, the other items that tie with a
// group of relevant items are counted per group, and the group is then
// ordered at random, or averaged over every order in closed form.
func rankFunc(f *File, v variant) {
	lowerBoundFunc(f, v)
	T := Id(v.T)
	ws := func() *Statement { return Id("ws") }
	weight := func(i Code) *Statement { return Id("slotWeight").Call(Id("w"), Id("wc"), i) }
	ret := func(ap, pw, sw, nrel, bad Code) *Statement { return Return(ap, pw, sw, nrel, bad) }
	f.Commentf("mapRank computes in %s the average precision of one list and the parts of", v.T)
	f.Comment("its list weight: pw, the mean weight of its relevant items, sw, a number")
	f.Comment("with the sign of the sum of the weights of all its slots, and nrel, the")
	f.Comment("number of relevant items. When items is true, w holds the item weights;")
	f.Comment("otherwise w is nil and every slot, padding included, weighs wc. n is the")
	f.Comment("padded length and b the list's row in the batch, which places its sums in")
	f.Comment("the flat buffer. unranked relevant items (judged relevant, absent from a")
	f.Comment("run) weigh wc each and count in the AP denominator and in nrel, but take no")
	f.Comment("rank. bad is the index of a valid item whose score is NaN, or -1.")
	f.Func().Params(ws().Op("*").Id(v.ws())).Id("mapRank").Params(
		Id("b").Int(), List(Id("lab"), Id("sc"), Id("w")).Index().Add(T), Id("unranked").Int(), Id("wc").Add(T), Id("items").Bool(), Id("n").Int(),
		Id("ragged").Bool(), Id("topn").Int(), Id("ties").Id("TiePolicy"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Params(
		List(Id("ap"), Id("pw"), Id("sw")).Add(T), List(Id("nrel"), Id("bad")).Int(),
	).Block(
		List(Id("rel"), Id("oth")).Op(":=").List(ws().Dot("keys").Index(Op(":").Lit(0)), ws().Dot("oth").Index(Op(":").Lit(0))),
		Comment("Mask as TF-Ranking does: a slot is valid when its weight is > 0 and,"),
		Comment("in a dense list, its label is >= 0 (which NaN is not). The weighted"),
		Comment("relevance adds up in slot order, as TF's reduce_sum does."),
		Comment("Inputs are read as TF's kernels read them, a subnormal float32 as 0: a"),
		Comment("weight below the least normal is masked, a label above minus it is >= 0."),
		Comment("The weight sums are needed only when the slots weigh other than 1."),
		Id("wc").Op("=").Add(v.ftz(Id("wc"))),
		Id("sums").Op(":=").Id("items").Op("||").Id("wc").Op("!=").Lit(1),
		Var().List(Id("trAcc"), Id("swAcc")).Id(v.Lane),
		If(Id("sums")).Block(
			Id("trAcc").Dot("reset").Call(Id("n"), Id("b").Op("*").Id("n"), Op("&").Add(ws()).Dot("big1")),
			Id("swAcc").Dot("reset").Call(Id("n"), Id("b").Op("*").Id("n"), Op("&").Add(ws()).Dot("big2")),
		),
		packOrLoop(v, For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
			Id("wi").Op(":=").Add(weight(Id("i"))),
			If(Id("items").Op("&&").Id("wi").Op("!=").Lit(0)).Block(Id("swAcc").Dot("add").Call(Id("i"), Id("wi"))),
			If(Op("!").Parens(Id("wi").Op(">=").Id("minPos"+v.Name)).Op("||").Op("!").Parens(Id("ragged").Op("||").Id("l").Op(">").Op("-").Id("minPos"+v.Name))).Block(Continue()),
			Id("s").Op(":=").Add(v.ftz(Id("sc").Index(Id("i")))),
			If(Id("s").Op("!=").Id("s")).Block(
				ret(Lit(0), Lit(0), Lit(0), Lit(0), Id("i")),
			),
			If(Id("l").Op(">=").Lit(1)).Block(
				Id("rel").Op("=").Append(Id("rel"), Id(v.MakeKy).Call(Id("s"), Id("tieBits").Call(Id("ties"), True(), Id("i")))),
				If(Id("sums")).Block(Id("trAcc").Dot("add").Call(Id("i"), Id("wi"))),
			).Else().Block(
				Id("oth").Op("=").Append(Id("oth"), Id(v.MakeKy).Call(Id("s"), Id("tieBits").Call(Id("ties"), False(), Id("i")))),
			),
		)),
		List(ws().Dot("keys"), ws().Dot("oth")).Op("=").List(Id("rel"), Id("oth")),
		Id("nr").Op(":=").Len(Id("rel")),
		Comment("Unit weights sum to the count exactly, in any order, below 2^24;"),
		Comment("from 2^24 on, float32 ones add up in TF's lane order, by position (rel"),
		Comment("holds the relevant items in slot order)."),
		Id("tr").Op(":=").Add(v.conv(Id("nr"))),
		Switch().Block(
			Case(Id("sums")).Block(
				Id("tr").Op("=").Id("trAcc").Dot("result").Call(),
			),
			Case(Id("nr").Op(">=").Lit(1<<24)).Block(
				Id("trAcc").Dot("reset").Call(Id("n"), Id("b").Op("*").Id("n"), Op("&").Add(ws()).Dot("big1")),
				For(List(Id("_"), Id("key")).Op(":=").Range().Id("rel")).Block(
					Id("trAcc").Dot("add").Call(Id("key").Dot("index").Call(), Lit(1)),
				),
				Id("tr").Op("=").Id("trAcc").Dot("result").Call(),
			),
		),
		If(Id("unranked").Op(">").Lit(0)).Block(
			Id("tr").Op("=").Add(v.ftz(Id("tr").Op("+").Add(v.ftz(v.conv(Id("unranked")).Op("*").Id("wc"))))),
		),
		Comment("Only the sign of the weight sum matters: n copies of wc have wc's sign."),
		Id("sw").Op("=").Id("wc"),
		If(Id("items")).Block(
			Id("sw").Op("=").Id("swAcc").Dot("result").Call(),
		).Else().If(Id("n").Op("==").Lit(0)).Block(
			Id("sw").Op("=").Lit(0),
		),
		Id("nrel").Op("=").Id("nr").Op("+").Id("unranked"),
		If(Id("nrel").Op("==").Lit(0)).Block(ret(Lit(0), Lit(0), Id("sw"), Lit(0), Lit(-1))),
		Id("pw").Op("=").Add(v.ftz(Id("tr").Op("/").Add(v.conv(Id("nrel"))))),
		If(Id("nr").Op("==").Lit(0)).Block(ret(Lit(0), Id("pw"), Id("sw"), Id("nrel"), Lit(-1))),
		ws().Dot("sorter").Dot("sort").Call(Id("rel")),
		Line(),
		Comment("ahead[j] counts the other items ranked after relevant item j-1 and"),
		Comment("before relevant item j; under Random and Expected, tied[g] counts those"),
		Comment("whose score equals that of the group of relevant items starting at g."),
		Id("grouped").Op(":=").Id("ties").Op("==").Id("Random").Op("||").Id("ties").Op("==").Id("Expected"),
		Id("ahead").Op(":=").Id("grow").Call(ws().Dot("ahead"), Id("nr").Op("+").Lit(1)),
		Id("tied").Op(":=").Id("grow").Call(ws().Dot("tied"), Id("nr").Op("+").Lit(1)),
		List(ws().Dot("ahead"), ws().Dot("tied")).Op("=").List(Id("ahead"), Id("tied")),
		Clear(Id("ahead")),
		Clear(Id("tied")),
		If(Op("!").Id("grouped")).Block(
			countAhead(v.Key, v.Name, "rel"),
		).Else().Block(
			Id("ends").Op(":=").Append(Id("rel"), Id(v.Sent)),
			ws().Dot("keys").Op("=").Id("ends"),
			countTied(v),
		),
		Id("k").Op(":=").Id("n"),
		If(Id("topn").Op(">=").Lit(0).Op("&&").Id("topn").Op("<").Id("n")).Block(Id("k").Op("=").Id("topn")),
		Line(),
		Comment("The AP numerator: precision at each relevant position within k, times"),
		Comment("the item's weight, added by position (the zero terms TF adds at the"),
		Comment("other positions change no bits)."),
		Var().Id("tp").Id(v.Lane),
		Id("tp").Dot("reset").Call(Id("k"), Id("b").Op("*").Id("k"), Op("&").Add(ws()).Dot("big1")),
		Id("pos").Op(":=").Lit(0),
		apStart(v),
		If(Op("!").Id("grouped")).Block(
			For(List(Id("j"), Id("key")).Op(":=").Range().Id("rel")).Block(
				Id("pos").Op("+=").Id("ahead").Index(Id("j")).Op("+").Lit(1),
				If(Id("pos").Op(">").Id("k")).Block(Break()),
				apTerm(v, Id("pos").Op("-").Lit(1), Id("j").Op("+").Lit(1), Id("pos"), weight(Id("key").Dot("index").Call())),
			),
		),
		For(Id("g").Op(":=").Lit(0), Id("grouped").Op("&&").Id("g").Op("<").Id("nr"), Empty()).Block(
			Id("pos").Op("+=").Id("ahead").Index(Id("g")),
			If(Id("pos").Op(">=").Id("k")).Block(Break()),
			Id("e").Op(":=").Id("g").Op("+").Lit(1),
			For(Id("e").Op("<").Id("nr").Op("&&").Id("rel").Index(Id("e")).Dot("score").Call().Op("==").Id("rel").Index(Id("g")).Dot("score").Call()).Block(Id("e").Op("++")),
			List(Id("r"), Id("nt")).Op(":=").List(Id("e").Op("-").Id("g"), Id("e").Op("-").Id("g").Op("+").Id("tied").Index(Id("g"))),
			Switch().Block(
				Case(Id("nt").Op("==").Lit(1)).Block(
					apTerm(v, Id("pos"), Id("g").Op("+").Lit(1), Id("pos").Op("+").Lit(1), weight(Id("rel").Index(Id("g")).Dot("index").Call())),
				),
				Case(Id("ties").Op("==").Id("Expected")).Block(
					Comment("Each relevant item of the group is at group position j with"),
					Comment("probability 1/nt, behind (j-1)(r-1)/(nt-1) others of the group on average."),
					Id("wr").Op(":=").Lit(0.0),
					For(List(Id("_"), Id("key")).Op(":=").Range().Id("rel").Index(Id("g").Op(":").Id("e"))).Block(
						Id("wr").Op("+=").Float64().Call(weight(Id("key").Dot("index").Call())),
					),
					For(Id("j").Op(":=").Lit(1), Id("j").Op("<=").Id("nt").Op("&&").Id("pos").Op("+").Id("j").Op("<=").Id("k"), Id("j").Op("++")).Block(
						Id("before").Op(":=").Float64().Call(Id("g")).Op("+").Float64().Call(Id("j").Op("-").Lit(1)).Op("*").Float64().Call(Id("r").Op("-").Lit(1)).Op("/").Float64().Call(Id("nt").Op("-").Lit(1)),
						apValue(v, Id("pos").Op("+").Id("j").Op("-").Lit(1), v.ftz(v.conv(Id("wr").Op("/").Float64().Call(Id("nt")).Op("*").Parens(Id("before").Op("+").Lit(1)).Op("/").Float64().Call(Id("pos").Op("+").Id("j"))))),
					),
				),
				Default().Block(
					Comment("A uniformly random order of the group: the relevant items in"),
					Comment("random order, at a uniformly random choice of r of the nt positions."),
					For(Id("i").Op(":=").Id("e").Op("-").Lit(1), Id("i").Op(">").Id("g"), Id("i").Op("--")).Block(
						Id("j").Op(":=").Id("g").Op("+").Id("rng").Dot("IntN").Call(Id("i").Op("-").Id("g").Op("+").Lit(1)),
						List(Id("rel").Index(Id("i")), Id("rel").Index(Id("j"))).Op("=").List(Id("rel").Index(Id("j")), Id("rel").Index(Id("i"))),
					),
					Id("placed").Op(":=").Lit(0),
					For(Id("j").Op(":=").Lit(1), Id("placed").Op("<").Id("r").Op("&&").Id("pos").Op("+").Id("j").Op("<=").Id("k"), Id("j").Op("++")).Block(
						If(Id("rng").Dot("IntN").Call(Id("nt").Op("-").Id("j").Op("+").Lit(1)).Op("<").Id("r").Op("-").Id("placed")).Block(
							apTerm(v, Id("pos").Op("+").Id("j").Op("-").Lit(1), Id("g").Op("+").Id("placed").Op("+").Lit(1), Id("pos").Op("+").Id("j"), weight(Id("rel").Index(Id("g").Op("+").Id("placed")).Dot("index").Call())),
							Id("placed").Op("++"),
						),
					),
				),
			),
			Id("pos").Op("+=").Id("nt"),
			Id("g").Op("=").Id("e"),
		),
		apFinish(v),
		If(Id("tr").Op("!=").Lit(0)).Block(Id("ap").Op("=").Add(v.ftz(Id("tp").Dot("result").Call().Op("/").Id("tr")))),
		ret(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Lit(-1)),
	)
}

// packOrLoop returns the masking loop of mapRank under the test of the
// vector kernel: with unit slot weights, packKeys32 (metric/pack.go) or
// packKeys64 (metric/pack64.go) masks and packs on AVX2.
func packOrLoop(v variant, loop Code) Code {
	pack := map[string]string{"key32": "packKeys32", "key64": "packKeys64"}[v.Key]
	if pack == "" {
		return loop
	}
	return If(Id("ws").Dot("packVec").Call().Op("&&").Op("!").Id("items").Op("&&").Id("wc").Op("==").Lit(1)).Block(
		Var().Id("bad").Int(),
		List(Id("rel"), Id("oth"), Id("_"), Id("_"), Id("bad")).Op("=").Id(pack).Call(Id("lab"), Id("sc"), Id("rel"), Id("oth"), Lit(1), Id("ragged"), Id("packRelevant"), Id("ties")),
		If(Id("bad").Op(">=").Lit(0)).Block(Return(Lit(0), Lit(0), Lit(0), Lit(0), Id("bad"))),
	).Else().Block(loop)
}

// countAhead writes ahead[lowerBound(sorted, key)]++ for each key of oth:
// a call of countAhead32 (metric/ahead.go) or countAhead64
// (metric/ahead64.go), which count with vector comparisons where the CPU
// has them.
func countAhead(key, name, sorted string) Code {
	switch key {
	case "key32":
		return Id("countAhead32").Call(Id(sorted), Id("oth"), Id("ahead"))
	case "key64":
		return Id("countAhead64").Call(Id(sorted), Id("oth"), Id("ahead"))
	}
	return For(List(Id("_"), Id("key")).Op(":=").Range().Id("oth")).Block(
		Id("ahead").Index(Id("lowerBound"+name).Call(Id(sorted), Id("key"))).Op("++"),
	)
}

// countTied writes the split of the other keys into ahead and tied under
// Random and Expected: a call of countTied32 (metric/ahead.go) or
// countTied64 (metric/ahead64.go), which count with vector comparisons where
// the CPU has them.
func countTied(v variant) Code {
	switch v.Key {
	case "key32":
		return Id("countTied32").Call(Id("ends"), Id("oth"), Id("ahead"), Id("tied"))
	case "key64":
		return Id("countTied64").Call(Id("ends"), Id("oth"), Id("ahead"), Id("tied"))
	}
	return For(List(Id("_"), Id("key")).Op(":=").Range().Id("oth")).Block(
		Id("p").Op(":=").Id("lowerBound"+v.Name).Call(Id("rel"), Id("key").Dot("floor").Call()),
		If(Id("ends").Index(Id("p")).Dot("score").Call().Op("==").Id("key").Dot("score").Call()).Block(
			Id("tied").Index(Id("p")).Op("++"),
		).Else().Block(
			Id("ahead").Index(Id("p")).Op("++"),
		),
	)
}

// lowerBoundFunc writes a binary search over sorted keys. The comparison is
// the borrow of a subtraction, so the search has no data-dependent branch to
// mispredict.
func lowerBoundFunc(f *File, v variant) {
	at := func(i Code) *Statement { return Id("sorted").Index(i) }
	f.Commentf("lowerBound%s returns the number of keys in sorted that are less than k.", v.Name)
	var step, last []Code
	if v.Key == "key32" {
		borrow := func(i Code) *Statement {
			return List(Id("_"), Id("b")).Op(":=").Qual("math/bits", "Sub64").Call(Uint64().Call(at(i)), Uint64().Call(Id("k")), Lit(0))
		}
		step = []Code{
			borrow(Id("lo").Op("+").Id("half").Op("-").Lit(1)),
			Id("lo").Op("+=").Id("half").Op("*").Int().Call(Id("b")),
		}
		last = []Code{If(Id("n").Op("==").Lit(1)).Block(
			borrow(Id("lo")),
			Id("lo").Op("+=").Int().Call(Id("b")),
		)}
	} else {
		// The key is the 96-bit number s:tb; its comparison is the borrow
		// out of a subtraction of the tie-break bits, then of the scores.
		borrow := func(i Code) *Statement {
			return List(Id("_"), Id("bt")).Op(":=").Qual("math/bits", "Sub64").Call(Uint64().Call(at(i).Dot("tb")), Uint64().Call(Id("k").Dot("tb")), Lit(0)).Line().
				List(Id("_"), Id("b")).Op(":=").Qual("math/bits", "Sub64").Call(at(i.(*Statement).Clone()).Dot("s"), Id("k").Dot("s"), Id("bt"))
		}
		step = []Code{
			borrow(Id("lo").Op("+").Id("half").Op("-").Lit(1)),
			Id("lo").Op("+=").Id("half").Op("*").Int().Call(Id("b")),
		}
		last = []Code{If(Id("n").Op("==").Lit(1)).Block(
			borrow(Id("lo")),
			Id("lo").Op("+=").Int().Call(Id("b")),
		)}
	}
	body := []Code{List(Id("lo"), Id("n")).Op(":=").List(Lit(0), Len(Id("sorted")))}
	loop := append([]Code{Id("half").Op(":=").Id("n").Op("/").Lit(2)}, step...)
	loop = append(loop, Id("n").Op("-=").Id("half"))
	body = append(body, For(Id("n").Op(">").Lit(1)).Block(loop...))
	body = append(body, last...)
	body = append(body, Return(Id("lo")))
	f.Func().Id("lowerBound"+v.Name).Params(Id("sorted").Index().Id(v.Key), Id("k").Id(v.Key)).Int().Block(body...)
}

// The AP terms of mapRank. In float64 each term is added to the lane sum tp
// as it is found. For packed float32 keys the loops only record each term's
// position, numerator, denominator and weight in ws.apPos, apNum, apDen and
// apW; tp.addTerms (metric/sum.go) then computes the terms with vec.Terms32,
// eight at a time on AVX2, with the same float32 division, multiplication
// and flush per term, and adds them in position order, as tp.add would.

// apBuffers declares the float32 workspace's buffers of the AP terms.
func apBuffers(key string) Code {
	if key != "key32" {
		return Null()
	}
	return Comment("apPos, apNum, apDen and apW hold the positions and operands of the AP\n"+
		"terms of mapRank, apNum then the terms.").Line().
		Id("apPos").Index().Int().Line().
		List(Id("apNum"), Id("apDen"), Id("apW")).Index().Float32()
}

// apStart takes the buffers of the AP terms.
func apStart(v variant) Code {
	if v.Key != "key32" {
		return Null()
	}
	ws := Id("ws")
	return Id("m").Op(":=").Lit(0).Line().
		List(Id("aps"), Id("apn"), Id("apd"), Id("apw")).Op(":=").List(
		Id("grow").Call(ws.Clone().Dot("apPos"), Id("k")), Id("grow").Call(ws.Clone().Dot("apNum"), Id("k")),
		Id("grow").Call(ws.Clone().Dot("apDen"), Id("k")), Id("grow").Call(ws.Clone().Dot("apW"), Id("k")))
}

// apTerm adds the term float32(num/den) * weight at position p.
func apTerm(v variant, p, num, den, weight Code) Code {
	if v.Key != "key32" {
		return Id("tp").Dot("add").Call(p, v.ftz(v.conv(v.conv(num).Op("/").Add(v.conv(den))).Op("*").Add(weight)))
	}
	return apAppend(p, v.conv(num), v.conv(den), weight)
}

// apValue adds the flushed term x at position p: x / 1 * 1 is x.
func apValue(v variant, p, x Code) Code {
	if v.Key != "key32" {
		return Id("tp").Dot("add").Call(p, x)
	}
	return apAppend(p, x, Lit(1), Lit(1))
}

func apAppend(p, num, den, weight Code) Code {
	return List(Id("aps").Index(Id("m")), Id("apn").Index(Id("m")), Id("apd").Index(Id("m")), Id("apw").Index(Id("m"))).Op("=").List(p, num, den, weight).
		Line().Id("m").Op("++")
}

// apFinish computes the recorded terms and adds them.
func apFinish(v variant) Code {
	if v.Key != "key32" {
		return Null()
	}
	ws := Id("ws")
	return List(ws.Clone().Dot("apPos"), ws.Clone().Dot("apNum"), ws.Clone().Dot("apDen"), ws.Clone().Dot("apW")).Op("=").List(Id("aps"), Id("apn"), Id("apd"), Id("apw")).
		Line().Id("tp").Dot("addTerms").Call(Id("aps").Index(Op(":").Id("m")), Id("apn"), Id("apd"), Id("apw"))
}
