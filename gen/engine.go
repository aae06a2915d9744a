package main

import (
	"bytes"
	"fmt"

	. "github.com/dave/jennifer/jen" // jennifer is a DSL meant to be dot-imported
)

// familyFiles returns the generated files of the other ranking metrics for
// variant v: the family kernels (engine_T.go), which rank each list once
// and compute every metric of a plan from that ranking, and their tests
// (engine_T_test.go).
func familyFiles(v variant) ([]file, error) {
	var files []file
	for _, f := range []struct {
		name string
		make func(variant) *File
	}{
		{"engine_" + v.T + ".go", familyFile},
		{"engine_" + v.T + "_test.go", familyTestFile},
	} {
		var buf bytes.Buffer
		if err := f.make(v).Render(&buf); err != nil {
			return nil, fmt.Errorf("render %s: %w", f.name, err)
		}
		files = append(files, file{f.name, buf.Bytes()})
	}
	return files, nil
}

// fam holds the names of one variant's family kernel.
type fam struct {
	variant
	bits string // "32" or "64": the suffix of the gain and discount helpers
}

func (f fam) ws() string  { return "fam" + f.Name }
func (f fam) out() string { return "famOut" + f.Name }
func (f fam) is32() bool  { return f.T == "float32" }

// t returns the variant's element type.
func (f fam) t() *Statement { return Id(f.T) }

// conv converts x to the element type.
func (f fam) conv(x Code) *Statement { return Id(f.T).Call(x) }

// w returns the flushed weight of slot i, from w or the constant wc.
func (f fam) w(i Code) *Statement { return f.ftz(Id("slotWeight").Call(Id("w"), Id("wc"), i)) }

// lab returns the flushed label of slot i.
func (f fam) lab(i Code) *Statement { return f.ftz(Id("lab").Index(i)) }

// lane declares a lane sum named name of n summands starting at flat index
// first, dense scratch in ws.<buf>.
func (f fam) lane(name string, n, first Code, buf string) []Code {
	return []Code{
		Var().Id(name).Id(f.Lane),
		Id(name).Dot("reset").Call(n, first, Op("&").Id("ws").Dot(buf)),
	}
}

// scratch grows ws.<buf> to n elements, names it name and stores it back.
func scratch(name, buf string, n Code) []Code {
	return []Code{
		Id(name).Op(":=").Id("grow").Call(Id("ws").Dot(buf), n),
		Id("ws").Dot(buf).Op("=").Id(name),
	}
}

// lines joins groups of statements, in order.
func lines(groups ...[]Code) []Code {
	var out []Code
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

func familyFile(v variant) *File {
	f := fam{variant: v, bits: v.T[len(v.T)-2:]}
	file := NewFile("metric")
	file.HeaderComment(header)
	file.ImportName(tensorPath, "tensor")
	famTypes(file, f)
	famPrepare(file, f)
	famInputs(file, f)
	famBatch(file, f)
	famRank(file, f)
	famPlace(file, f)
	famGainStats(file, f)
	famRelWeights(file, f)
	famList(file, f)
	famAP(file, f)
	famDCG(file, f)
	famMasked(file, f)
	famARP(file, f)
	famOPA(file, f)
	famFinish(file, f)
	famDiv(file, f)
	mapBatch(file, f)
	unrankedMAP(file, f)
	rankFunc(file, f.variant)
	return file
}

func famTypes(file *File, f fam) {
	T := f.t
	file.Commentf("%s holds the scratch buffers of the %s family kernels. A metric keeps", f.ws(), f.T)
	file.Comment("one and reuses it across updates, so a steady-state update allocates nothing.")
	file.Type().Id(f.ws()).Struct(
		Comment("lab, sc and wrow hold one list's labels, scores and item weights when"),
		Comment("they must be converted."),
		List(Id("lab"), Id("sc"), Id("wrow")).Index().Add(T()),
		Comment("keys holds the sorted keys of the ranked items: those whose label is not"),
		Comment("0, or every valid item on the sorting path; oth the other valid items'."),
		List(Id("keys"), Id("oth")).Index().Id(f.Key),
		Comment("idx holds the slots of the items with a label other than 0, in slot order."),
		Id("idx").Index().Int(),
		Comment("pos holds the 1-based rank of each key of keys; ahead and tied count the"),
		Comment("other items ranked before each group of keys, or tied with it."),
		List(Id("pos"), Id("ahead"), Id("tied")).Index().Int(),
		Comment("sorter sorts keys with scratch of its own, which is not zeroed per sort."),
		Id("sorter").Id(f.Sorter),
		Comment("flab and fw hold the flushed labels and slot weights on the sorting path;"),
		Comment("ol, os and ow the flushed labels, scores and masked weights of OPA."),
		List(Id("flab"), Id("fw"), Id("ol"), Id("os"), Id("ow")).Index().Add(T()),
		Comment("terms and ones hold dense summands and unit weights; big1 and big2 the"),
		Comment("summands of lane sums longer than a leaf."),
		List(Id("terms"), Id("ones"), Id("big1"), Id("big2")).Index().Add(T()),
		apBuffers(f.Key),
		Comment("gains holds, per distinct gain of the plan, the gain of each slot of the"),
		Comment("list; ideal the weighted gains of the ranked items, largest first, when an"),
		Comment("NDCG needs them; gsum and gnum the sums of the gains and of the weighted"),
		Comment("gains, in slot order."),
		List(Id("gains"), Id("ideal")).Index().Index().Add(T()),
		List(Id("gsum"), Id("gnum")).Index().Add(T()),
		Comment("disc holds each spec's discount table, discK one more than its cutoff."),
		Id("disc").Index().Index().Add(T()),
		Id("discK").Index().Int(),
		Comment("grouped is set when keys hold every valid item, sorted, and ties must be"),
		Comment("averaged (Expected)."),
		Id("grouped").Bool(),
		Comment("nvalid counts the valid items, nrel the valid relevant ones and nrelAll"),
		Comment("every relevant item, its weight > 0 or not; tr is the weighted relevance"),
		Comment("and sw the sum of the weights (its sign when they are not per item)."),
		List(Id("nvalid"), Id("nrel"), Id("nrelAll")).Int(),
		List(Id("tr"), Id("sw")).Add(T()),
		Comment("cnt holds each item's number of subtopics with a label >= 1, cum the"),
		Comment("running sum of each subtopic's labels, cov whether a subtopic is covered"),
		Comment("and nsub how many are, for the metrics over labels with subtopics."),
		List(Id("cnt"), Id("cum")).Index().Add(T()),
		Id("cov").Index().Bool(),
		Id("nsub").Int(),
		Comment("pairs holds the buffers of OPA's pair sums of long lists."),
		Id("pairs").Id("opaPairs"),
		Comment("lcount counts the list's small integer labels, for the ideal order."),
		Id("lcount").Index(Id("gainTableSize")).Int32(),
		Comment("out holds each spec's results of the batch."),
		Id("out").Index().Id(f.out()),
		Comment("none is the empty row of per-item weights."),
		Id("none").Index(Lit(0)).Add(T()),
		goLoopsField(f),
	)

	file.Commentf("%s holds one spec's per-list results of a batch: the value, the list", f.out())
	file.Comment("weight and their product; the parts of TF-Ranking's derived list weight (the")
	file.Comment("sum of the weights, the relevance and the mean relevant weight); and whether")
	file.Comment("the list is skipped.")
	file.Type().Id(f.out()).Struct(
		List(Id("val"), Id("lw"), Id("v"), Id("sw"), Id("r"), Id("pw")).Index().Add(T()),
		Id("skip").Index().Bool(),
	)
}

func famPrepare(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	grows := []Code{}
	for _, s := range []string{"val", "lw", "v", "sw", "r", "pw", "skip"} {
		grows = append(grows, Id("o").Dot(s).Op("=").Id("grow").Call(Id("o").Dot(s), Id("bsz")))
	}
	file.Comment("prepare sizes the buffers for a batch of bsz lists of n slots under plan p,")
	file.Comment("and computes the discount tables of its cutoffs.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("prepare").Params(Id("p").Op("*").Id("famPlan"), List(Id("bsz"), Id("n")).Int()).Block(
		If(Len(ws().Dot("out")).Op("!=").Len(Id("p").Dot("specs"))).Block(
			ws().Dot("out").Op("=").Make(Index().Id(f.out()), Len(Id("p").Dot("specs"))),
			ws().Dot("disc").Op("=").Make(Index().Index().Add(f.t()), Len(Id("p").Dot("specs"))),
			ws().Dot("discK").Op("=").Make(Index().Int(), Len(Id("p").Dot("specs"))),
		),
		If(Len(ws().Dot("gains")).Op("!=").Len(Id("p").Dot("gains"))).Block(
			ws().Dot("gains").Op("=").Make(Index().Index().Add(f.t()), Len(Id("p").Dot("gains"))),
			ws().Dot("ideal").Op("=").Make(Index().Index().Add(f.t()), Len(Id("p").Dot("gains"))),
			ws().Dot("gsum").Op("=").Make(Index().Add(f.t()), Len(Id("p").Dot("gains"))),
			ws().Dot("gnum").Op("=").Make(Index().Add(f.t()), Len(Id("p").Dot("gains"))),
		),
		For(Id("j").Op(":=").Range().Id("ws").Dot("out")).Block(lines(
			[]Code{Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Id("j"))},
			grows,
			[]Code{
				Clear(Id("o").Dot("skip")),
				Id("s").Op(":=").Op("&").Id("p").Dot("specs").Index(Id("j")),
				If(Id("s").Dot("discounted").Call()).Block(
					If(Id("k").Op(":=").Id("s").Dot("cutoff").Call(Id("n")), Id("ws").Dot("discK").Index(Id("j")).Op("!=").Id("k").Op("+").Lit(1)).Block(
						Id("ws").Dot("disc").Index(Id("j")).Op("=").Id("discountTable"+f.bits).Call(Id("s").Dot("disc"), Id("k"), Id("ws").Dot("disc").Index(Id("j"))),
						Id("ws").Dot("discK").Index(Id("j")).Op("=").Id("k").Op("+").Lit(1),
					),
				),
			},
		)...),
	)
}

func famBatch(file *File, f fam) {
	loop := lines(
		readInputs(),
		[]Code{
			Comment("wl is the list weight of the conventions that weigh lists directly."),
			Id("wl").Op(":=").Id("wc"),
			Id("wc").Op("=").Add(f.ftz(Id("wc"))),
			If(Id("bad").Op(":=").Id("ws").Dot("rank").Call(Id("b"), Id("lab"), Id("sc"), Id("w"), Id("wc"), Id("n"), Id("p"), Id("thr"), Id("rng")), Id("bad").Op(">=").Lit(0)).Block(
				Return(Id("scoreError").Call(Id("b"), Id("bad"), Float64().Call(Id("lab").Index(Id("bad"))))),
			),
			For(List(Id("gi"), Id("g")).Op(":=").Range().Id("p").Dot("gains")).Block(
				If(Id("bad").Op(":=").Id("ws").Dot("gainStats").Call(Id("b"), Id("gi"), Id("g"), Id("lab"), Id("w"), Id("wc"), Id("n"), Id("p").Dot("ragged")), Id("bad").Op(">=").Lit(0)).Block(
					Return(Id("gainError").Call(Id("b"), Id("bad"), Float64().Call(Id("lab").Index(Id("bad"))))),
				),
			),
			For(Id("j").Op(":=").Range().Id("p").Dot("specs")).Block(
				If(Err().Op(":=").Id("ws").Dot("list").Call(Id("j"), Id("b"), Id("lab"), Id("sc"), Id("w"), Id("wc"), Id("wl"), Id("n"), Id("p"), Id("thr")), Err().Op("!=").Nil()).Block(
					Return(Err()),
				),
			),
		},
	)
	file.Commentf("batch computes in %s every spec's per-list values and list weights of a", f.T)
	file.Comment("checked batch into ws.out. It returns an error, wrapping ErrInput, for a NaN")
	file.Comment("score, a non-finite weight, a NaN gain or an empty list under EmptyError.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("batch").Params(
		List(Id("labels"), Id("predictions")).Qual(tensorPath, "Lists"), Id("weights").Qual(tensorPath, "Weights"),
		Id("p").Op("*").Id("famPlan"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Error().Block(
		List(Id("bsz"), Id("n")).Op(":=").List(Id("labels").Dot("Len").Call(), Id("labels").Dot("Width").Call()),
		Id("ws").Dot("prepare").Call(Id("p"), Id("bsz"), Id("n")),
		Id("wv").Op(":=").Id("weights").Dot("Values").Call(),
		Id("thr").Op(":=").Add(f.conv(Id("p").Dot("thr"))),
		For(Id("b").Op(":=").Range().Id("bsz")).Block(loop...),
		For(Id("j").Op(":=").Range().Id("p").Dot("specs")).Block(
			Id("ws").Dot("finish").Call(Id("j"), Id("bsz"), Id("p")),
		),
		Return(Nil()),
	)
}

func famRank(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	file.Comment("rank orders the valid items of list b and computes its relevance statistics.")
	file.Comment("It leaves in ws.keys the sorted keys of the items whose label is not 0 (every")
	file.Comment("valid item when p.rankAll) and in ws.pos their 1-based ranks. When a tie")
	file.Comment("touches them under Expected it sorts every valid item instead and sets")
	file.Comment("ws.grouped. It returns the index of a valid item whose score is NaN, or -1.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("rank").Params(
		Id("b").Int(), List(Id("lab"), Id("sc"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), Id("n").Int(),
		Id("p").Op("*").Id("famPlan"), Id("thr").Add(f.t()), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Int().Block(lines(
		[]Code{
			List(Id("keys"), Id("oth"), Id("idx")).Op(":=").List(ws().Dot("keys").Index(Op(":").Lit(0)), ws().Dot("oth").Index(Op(":").Lit(0)), ws().Dot("idx").Index(Op(":").Lit(0))),
			Comment("Mask as TF-Ranking does: a slot is valid when its weight is > 0 and, in a"),
			Comment("dense list, its label is >= 0. Inputs are read as TF's kernels read them."),
		},
		f.lane("trAcc", Id("n"), Id("b").Op("*").Id("n"), "big1"),
		f.lane("swAcc", Id("n"), Id("b").Op("*").Id("n"), "big2"),
		[]Code{
			Id("items").Op(":=").Id("w").Op("!=").Nil(),
			List(Id("nrel"), Id("nout")).Op(":=").List(Lit(0), Lit(0)),
			Comment("A label is compared, not flushed: a subnormal reads as 0, so it is >= 0"),
			Comment("and not relevant (thr is normal), and ranks only when it is not 0."),
			maskLoop(f, For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
				Id("wi").Op(":=").Id("wc"),
				If(Id("items")).Block(
					Id("wi").Op("=").Add(f.ftz(Id("w").Index(Id("i")))),
					If(Id("wi").Op("!=").Lit(0)).Block(Id("swAcc").Dot("add").Call(Id("i"), Id("wi"))),
				),
				Id("rel").Op(":=").Id("l").Op(">=").Id("thr"),
				If(Op("!").Parens(Id("wi").Op(">").Lit(0)).Op("||").Op("!").Parens(Id("p").Dot("ragged").Op("||").Id("l").Op(">").Op("-").Id("minPos"+f.Name))).Block(
					If(Id("rel")).Block(Id("nout").Op("++")),
					Continue(),
				),
				Id("s").Op(":=").Add(f.ftz(Id("sc").Index(Id("i")))),
				If(Id("s").Op("!=").Id("s")).Block(Return(Id("i"))),
				If(Id("rel")).Block(
					Id("nrel").Op("++"),
					If(Id("items")).Block(Id("trAcc").Dot("add").Call(Id("i"), Id("wi"))),
				),
				Id("key").Op(":=").Id(f.MakeKy).Call(Id("s"), Id("tieBits").Call(Id("p").Dot("ties"), Id("rel"), Id("i"))),
				If(Id("p").Dot("rankAll").Op("||").Op("!").Parens(Id("l").Op(">").Op("-").Id("minPos"+f.Name).Op("&&").Id("l").Op("<").Id("minPos"+f.Name))).Block(
					Id("keys").Op("=").Append(Id("keys"), Id("key")),
					If(Len(Id("p").Dot("gains")).Op(">").Lit(0)).Block(Id("idx").Op("=").Append(Id("idx"), Id("i"))),
				).Else().Block(
					Id("oth").Op("=").Append(Id("oth"), Id("key")),
				),
			)),
			Comment("Room for the sentinel place appends."),
			Id("keys").Op("=").Append(Id("keys"), Id(f.Sent)).Index(Op(":").Len(Id("keys"))),
			List(ws().Dot("keys"), ws().Dot("oth"), ws().Dot("idx")).Op("=").List(Id("keys"), Id("oth"), Id("idx")),
			List(ws().Dot("nrel"), ws().Dot("nrelAll")).Op("=").List(Id("nrel"), Id("nrel").Op("+").Id("nout")),
			Switch().Block(
				Case(Id("items").Op("||").Id("nrel").Op("==").Lit(0)).Block(
					ws().Dot("tr").Op("=").Id("trAcc").Dot("result").Call(),
				),
				Case(Id("exactInts").Call(f.conv(Id("nrel")).Op("*").Id("wc"), Id("wc"))).Block(
					Comment("nrel copies of an integer wc add exactly in any order."),
					ws().Dot("tr").Op("=").Add(f.conv(Id("nrel"))).Op("*").Id("wc"),
				),
				Default().Block(
					For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
						If(Id("l").Op("=").Add(f.ftz(Id("l"))), Id("l").Op(">=").Id("thr").Op("&&").Id("wc").Op(">").Lit(0)).Block(
							Id("trAcc").Dot("add").Call(Id("i"), Id("wc")),
						),
					),
					ws().Dot("tr").Op("=").Id("trAcc").Dot("result").Call(),
				),
			),
			Comment("Only the sign of the weight sum matters: n copies of wc have wc's sign."),
			ws().Dot("sw").Op("=").Id("wc"),
			If(Id("items")).Block(
				ws().Dot("sw").Op("=").Id("swAcc").Dot("result").Call(),
			).Else().If(Id("n").Op("==").Lit(0)).Block(
				ws().Dot("sw").Op("=").Lit(0),
			),
			ws().Dot("nvalid").Op("=").Len(Id("keys")).Op("+").Len(Id("oth")),
			ws().Dot("grouped").Op("=").False(),
			If(Op("!").Id("p").Dot("rank")).Block(Return(Lit(-1))),
			ws().Dot("sorter").Dot("sort").Call(Id("keys")),
		},
		scratch("pos", "pos", ws().Dot("nvalid")),
		[]Code{
			If(ws().Dot("place").Call(Id("keys"), Id("oth"), Id("pos"), Id("p").Dot("ties"), Id("rng"))).Block(Return(Lit(-1))),
			Comment("A tie touches a ranked item under Expected: sort every valid item, and"),
			Comment("keep flushed copies of the labels and slot weights for the expectations."),
			Id("keys").Op("=").Append(Id("keys"), Id("oth").Op("...")),
			ws().Dot("keys").Op("=").Id("keys"),
			ws().Dot("sorter").Dot("sort").Call(Id("keys")),
			For(Id("j").Op(":=").Range().Id("keys")).Block(Id("pos").Index(Id("j")).Op("=").Id("j").Op("+").Lit(1)),
			ws().Dot("grouped").Op("=").True(),
			Id("m").Op(":=").Len(Id("lab")),
			ws().Dot("flab").Op("=").Id("grow").Call(ws().Dot("flab"), Id("m")),
			For(List(Id("i"), Id("l")).Op(":=").Range().Id("lab")).Block(
				ws().Dot("flab").Index(Id("i")).Op("=").Add(f.ftz(Id("l"))),
			),
			ws().Dot("fw").Op("=").Id("grow").Call(ws().Dot("fw"), Id("n")),
			For(Id("i").Op(":=").Range().Id("ws").Dot("fw")).Block(
				Id("x").Op(":=").Id("wc"),
				If(Id("items")).Block(
					Id("x").Op("=").Lit(0),
					If(Id("i").Op("<").Id("m")).Block(Id("x").Op("=").Add(f.ftz(Id("w").Index(Id("i"))))),
				),
				ws().Dot("fw").Index(Id("i")).Op("=").Id("x"),
			),
			Return(Lit(-1)),
		},
	)...)
}

// goLoopsField declares the workspace's switch that makes its kernels mask
// their lists with the Go loops rather than the vector kernel
// (metric/pack.go, metric/pack64.go): the tests set it to compare the two.
func goLoopsField(f fam) Code {
	return Add(
		Comment("goLoops makes the kernels mask lists with the Go loops even where the"),
		Line(),
		Comment("vector kernel runs (see packVec): the tests compare the two."),
		Line(),
		Id("goLoops").Bool(),
	)
}

// maskLoop returns the masking loop of famRank under the test of a vector
// kernel: when every slot weighs the same positive weight, packKeys32
// (metric/pack.go) or packKeys64 (metric/pack64.go) masks and packs on AVX2.
func maskLoop(f fam, loop Code) Code {
	pack := "packKeys32"
	if !f.is32() {
		pack = "packKeys64"
	}
	sel := If(Id("p").Dot("rankAll")).Block(Id("sel").Op("=").Id("packAll"))
	return If(Id("ws").Dot("packVec").Call().Op("&&").Op("!").Id("items").Op("&&").Id("wc").Op(">").Lit(0)).Block(
		Id("sel").Op(":=").Id("packNonzero"),
		sel,
		Var().Id("bad").Int(),
		List(Id("keys"), Id("oth"), Id("nrel"), Id("nout"), Id("bad")).Op("=").Id(pack).Call(Id("lab"), Id("sc"), Id("keys"), Id("oth"), Id("thr"), Id("p").Dot("ragged"), Id("sel"), Id("p").Dot("ties")),
		If(Id("bad").Op(">=").Lit(0)).Block(Return(Id("bad"))),
		Comment("A key's tie-break bits hold its item's index."),
		For(Id("j").Op(":=").Lit(0), Len(Id("p").Dot("gains")).Op(">").Lit(0).Op("&&").Id("j").Op("<").Len(Id("keys")), Id("j").Op("++")).Block(
			Id("idx").Op("=").Append(Id("idx"), Id("keys").Index(Id("j")).Dot("index").Call()),
		),
	).Else().Block(loop)
}

// groupedCount returns place's split of the other keys into ahead and tied:
// a call of countTied32 (metric/ahead.go) or countTied64
// (metric/ahead64.go), which count with vector comparisons where the CPU has
// them.
func groupedCount(f fam, loop Code) Code {
	switch f.Key {
	case "key32":
		return Id("countTied32").Call(Id("ends"), Id("oth"), Id("ahead"), Id("tied"))
	case "key64":
		return Id("countTied64").Call(Id("ends"), Id("oth"), Id("ahead"), Id("tied"))
	}
	return loop
}

func famPlace(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	file.Comment("place sets pos[j] to the rank of keys[j], counting with a binary search per")
	file.Comment("key of oth the other items ranked ahead of each. Under Random it orders each")
	file.Comment("tie group uniformly at random: its keys in random order, at a uniformly random")
	file.Comment("choice of its positions. Under Expected it returns false when a tie touches")
	file.Comment("a key of keys.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("place").Params(
		List(Id("keys"), Id("oth")).Index().Id(f.Key), Id("pos").Index().Int(), Id("ties").Id("TiePolicy"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Bool().Block(lines(
		[]Code{Id("nk").Op(":=").Len(Id("keys"))},
		scratch("ahead", "ahead", Id("nk").Op("+").Lit(1)),
		[]Code{
			Clear(Id("ahead")),
			If(Id("ties").Op("!=").Id("Random").Op("&&").Id("ties").Op("!=").Id("Expected")).Block(
				countAhead(f.Key, f.Name, "keys"),
				Id("r").Op(":=").Lit(0),
				For(Id("j").Op(":=").Range().Id("keys")).Block(
					Id("r").Op("+=").Id("ahead").Index(Id("j")).Op("+").Lit(1),
					Id("pos").Index(Id("j")).Op("=").Id("r"),
				),
				Return(True()),
			),
		},
		scratch("tied", "tied", Id("nk").Op("+").Lit(1)),
		[]Code{
			Clear(Id("tied")),
			Comment("A key's floor finds the first ranked key of equal or lower score."),
			Id("ends").Op(":=").Append(Id("keys"), Id(f.Sent)),
			groupedCount(f, For(List(Id("_"), Id("key")).Op(":=").Range().Id("oth")).Block(
				Id("q").Op(":=").Id("lowerBound"+f.Name).Call(Id("keys"), Id("key").Dot("floor").Call()),
				If(Id("ends").Index(Id("q")).Dot("score").Call().Op("==").Id("key").Dot("score").Call()).Block(
					Id("tied").Index(Id("q")).Op("++"),
				).Else().Block(
					Id("ahead").Index(Id("q")).Op("++"),
				),
			)),
			Id("r").Op(":=").Lit(0),
			For(Id("g").Op(":=").Lit(0), Id("g").Op("<").Id("nk"), Empty()).Block(
				Id("r").Op("+=").Id("ahead").Index(Id("g")),
				Id("e").Op(":=").Id("g").Op("+").Lit(1),
				For(Id("e").Op("<").Id("nk").Op("&&").Id("keys").Index(Id("e")).Dot("score").Call().Op("==").Id("keys").Index(Id("g")).Dot("score").Call()).Block(
					Id("e").Op("++"),
				),
				List(Id("nr"), Id("nt")).Op(":=").List(Id("e").Op("-").Id("g"), Id("e").Op("-").Id("g").Op("+").Id("tied").Index(Id("g"))),
				If(Id("nt").Op("==").Lit(1)).Block(
					Id("r").Op("++"),
					Id("pos").Index(Id("g")).Op("=").Id("r"),
					Id("g").Op("=").Id("e"),
					Continue(),
				),
				If(Id("ties").Op("==").Id("Expected")).Block(Return(False())),
				For(Id("i").Op(":=").Id("e").Op("-").Lit(1), Id("i").Op(">").Id("g"), Id("i").Op("--")).Block(
					Id("j").Op(":=").Id("g").Op("+").Id("rng").Dot("IntN").Call(Id("i").Op("-").Id("g").Op("+").Lit(1)),
					List(Id("keys").Index(Id("i")), Id("keys").Index(Id("j"))).Op("=").List(Id("keys").Index(Id("j")), Id("keys").Index(Id("i"))),
				),
				Id("placed").Op(":=").Lit(0),
				For(Id("j").Op(":=").Lit(1), Id("placed").Op("<").Id("nr"), Id("j").Op("++")).Block(
					If(Id("rng").Dot("IntN").Call(Id("nt").Op("-").Id("j").Op("+").Lit(1)).Op("<").Id("nr").Op("-").Id("placed")).Block(
						Id("pos").Index(Id("g").Op("+").Id("placed")).Op("=").Id("r").Op("+").Id("j"),
						Id("placed").Op("++"),
					),
				),
				Id("r").Op("+=").Id("nt"),
				Id("g").Op("=").Id("e"),
			),
			Return(True()),
		},
	)...)
}

func famGainStats(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	file.Comment("gainStats computes the gain of the slots of list b under the plan's gain gi,")
	file.Comment("a masked slot taking the gain of label 0, and the sums TF-Ranking's list")
	file.Comment("weights take over every slot: the gains and the weighted gains. When the gain")
	file.Comment("of 0 is 0 only the slots in ws.idx can add anything. It returns the index of")
	file.Comment("a valid item whose gain is NaN, or -1.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("gainStats").Params(
		List(Id("b"), Id("gi")).Int(), Id("g").Op("*").Id("gainEval"), List(Id("lab"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), Id("n").Int(), Id("ragged").Bool(),
	).Int().Block(lines(
		[]Code{
			Id("gs").Op(":=").Id("grow").Call(ws().Dot("gains").Index(Id("gi")), Id("n")),
			ws().Dot("gains").Index(Id("gi")).Op("=").Id("gs"),
		},
		f.lane("sum", Id("n"), Id("b").Op("*").Id("n"), "big1"),
		f.lane("num", Id("n"), Id("b").Op("*").Id("n"), "big2"),
		[]Code{
			Id("small").Op(":=").False(),
			If(Id("g").Dot("zero")).Block(
				Comment("Integer gains and weighted gains whose magnitudes add up below 2^24"),
				Comment("add exactly in any order; the others add in TF's order."),
				Var().List(Id("sx"), Id("sy"), Id("ax"), Id("ay")).Float64(),
				Id("ints").Op(":=").Id("n").Op(">").Lit(1),
				Comment("With one weight for every slot and small integer labels, the ideal"),
				Comment("order is a count of the labels in the order of their gains."),
				Id("small").Op("=").Id("w").Op("==").Nil().Op("&&").Id("g").Dot("ideal"),
				Clear(Id("ws").Dot("lcount").Index(Op(":"))),
				For(List(Id("_"), Id("i")).Op(":=").Range().Id("ws").Dot("idx")).Block(
					Id("l").Op(":=").Add(f.lab(Id("i"))),
					Id("x").Op(":=").Id("g").Dot("eval"+f.bits).Call(Id("l")),
					If(Id("x").Op("!=").Id("x")).Block(Return(Id("i"))),
					If(Id("small")).Block(
						If(Id("li").Op(":=").Int().Call(Id("l")), Id("l").Op(">=").Lit(0).Op("&&").Id("l").Op("<").Id("gainTableSize").Op("&&").Add(f.conv(Id("li"))).Op("==").Id("l")).Block(
							Id("ws").Dot("lcount").Index(Id("li")).Op("++"),
						).Else().Block(
							Id("small").Op("=").False(),
						),
					),
					Id("gs").Index(Id("i")).Op("=").Id("x"),
					Id("y").Op(":=").Add(f.ftz(f.w(Id("i")).Op("*").Id("x"))),
					Id("ints").Op("=").Id("ints").Op("&&").Id("x").Op("==").Add(f.conv(Int32().Call(Id("x")))).Op("&&").Id("y").Op("==").Add(f.conv(Int32().Call(Id("y")))),
					List(Id("sx"), Id("sy")).Op("=").List(Id("sx").Op("+").Float64().Call(Id("x")), Id("sy").Op("+").Float64().Call(Id("y"))),
					List(Id("ax"), Id("ay")).Op("=").List(Id("ax").Op("+").Id("abs64").Call(Float64().Call(Id("x"))), Id("ay").Op("+").Id("abs64").Call(Float64().Call(Id("y")))),
				),
				If(Id("ints").Op("&&").Id("ax").Op("<").Lit(1<<24).Op("&&").Id("ay").Op("<").Lit(1<<24)).Block(
					List(ws().Dot("gsum").Index(Id("gi")), ws().Dot("gnum").Index(Id("gi"))).Op("=").List(f.conv(Id("sx")), f.conv(Id("sy"))),
				).Else().Block(
					For(List(Id("_"), Id("i")).Op(":=").Range().Id("ws").Dot("idx")).Block(
						Id("sum").Dot("add").Call(Id("i"), Id("gs").Index(Id("i"))),
						Id("num").Dot("add").Call(Id("i"), f.ftz(f.w(Id("i")).Op("*").Id("gs").Index(Id("i")))),
					),
					List(ws().Dot("gsum").Index(Id("gi")), ws().Dot("gnum").Index(Id("gi"))).Op("=").List(Id("sum").Dot("result").Call(), Id("num").Dot("result").Call()),
				),
			).Else().Block(
				Id("g0").Op(":=").Id("g").Dot("t"+f.bits).Index(Lit(0)),
				Id("m").Op(":=").Len(Id("lab")),
				For(Id("i").Op(":=").Range().Id("n")).Block(
					Id("x").Op(":=").Id("g0"),
					Var().Id("wi").Add(f.t()),
					If(Id("i").Op("<").Id("m")).Block(
						Id("wi").Op("=").Add(f.w(Id("i"))),
						If(Id("l").Op(":=").Add(f.lab(Id("i"))), Id("wi").Op(">").Lit(0).Op("&&").Parens(Id("ragged").Op("||").Id("l").Op(">=").Lit(0))).Block(
							Id("x").Op("=").Id("g").Dot("eval"+f.bits).Call(Id("l")),
							If(Id("x").Op("!=").Id("x")).Block(Return(Id("i"))),
						),
					).Else().If(Id("w").Op("==").Nil()).Block(
						Comment("Ragged padding weighs wc, or 0 under item weights."),
						Id("wi").Op("=").Id("wc"),
					),
					Id("gs").Index(Id("i")).Op("=").Id("x"),
					Id("sum").Dot("add").Call(Id("i"), Id("x")),
					Id("num").Dot("add").Call(Id("i"), f.ftz(Id("wi").Op("*").Id("x"))),
				),
				List(ws().Dot("gsum").Index(Id("gi")), ws().Dot("gnum").Index(Id("gi"))).Op("=").List(Id("sum").Dot("result").Call(), Id("num").Dot("result").Call()),
			),
			If(Id("g").Dot("ideal")).Block(
				Comment("The ideal order of NDCG: the weighted gains, largest first."),
				Id("ideal").Op(":=").Id("ws").Dot("ideal").Index(Id("gi")).Index(Op(":").Lit(0)),
				If(Id("small")).Block(
					For(List(Id("_"), Id("t")).Op(":=").Range().Id("g").Dot("order"+f.bits)).Block(
						Id("x").Op(":=").Add(f.ftz(Id("wc").Op("*").Id("g").Dot("t"+f.bits).Index(Id("t")))),
						For(Id("c").Op(":=").Id("ws").Dot("lcount").Index(Id("t")), Id("c").Op(">").Lit(0), Id("c").Op("--")).Block(
							Id("ideal").Op("=").Append(Id("ideal"), Id("x")),
						),
					),
				).Else().Block(
					For(List(Id("_"), Id("i")).Op(":=").Range().Id("ws").Dot("idx")).Block(
						Id("ideal").Op("=").Append(Id("ideal"), f.ftz(f.w(Id("i")).Op("*").Id("gs").Index(Id("i")))),
					),
					Id("sortDescending").Call(Id("ideal")),
				),
				ws().Dot("ideal").Index(Id("gi")).Op("=").Id("ideal"),
			),
			Return(Lit(-1)),
		},
	)...)
}

func famRelWeights(file *File, f fam) {
	file.Comment("relWeights records the parts of TF-Ranking's list weight over binary")
	file.Comment("relevance for list b.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("relWeights").Params(Id("o").Op("*").Id(f.out()), Id("b").Int()).Block(
		List(Id("o").Dot("sw").Index(Id("b")), Id("o").Dot("r").Index(Id("b")), Id("o").Dot("pw").Index(Id("b"))).Op("=").List(Id("ws").Dot("sw"), f.conv(Id("ws").Dot("nrel")), Lit(0)),
		If(Id("ws").Dot("nrel").Op(">").Lit(0)).Block(
			Id("o").Dot("pw").Index(Id("b")).Op("=").Add(f.ftz(Id("ws").Dot("tr").Op("/").Add(f.conv(Id("ws").Dot("nrel"))))),
		),
	)
}

func famList(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	relAt := func(i Code) *Statement { return Id("lab").Index(i).Op(">=").Id("thr") }
	file.Comment("list computes spec j's value of list b and the parts of its list weight.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("list").Params(
		List(Id("j"), Id("b")).Int(), List(Id("lab"), Id("sc"), Id("w")).Index().Add(f.t()), List(Id("wc"), Id("wl")).Add(f.t()), Id("n").Int(),
		Id("p").Op("*").Id("famPlan"), Id("thr").Add(f.t()),
	).Error().Block(
		Id("s").Op(":=").Op("&").Id("p").Dot("specs").Index(Id("j")),
		Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Id("j")),
		Id("k").Op(":=").Id("s").Dot("cutoff").Call(Id("n")),
		If(ws().Dot("grouped")).Block(Id("lab").Op("=").Id("ws").Dot("flab")),
		Switch(Id("s").Dot("kind")).Block(
			Case(Id("KindMAP")).Block(
				Return(ws().Dot("apList").Call(Id("s"), Id("o"), Id("b"), Id("lab"), Id("w"), Id("wc"), Id("wl"), Id("k"), Id("n"), Id("thr"))),
			),
			Case(Id("KindMRR"), Id("KindHits")).Block(
				Var().List(Id("rr"), Id("hit")).Add(f.t()),
				Switch().Block(
					Case(Id("k").Op("==").Lit(0)).Block(
						Comment("TF's maximum over no position."),
						List(Id("rr"), Id("hit")).Op("=").List(Id("negInf").Types(f.t()).Call(), Id("negInf").Types(f.t()).Call()),
					),
					Case(ws().Dot("grouped")).Block(
						List(Id("rr"), Id("hit")).Op("=").Id("expectedFirst").Call(ws().Dot("keys"), Id("lab"), Id("thr"), Id("k")),
					),
					Default().Block(
						For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
							Id("r").Op(":=").Id("ws").Dot("pos").Index(Id("q")),
							If(Id("r").Op(">").Id("k")).Block(Break()),
							If(relAt(Id("key").Dot("index").Call())).Block(
								List(Id("rr"), Id("hit")).Op("=").List(Lit(1).Op("/").Add(f.conv(Id("r"))), Lit(1)),
								Break(),
							),
						),
					),
				),
				Id("o").Dot("val").Index(Id("b")).Op("=").Id("rr"),
				If(Id("s").Dot("kind").Op("==").Id("KindHits")).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Id("hit")),
				ws().Dot("relWeights").Call(Id("o"), Id("b")),
			),
			Case(Id("KindPrecision"), Id("KindRecall")).Block(
				Var().Id("cnt").Add(f.t()),
				If(ws().Dot("grouped")).Block(
					Id("cnt").Op("=").Id("expectedCount").Call(ws().Dot("keys"), Id("lab"), Id("thr"), Id("k")),
				).Else().Block(
					Id("c").Op(":=").Lit(0),
					For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
						If(Id("ws").Dot("pos").Index(Id("q")).Op(">").Id("k")).Block(Break()),
						If(relAt(Id("key").Dot("index").Call())).Block(Id("c").Op("++")),
					),
					Id("cnt").Op("=").Add(f.conv(Id("c"))),
				),
				Comment("Precision divides by min(topn, valid items), topn not clipped to the list."),
				Id("den").Op(":=").Add(f.conv(ws().Dot("nrel"))),
				If(Id("s").Dot("kind").Op("==").Id("KindPrecision")).Block(
					Id("den").Op("=").Add(f.conv(Min(Id("s").Dot("topnOr").Call(Id("n")), ws().Dot("nvalid")))),
				),
				Id("o").Dot("val").Index(Id("b")).Op("=").Lit(0),
				If(Id("den").Op("!=").Lit(0)).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Add(f.ftz(Id("cnt").Op("/").Id("den")))),
				ws().Dot("relWeights").Call(Id("o"), Id("b")),
			),
			Case(Id("KindNDCG"), Id("KindDCG")).Block(
				ws().Dot("dcgList").Call(Id("s"), Id("o"), Id("j"), Id("b"), Id("lab"), Id("w"), Id("wc"), Id("k"), Id("n"), Id("p").Dot("ragged")),
			),
			Case(Id("KindARP")).Block(
				ws().Dot("arpList").Call(Id("o"), Id("b"), Id("lab"), Id("w"), Id("wc"), Id("n")),
			),
			Case(Id("KindOPA")).Block(
				ws().Dot("opaList").Call(Id("o"), Id("b"), Id("lab"), Id("sc"), Id("w"), Id("wc"), Id("n"), Id("p").Dot("ragged")),
			),
		),
		Return(Nil()),
	)
}

func famAP(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	file.Comment("apList computes the average precision of list b under spec s's convention:")
	file.Comment("precision at each relevant position within the cutoff k, times the item's")
	file.Comment("weight under TFRanking, added by position as TF's [B, K] reduce_sum does.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("apList").Params(
		Id("s").Op("*").Id("famSpec"), Id("o").Op("*").Id(f.out()), Id("b").Int(), List(Id("lab"), Id("w")).Index().Add(f.t()), List(Id("wc"), Id("wl")).Add(f.t()), List(Id("k"), Id("n")).Int(), Id("thr").Add(f.t()),
	).Error().Block(lines(
		f.lane("tp", Id("k"), Id("b").Op("*").Id("k"), "big1"),
		[]Code{
			Id("unit").Op(":=").Id("s").Dot("conv").Op("!=").Id("TFRanking"),
			Id("cnt").Op(":=").Lit(0),
			If(ws().Dot("grouped")).Block(lines(
				[]Code{
					Id("tw").Op(":=").Id("ws").Dot("fw"),
					If(Id("unit")).Block(
						Id("tw").Op("=").Id("grow").Call(ws().Dot("ones"), Id("n")),
						ws().Dot("ones").Op("=").Id("tw"),
						For(Id("i").Op(":=").Range().Id("tw")).Block(Id("tw").Index(Id("i")).Op("=").Lit(1)),
					),
				},
				scratch("terms", "terms", Id("k")),
				[]Code{
					Clear(Id("terms")),
					Id("expectedAPTerms").Call(ws().Dot("keys"), Id("lab"), Id("tw"), Id("thr"), Id("terms"), Id(f.Ftz)),
					For(List(Id("r"), Id("x")).Op(":=").Range().Id("terms")).Block(
						If(Id("x").Op("!=").Lit(0)).Block(Id("tp").Dot("add").Call(Id("r"), Id("x"))),
					),
				},
			)...).Else().Block(
				For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
					Id("r").Op(":=").Id("ws").Dot("pos").Index(Id("q")),
					If(Id("r").Op(">").Id("k")).Block(Break()),
					Id("i").Op(":=").Id("key").Dot("index").Call(),
					If(Id("lab").Index(Id("i")).Op(">=").Id("thr")).Block(
						Id("cnt").Op("++"),
						Id("x").Op(":=").Add(f.conv(f.conv(Id("cnt")).Op("/").Add(f.conv(Id("r"))))),
						If(Op("!").Id("unit")).Block(Id("x").Op("=").Add(f.ftz(Id("x").Op("*").Add(f.w(Id("i")))))),
						Id("tp").Dot("add").Call(Id("r").Op("-").Lit(1), Id("x")),
					),
				),
			),
			Id("sum").Op(":=").Id("tp").Dot("result").Call(),
			Var().Id("ap").Add(f.t()),
			Id("empty").Op(":=").Id("ws").Dot("nrelAll").Op("==").Lit(0),
			Switch(Id("s").Dot("conv")).Block(
				Case(Id("TFRanking")).Block(
					Comment("The denominator is the weighted relevance of the whole list."),
					Id("empty").Op("=").Id("ws").Dot("nrel").Op("==").Lit(0),
					If(ws().Dot("tr").Op("!=").Lit(0)).Block(Id("ap").Op("=").Add(f.ftz(Id("sum").Op("/").Id("ws").Dot("tr")))),
					ws().Dot("relWeights").Call(Id("o"), Id("b")),
				),
				Case(Id("TrecEval")).Block(
					Comment("Every relevant judged item, retrieved (weight > 0) or not."),
					Id("ap").Op("=").Add(f.ftz(Id("sum").Op("/").Add(f.conv(Max(ws().Dot("nrelAll"), Lit(1)))))),
				),
				Case(Id("MinRK"), Id("XGBoost"), Id("XGBoostMinus")).Block(
					Id("ap").Op("=").Add(f.ftz(Id("sum").Op("/").Add(f.conv(Max(Min(ws().Dot("nrelAll"), Id("s").Dot("topnOr").Call(Id("n"))), Lit(1)))))),
				),
				Case(Id("RetrievedRelevant")).Block(
					If(Id("cnt").Op(">").Lit(0)).Block(Id("ap").Op("=").Add(f.ftz(Id("sum").Op("/").Add(f.conv(Id("cnt")))))),
				),
			),
			If(Id("unit")).Block(Id("o").Dot("lw").Index(Id("b")).Op("=").Id("wl")),
			If(Id("empty")).Block(
				Switch(Id("s").Dot("empty")).Block(
					Case(Id("EmptyOne")).Block(Id("ap").Op("=").Lit(1)),
					Case(Id("EmptySkip")).Block(Id("o").Dot("skip").Index(Id("b")).Op("=").True()),
					Case(Id("EmptyError")).Block(Return(Id("emptyError").Call(Id("b")))),
				),
			),
			Id("o").Dot("val").Index(Id("b")).Op("=").Id("ap"),
			Return(Nil()),
		},
	)...)
}

func famDCG(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	d := func(i Code) *Statement { return Id("d").Index(i) }
	file.Comment("dcgList computes the DCG of list b over the cutoff k, weight times gain times")
	file.Comment("discount by position, and for NDCG its ratio to the DCG of the ideal order,")
	file.Comment("which sorts the valid items by weight times gain; with the parts of the list")
	file.Comment("weight over the gains.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("dcgList").Params(
		Id("s").Op("*").Id("famSpec"), Id("o").Op("*").Id(f.out()), List(Id("j"), Id("b")).Int(), List(Id("lab"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), List(Id("k"), Id("n")).Int(), Id("ragged").Bool(),
	).Block(lines(
		[]Code{
			Id("g").Op(":=").Id("s").Dot("gain"),
			Id("gs").Op(":=").Id("ws").Dot("gains").Index(Id("g").Dot("index")),
			Id("d").Op(":=").Id("ws").Dot("disc").Index(Id("j")),
		},
		f.lane("acc", Id("k"), Id("b").Op("*").Id("k"), "big1"),
		[]Code{
			If(ws().Dot("grouped")).Block(lines(
				[]Code{
					For(List(Id("_"), Id("key")).Op(":=").Range().Id("ws").Dot("oth")).Block(
						Id("gs").Index(Id("key").Dot("index").Call()).Op("=").Id("g").Dot("t" + f.bits).Index(Lit(0)),
					),
				},
				scratch("terms", "terms", Id("k")),
				[]Code{
					Clear(Id("terms")),
					Id("expectedGainTerms").Call(ws().Dot("keys"), ws().Dot("fw"), Id("gs"), Id("d"), Id("terms"), Id(f.Ftz)),
					For(List(Id("r"), Id("x")).Op(":=").Range().Id("terms")).Block(
						If(Id("x").Op("!=").Lit(0)).Block(Id("acc").Dot("add").Call(Id("r"), Id("x"))),
					),
				},
			)...).Else().Block(
				For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
					Id("r").Op(":=").Id("ws").Dot("pos").Index(Id("q")),
					If(Id("r").Op(">").Id("k")).Block(Break()),
					Id("i").Op(":=").Id("key").Dot("index").Call(),
					Id("acc").Dot("add").Call(Id("r").Op("-").Lit(1), f.ftz(f.ftz(f.w(Id("i")).Op("*").Id("gs").Index(Id("i"))).Op("*").Add(d(Id("r").Op("-").Lit(1))))),
				),
			),
			ws().Dot("maskedGains").Call(Op("&").Id("acc"), Id("g"), Id("lab"), Id("w"), Id("wc"), Id("d"), Id("k"), Id("n"), Id("ragged")),
			Id("dcg").Op(":=").Id("acc").Dot("result").Call(),
			Id("o").Dot("val").Index(Id("b")).Op("=").Id("dcg"),
			If(Id("s").Dot("kind").Op("==").Id("KindNDCG")).Block(
				Comment("Items whose weight times gain is 0 add nothing; those below 0 take the"),
				Comment("last valid ranks."),
				Id("ideal").Op(":=").Id("ws").Dot("ideal").Index(Id("g").Dot("index")),
				Id("acc").Dot("reset").Call(Id("k"), Id("b").Op("*").Id("k"), Op("&").Id("ws").Dot("big1")),
				For(List(Id("q"), Id("x")).Op(":=").Range().Id("ideal")).Block(
					Id("r").Op(":=").Id("q").Op("+").Lit(1),
					If(Id("x").Op("<").Lit(0)).Block(
						Id("r").Op("=").Id("ws").Dot("nvalid").Op("-").Parens(Len(Id("ideal")).Op("-").Id("q")).Op("+").Lit(1),
					),
					If(Id("r").Op(">").Id("k")).Block(Break()),
					If(Id("x").Op("!=").Lit(0)).Block(
						Id("acc").Dot("add").Call(Id("r").Op("-").Lit(1), f.ftz(Id("x").Op("*").Add(d(Id("r").Op("-").Lit(1))))),
					),
				),
				ws().Dot("maskedGains").Call(Op("&").Id("acc"), Id("g"), Id("lab"), Id("w"), Id("wc"), Id("d"), Id("k"), Id("n"), Id("ragged")),
				Id("idcg").Op(":=").Id("acc").Dot("result").Call(),
				Id("o").Dot("val").Index(Id("b")).Op("=").Lit(0),
				If(Id("idcg").Op("!=").Lit(0)).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Add(f.ftz(Id("dcg").Op("/").Id("idcg")))),
			),
			Id("r").Op(":=").Id("ws").Dot("gsum").Index(Id("g").Dot("index")),
			List(Id("o").Dot("sw").Index(Id("b")), Id("o").Dot("r").Index(Id("b")), Id("o").Dot("pw").Index(Id("b"))).Op("=").List(ws().Dot("sw"), Id("r"), Lit(0)),
			If(Id("r").Op("!=").Lit(0)).Block(
				Id("o").Dot("pw").Index(Id("b")).Op("=").Add(f.ftz(Id("ws").Dot("gnum").Index(Id("g").Dot("index")).Op("/").Id("r"))),
			),
		},
	)...)
}

func famMasked(file *File, f fam) {
	cond := Id("g").Dot("zero")
	var doc []string
	if f.is32() {
		cond = Id("g").Dot("zero").Op("&&").Op("!").Parens(Id("k").Op("==").Lit(1).Op("&&").Id("ws").Dot("nvalid").Op("==").Lit(0))
		doc = []string{
			"A sum of one position is a copy in TF: the -0 of a masked slot with a",
			"negative weight survives it.",
		}
	}
	body := []Code{}
	for _, c := range doc {
		body = append(body, Comment(c))
	}
	body = append(body,
		If(cond).Block(Return()),
		Id("g0").Op(":=").Id("g").Dot("t"+f.bits).Index(Lit(0)),
		Id("m").Op(":=").Len(Id("lab")),
		Id("r").Op(":=").Id("ws").Dot("nvalid"),
		For(Id("i").Op(":=").Lit(0), Id("i").Op("<").Id("n").Op("&&").Id("r").Op("<").Id("k"), Id("i").Op("++")).Block(
			Var().Id("wi").Add(f.t()),
			If(Id("i").Op("<").Id("m")).Block(
				Id("wi").Op("=").Add(f.w(Id("i"))),
				If(Id("wi").Op(">").Lit(0).Op("&&").Parens(Id("ragged").Op("||").Add(f.lab(Id("i"))).Op(">=").Lit(0))).Block(Continue()),
			).Else().If(Id("w").Op("==").Nil()).Block(Id("wi").Op("=").Id("wc")),
			Id("acc").Dot("add").Call(Id("r"), f.ftz(f.ftz(Id("wi").Op("*").Id("g0")).Op("*").Id("d").Index(Id("r")))),
			Id("r").Op("++"),
		),
	)
	file.Comment("maskedGains adds the terms of the masked slots, which follow the valid items")
	file.Comment("in slot order, when the gain of label 0 is not 0.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("maskedGains").Params(
		Id("acc").Op("*").Id(f.Lane), Id("g").Op("*").Id("gainEval"), List(Id("lab"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), Id("d").Index().Add(f.t()), List(Id("k"), Id("n")).Int(), Id("ragged").Bool(),
	).Block(body...)
}

func famARP(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	var copyZero []Code
	if f.is32() {
		copyZero = []Code{
			If(Id("n").Op("==").Lit(1).Op("&&").Len(ws().Dot("keys")).Op("==").Lit(0)).Block(
				Comment("A sum of one slot is a copy in TF, so the -0 of a masked slot with a"),
				Comment("negative weight survives."),
				Var().Id("w0").Add(f.t()),
				If(Len(Id("lab")).Op(">").Lit(0)).Block(
					Id("w0").Op("=").Add(f.w(Lit(0))),
				).Else().If(Id("w").Op("==").Nil()).Block(
					Id("w0").Op("=").Id("wc"),
				),
				Id("lw").Op("=").Lit(0).Op("*").Id("w0"),
				Id("num").Op("=").Id("lw"),
			),
		}
	}
	file.Comment("arpList computes the average relevance position of list b, Σ rank·weight·label")
	file.Comment("over Σ weight·label in rank order over the whole list, and its list weight,")
	file.Comment("the denominator.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("arpList").Params(
		Id("o").Op("*").Id(f.out()), Id("b").Int(), List(Id("lab"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), Id("n").Int(),
	).Block(lines(
		f.lane("sl", Id("n"), Id("b").Op("*").Id("n"), "big1"),
		f.lane("sp", Id("n"), Id("b").Op("*").Id("n"), "big2"),
		[]Code{
			If(ws().Dot("grouped")).Block(lines(
				[]Code{
					Comment("The list weight adds the items in key order, the Stable order; the"),
					Comment("numerator spreads each tie group over its positions."),
					For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
						Id("i").Op(":=").Id("key").Dot("index").Call(),
						If(Id("x").Op(":=").Add(f.ftz(Id("lab").Index(Id("i")).Op("*").Id("ws").Dot("fw").Index(Id("i")))), Id("x").Op("!=").Lit(0)).Block(
							Id("sl").Dot("add").Call(Id("q"), Id("x")),
						),
					),
				},
				scratch("pwl", "terms", Id("n")),
				[]Code{
					Clear(Id("pwl")),
					Id("expectedARPTerms").Call(ws().Dot("keys"), Id("lab"), ws().Dot("fw"), Id("pwl"), Id(f.Ftz)),
					For(List(Id("r"), Id("x")).Op(":=").Range().Id("pwl")).Block(
						If(Id("x").Op("!=").Lit(0)).Block(Id("sp").Dot("add").Call(Id("r"), Id("x"))),
					),
				},
			)...).Else().Block(
				For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys")).Block(
					Id("i").Op(":=").Id("key").Dot("index").Call(),
					Id("x").Op(":=").Add(f.ftz(f.lab(Id("i")).Op("*").Add(f.w(Id("i"))))),
					Id("r").Op(":=").Id("ws").Dot("pos").Index(Id("q")),
					Id("sl").Dot("add").Call(Id("r").Op("-").Lit(1), Id("x")),
					Id("sp").Dot("add").Call(Id("r").Op("-").Lit(1), f.ftz(f.conv(Id("r")).Op("*").Id("x"))),
				),
			),
			List(Id("lw"), Id("num")).Op(":=").List(Id("sl").Dot("result").Call(), Id("sp").Dot("result").Call()),
		},
		copyZero,
		[]Code{
			Id("o").Dot("val").Index(Id("b")).Op("=").Lit(0),
			If(Id("lw").Op("!=").Lit(0)).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Add(f.ftz(Id("num").Op("/").Id("lw")))),
			Id("o").Dot("lw").Index(Id("b")).Op("=").Id("lw"),
		},
	)...)
}

func famOPA(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	pairLoop := func(body ...Code) Code {
		return For(Id("i").Op(":=").Range().Id("m")).Block(
			If(Id("fw").Index(Id("i")).Op("==").Lit(0)).Block(Continue()),
			For(Id("j").Op(":=").Range().Id("m")).Block(append([]Code{
				If(Id("fw").Index(Id("j")).Op("==").Lit(0).Op("||").Op("!").Parens(Id("fl").Index(Id("i")).Op(">").Id("fl").Index(Id("j")))).Block(Continue()),
			}, body...)...),
		)
	}
	file.Comment("opaList computes the ordered pair accuracy of list b and its list weight: the")
	file.Comment("weight of item i over the pairs of valid items with label_i > label_j, summed")
	file.Comment("where score_i > score_j and over every such pair, over the [L, L] pairs in")
	file.Comment("row-major order as TF does. Past opaMaxTerms pairs opaPairSums forms the exact")
	file.Comment("sums in O(L log L) and rounds them once to float64, then to the dtype.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("opaList").Params(
		Id("o").Op("*").Id(f.out()), Id("b").Int(), List(Id("lab"), Id("sc"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), Id("n").Int(), Id("ragged").Bool(),
	).Block(lines(
		[]Code{Id("m").Op(":=").Len(Id("lab"))},
		scratch("fl", "ol", Id("m")),
		scratch("fs", "os", Id("m")),
		scratch("fw", "ow", Id("m")),
		[]Code{
			Comment("fw is the weight of a valid item, 0 for a masked one."),
			For(Id("i").Op(":=").Range().Id("m")).Block(
				List(Id("fl").Index(Id("i")), Id("fs").Index(Id("i")), Id("fw").Index(Id("i"))).Op("=").List(f.lab(Id("i")), f.ftz(Id("sc").Index(Id("i"))), f.w(Id("i"))),
				If(Op("!").Parens(Id("fw").Index(Id("i")).Op(">").Lit(0)).Op("||").Op("!").Parens(Id("ragged").Op("||").Id("fl").Index(Id("i")).Op(">=").Lit(0))).Block(
					Id("fw").Index(Id("i")).Op("=").Lit(0),
				),
			),
			Var().List(Id("lw"), Id("num")).Add(f.t()),
			If(Id("n").Op("*").Id("n").Op("<=").Id("opaMaxTerms")).Block(lines(
				f.lane("sp", Id("n").Op("*").Id("n"), Id("b").Op("*").Id("n").Op("*").Id("n"), "big1"),
				f.lane("sc2", Id("n").Op("*").Id("n"), Id("b").Op("*").Id("n").Op("*").Id("n"), "big2"),
				[]Code{
					pairLoop(
						Id("sp").Dot("add").Call(Id("i").Op("*").Id("n").Op("+").Id("j"), Id("fw").Index(Id("i"))),
						If(Id("fs").Index(Id("i")).Op(">").Id("fs").Index(Id("j"))).Block(
							Id("sc2").Dot("add").Call(Id("i").Op("*").Id("n").Op("+").Id("j"), Id("fw").Index(Id("i"))),
						),
					),
					List(Id("lw"), Id("num")).Op("=").List(Id("sp").Dot("result").Call(), Id("sc2").Dot("result").Call()),
				},
			)...).Else().Block(
				List(Id("lw64"), Id("num64")).Op(":=").Id("opaPairSums").Call(Op("&").Id("ws").Dot("pairs"), Id("fl"), Id("fs"), Id("fw")),
				List(Id("lw"), Id("num")).Op("=").List(f.conv(Id("lw64")), f.conv(Id("num64"))),
			),
			Id("o").Dot("val").Index(Id("b")).Op("=").Lit(0),
			If(Id("lw").Op("!=").Lit(0)).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Add(f.ftz(Id("num").Op("/").Id("lw")))),
			Id("o").Dot("lw").Index(Id("b")).Op("=").Id("lw"),
		},
	)...)
}

func famFinish(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	o := func(field string) *Statement { return Id("o").Dot(field).Index(Id("b")) }
	file.Comment("finish derives spec j's list weights over the batch of bsz lists, divides DCG")
	file.Comment("by them, and forms the products the Keras Mean adds.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("finish").Params(List(Id("j"), Id("bsz")).Int(), Id("p").Op("*").Id("famPlan")).Block(
		Id("s").Op(":=").Op("&").Id("p").Dot("specs").Index(Id("j")),
		Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Id("j")),
		If(Op("!").Id("s").Dot("lwDirect").Call()).Block(
			Id("listWeights"+f.Name).Call(Id("o").Dot("sw").Index(Op(":").Id("bsz")), Id("o").Dot("r").Index(Op(":").Id("bsz")), Id("o").Dot("pw").Index(Op(":").Id("bsz")), Id("o").Dot("lw").Index(Op(":").Id("bsz"))),
		),
		For(Id("b").Op(":=").Range().Id("bsz")).Block(
			If(Id("s").Dot("dcgLike").Call()).Block(
				If(o("lw").Op("!=").Lit(0)).Block(
					o("val").Op("=").Add(f.ftz(o("val").Op("/").Add(o("lw")))),
				).Else().Block(
					o("val").Op("=").Lit(0),
				),
			),
			If(o("skip")).Block(o("lw").Op("=").Lit(0)),
			o("v").Op("=").Add(f.ftz(o("val").Op("*").Add(o("lw")))),
		),
	)

	file.Commentf("listWeights%s derives list weights as TF-Ranking's", f.Name)
	file.Comment("_per_example_weights_to_per_list_weights does: pw for a list whose relevance")
	file.Comment("r is > 0; the mean of pw over the lists with some relevance for the others (1")
	file.Comment("when none has any); 0 when the weights sum sw is <= 0.")
	file.Func().Id("listWeights"+f.Name).Params(List(Id("sw"), Id("r"), Id("pw"), Id("lw")).Index().Add(f.t())).Block(
		Id("c").Op(":=").Lit(0),
		For(Id("b").Op(":=").Range().Id("sw")).Block(
			If(Id("sw").Index(Id("b")).Op(">").Lit(0).Op("&&").Id("r").Index(Id("b")).Op(">").Lit(0)).Block(Id("c").Op("++")),
		),
		Id("avg").Op(":=").Add(f.conv(Lit(1))),
		If(Id("c").Op(">").Lit(0)).Block(
			Id("avg").Op("=").Add(f.ftz(Id("sum"+f.Name).Call(Id("pw"), Lit(0)).Op("/").Add(f.conv(Id("c"))))),
		),
		For(Id("b").Op(":=").Range().Id("sw")).Block(
			Var().Id("x").Add(f.t()),
			If(Id("sw").Index(Id("b")).Op(">").Lit(0)).Block(
				Id("x").Op("=").Id("avg"),
				If(Id("r").Index(Id("b")).Op(">").Lit(0)).Block(Id("x").Op("=").Id("pw").Index(Id("b"))),
			),
			Id("lw").Index(Id("b")).Op("=").Id("x"),
		),
	)
}

// readInputs reads list b of the batch with ws.inputs, returning its error.
func readInputs() []Code {
	return []Code{
		List(Id("lab"), Id("sc"), Id("w"), Id("wc"), Err()).Op(":=").Id("ws").Dot("inputs").Call(Id("b"), Op("&").Id("labels"), Op("&").Id("predictions"), Op("&").Id("weights"), Op("&").Id("wv")),
		If(Err().Op("!=").Nil()).Block(Return(Err())),
	}
}

// famInputs writes inputs, which reads one list of a batch for every
// kernel of the variant.
func famInputs(file *File, f fam) {
	ret := func(err Code) *Statement { return Return(Nil(), Nil(), Nil(), Lit(0), err) }
	check := For(List(Id("i"), Id("x")).Op(":=").Range().Id("row")).Block(
		If(Id("notFinite").Call(Float64().Call(Id("x")))).Block(
			ret(Id("weightError").Call(Id("b"), Id("i"), Float64().Call(Id("x")))),
		),
	)
	item := append(rowInto(f.variant, "row", "wv", "wrow"), check,
		Comment("A non-nil w says the weights are per item, even for an empty row."),
		Id("w").Op("=").Id("row"),
		If(Id("w").Op("==").Nil()).Block(Id("w").Op("=").Id("ws").Dot("none").Index(Op(":"))),
	)
	file.Commentf("inputs reads list b of a batch in %s: its labels and scores, and its", f.T)
	file.Comment("weights, wv being the batch's weight values (all by pointer, as it runs per")
	file.Comment("list). w holds the item weights, or is nil when every slot weighs wc. It")
	file.Comment("returns an error, wrapping ErrInput, for a non-finite weight.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("inputs").Params(
		Id("b").Int(), List(Id("labels"), Id("predictions")).Op("*").Qual(tensorPath, "Lists"), Id("weights").Op("*").Qual(tensorPath, "Weights"), Id("wv").Op("*").Qual(tensorPath, "Lists"),
	).Params(Index().Add(f.t()), Index().Add(f.t()), Index().Add(f.t()), f.t(), Error()).Block(lines(
		rowInto(f.variant, "lab", "labels", "lab"),
		rowInto(f.variant, "sc", "predictions", "sc"),
		[]Code{
			Var().Id("w").Index().Add(f.t()),
			Id("wc").Op(":=").Add(f.conv(Lit(1))),
			Switch(Id("weights").Dot("Kind").Call()).Block(
				Case(Qual(tensorPath, "ListWeights")).Block(
					Id("wc").Op("=").Add(f.conv(Id("wv").Dot("At").Call(Id("b"), Lit(0)))),
					If(Id("notFinite").Call(Float64().Call(Id("wc")))).Block(
						ret(Id("weightError").Call(Id("b"), Lit(-1), Float64().Call(Id("wc")))),
					),
				),
				Case(Qual(tensorPath, "ItemWeights")).Block(item...),
			),
			Return(Id("lab"), Id("sc"), Id("w"), Id("wc"), Nil()),
		},
	)...)
}

// mapBatch writes the batch function of the MAP specialisation: the plan
// of one MAP of the TFRanking convention whose empty lists score 0, as
// TF-Ranking's MeanAveragePrecisionMetric alone. It ranks each list with
// mapRank and derives the list weights with finish, as the general kernel
// does.
func mapBatch(file *File, f fam) {
	out := func(field string) *Statement { return Id("o").Dot(field).Index(Id("b")) }
	loop := append(readInputs(),
		List(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Id("bad")).Op(":=").Id("ws").Dot("mapRank").Call(
			Id("b"), Id("lab"), Id("sc"), Id("w"), Id("unrankedAt").Call(Id("unranked"), Id("b")), Id("wc"), Id("w").Op("!=").Nil(), Id("n"),
			Id("p").Dot("ragged"), Id("p").Dot("specs").Index(Lit(0)).Dot("topn"), Id("p").Dot("ties"), Id("rng")),
		If(Id("bad").Op(">=").Lit(0)).Block(
			Return(Id("scoreError").Call(Id("b"), Id("bad"), Float64().Call(Id("lab").Index(Id("bad"))))),
		),
		List(out("val"), out("pw"), out("sw"), out("r")).Op("=").List(Id("ap"), Id("pw"), Id("sw"), f.conv(Id("nrel"))),
	)
	file.Commentf("mapBatch computes in %s the AP and list weight of every list of a checked", f.T)
	file.Comment("batch under plan p, which must be the MAP specialisation (one MAP of the")
	file.Comment("TFRanking convention whose empty lists score 0), into ws.out[0]. unranked, when")
	file.Comment("not nil, holds each list's number of unranked relevant items. It returns an")
	file.Comment("error, wrapping ErrInput, for a NaN score or a non-finite weight.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("mapBatch").Params(
		List(Id("labels"), Id("predictions")).Qual(tensorPath, "Lists"), Id("weights").Qual(tensorPath, "Weights"),
		Id("unranked").Index().Int(), Id("p").Op("*").Id("famPlan"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Error().Block(
		List(Id("bsz"), Id("n")).Op(":=").List(Id("labels").Dot("Len").Call(), Id("labels").Dot("Width").Call()),
		Id("ws").Dot("prepare").Call(Id("p"), Id("bsz"), Id("n")),
		Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Lit(0)),
		Id("wv").Op(":=").Id("weights").Dot("Values").Call(),
		For(Id("b").Op(":=").Range().Id("bsz")).Block(loop...),
		Id("ws").Dot("finish").Call(Lit(0), Id("bsz"), Id("p")),
		Return(Nil()),
	)
}

// familyTestFile writes the tests of one variant: every metric of the family
// against the naive reference of metrics_reference_test.go on random batches
// under every tie policy, and the allocation count of a steady-state update.
func familyTestFile(v variant) *File {
	file := NewFile("metric")
	file.HeaderComment(header)
	t := Id("t")
	file.Commentf("TestFamily%sMatchesReference checks every metric of the family in %s against", v.Name, v.T)
	file.Comment("the naive reference: bit for bit under Stable, Pessimistic and Optimistic,")
	file.Comment("the mean over every tie order under Expected, one of the tie orders under Random.")
	file.Func().Id("TestFamily" + v.Name + "MatchesReference").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkFamilyReference").Types(Id(v.T)).Call(t, Id(v.DType), Lit(v.Tol*10)),
	)
	file.Commentf("TestFamily%sSubtopicsMatchReference checks PrecisionIA and AlphaDCG in %s", v.Name, v.T)
	file.Comment("against the naive reference, as the test above does.")
	file.Func().Id("TestFamily" + v.Name + "SubtopicsMatchReference").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkDivReference").Types(Id(v.T)).Call(t, Id(v.DType), Lit(v.Tol*10)),
	)
	file.Commentf("TestFamily%sPackMatchesLoop checks the vector masking kernel against", v.Name)
	file.Comment("the Go loop, bit for bit, in every metric of the family and in")
	file.Comment("MeanAveragePrecision, on lists of every length up to 300.")
	file.Func().Id("TestFamily" + v.Name + "PackMatchesLoop").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkPackMatchesLoop").Call(t, Id(v.DType)),
	)
	file.Commentf("TestFamily%sAllocatesNothing checks that a steady-state %s update of a", v.Name, v.T)
	file.Comment("suite of every metric allocates nothing, for every tie policy and weight kind.")
	file.Func().Id("TestFamily" + v.Name + "AllocatesNothing").Params(t.Clone().Op("*").Qual("testing", "T")).Block(
		Id("checkFamilyAllocs").Call(t, Id(v.DType)),
	)
	mapTests(file, v)
	return file
}

// famDiv writes the kernels of the metrics over labels with subtopics:
// labels [B, L*T], predictions [B, L].
func famDiv(file *File, f fam) {
	ws := func() *Statement { return Id("ws") }
	loop := lines(
		readInputs(),
		[]Code{
			Id("wc").Op("=").Add(f.ftz(Id("wc"))),
			If(Id("bad").Op(":=").Id("ws").Dot("divRank").Call(Id("b"), Id("lab"), Id("sc"), Id("w"), Id("wc"), Id("n"), Id("nt"), Id("p"), Id("rng")), Id("bad").Op(">=").Lit(0)).Block(
				Return(Id("scoreError").Call(Id("b"), Id("bad"), Float64().Call(Id("lab").Index(Id("bad").Op("*").Id("nt"))))),
			),
			For(Id("j").Op(":=").Range().Id("p").Dot("specs")).Block(
				ws().Dot("divList").Call(Id("j"), Id("b"), Id("lab"), Id("w"), Id("wc"), Id("n"), Id("nt"), Id("p")),
			),
		},
	)
	file.Commentf("divBatch computes in %s every spec's per-list values and list weights of", f.T)
	file.Comment("a checked batch whose labels hold p.subtopics labels per item, as")
	file.Comment("TF-Ranking's _DivRankingMetric does: an item is valid when any of its")
	file.Comment("labels is >= 0 (or it is in its ragged row), whatever its weight.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("divBatch").Params(
		List(Id("labels"), Id("predictions")).Qual(tensorPath, "Lists"), Id("weights").Qual(tensorPath, "Weights"),
		Id("p").Op("*").Id("famPlan"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Error().Block(
		List(Id("bsz"), Id("n"), Id("nt")).Op(":=").List(Id("predictions").Dot("Len").Call(), Id("predictions").Dot("Width").Call(), Id("p").Dot("subtopics")),
		ws().Dot("prepare").Call(Id("p"), Id("bsz"), Id("n")),
		Id("wv").Op(":=").Id("weights").Dot("Values").Call(),
		For(Id("b").Op(":=").Range().Id("bsz")).Block(loop...),
		For(Id("j").Op(":=").Range().Id("p").Dot("specs")).Block(
			ws().Dot("finish").Call(Id("j"), Id("bsz"), Id("p")),
		),
		Return(Nil()),
	)

	file.Comment("divRank sorts the valid items of list b, counts each one's subtopics with a")
	file.Comment("label >= 1 and the subtopics covered, and computes the list weight's parts")
	file.Comment("with relevance = any label >= 1. It returns the index of a valid item whose")
	file.Comment("score is NaN, or -1.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("divRank").Params(
		Id("b").Int(), List(Id("lab"), Id("sc"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), List(Id("n"), Id("nt")).Int(),
		Id("p").Op("*").Id("famPlan"), Id("rng").Op("*").Qual(randPath, "Rand"),
	).Int().Block(lines(
		[]Code{
			Id("m").Op(":=").Len(Id("sc")),
			Id("keys").Op(":=").Id("ws").Dot("keys").Index(Op(":").Lit(0)),
		},
		scratch("cnt", "cnt", Id("m")),
		scratch("cov", "cov", Id("nt")),
		[]Code{Clear(Id("cov"))},
		f.lane("trAcc", Id("n"), Id("b").Op("*").Id("n"), "big1"),
		f.lane("swAcc", Id("n"), Id("b").Op("*").Id("n"), "big2"),
		[]Code{
			Id("items").Op(":=").Id("w").Op("!=").Nil(),
			Id("nrel").Op(":=").Lit(0),
			For(Id("i").Op(":=").Range().Id("m")).Block(
				Id("wi").Op(":=").Id("wc"),
				If(Id("items")).Block(Id("wi").Op("=").Add(f.ftz(Id("w").Index(Id("i"))))),
				If(Id("items").Op("&&").Id("wi").Op("!=").Lit(0)).Block(Id("swAcc").Dot("add").Call(Id("i"), Id("wi"))),
				Id("row").Op(":=").Id("lab").Index(Id("i").Op("*").Id("nt").Op(":").Parens(Id("i").Op("+").Lit(1)).Op("*").Id("nt")),
				List(Id("valid"), Id("c")).Op(":=").List(Id("p").Dot("ragged"), Lit(0)),
				For(List(Id("_"), Id("y")).Op(":=").Range().Id("row")).Block(
					Id("y").Op("=").Add(f.ftz(Id("y"))),
					If(Id("y").Op(">=").Lit(0)).Block(Id("valid").Op("=").True()),
					If(Id("y").Op(">=").Lit(1)).Block(Id("c").Op("++")),
				),
				Id("cnt").Index(Id("i")).Op("=").Lit(0),
				If(Op("!").Id("valid")).Block(Continue()),
				Id("s").Op(":=").Add(f.ftz(Id("sc").Index(Id("i")))),
				If(Id("s").Op("!=").Id("s")).Block(Return(Id("i"))),
				Id("cnt").Index(Id("i")).Op("=").Add(f.conv(Id("c"))),
				If(Id("c").Op(">").Lit(0)).Block(
					Id("nrel").Op("++"),
					Id("trAcc").Dot("add").Call(Id("i"), Id("wi")),
					For(List(Id("t"), Id("y")).Op(":=").Range().Id("row")).Block(
						If(f.ftz(Id("y")).Op(">=").Lit(1)).Block(Id("cov").Index(Id("t")).Op("=").True()),
					),
				),
				Id("keys").Op("=").Append(Id("keys"), Id(f.MakeKy).Call(Id("s"), Id("tieBits").Call(Id("p").Dot("ties"), Id("c").Op(">").Lit(0), Id("i")))),
			),
			Id("nsub").Op(":=").Lit(0),
			For(List(Id("_"), Id("c")).Op(":=").Range().Id("cov")).Block(
				If(Id("c")).Block(Id("nsub").Op("++")),
			),
			List(ws().Dot("nsub"), ws().Dot("nrel"), ws().Dot("tr")).Op("=").List(Id("nsub"), Id("nrel"), Id("trAcc").Dot("result").Call()),
			ws().Dot("sw").Op("=").Id("wc"),
			If(Id("items")).Block(
				ws().Dot("sw").Op("=").Id("swAcc").Dot("result").Call(),
			).Else().If(Id("n").Op("==").Lit(0)).Block(
				ws().Dot("sw").Op("=").Lit(0),
			),
			ws().Dot("nvalid").Op("=").Len(Id("keys")),
			ws().Dot("sorter").Dot("sort").Call(Id("keys")),
			ws().Dot("keys").Op("=").Id("keys"),
			ws().Dot("grouped").Op("=").False(),
			Switch(Id("p").Dot("ties")).Block(
				Case(Id("Random")).Block(Id("shuffleGroups").Call(Id("keys"), Id("rng"))),
				Case(Id("Expected")).Block(ws().Dot("grouped").Op("=").True()),
			),
			Return(Lit(-1)),
		},
	)...)

	var copyZero []Code
	if f.is32() {
		copyZero = []Code{
			If(Id("k").Op("==").Lit(1).Op("&&").Id("ws").Dot("nvalid").Op("==").Lit(0).Op("&&").Id("n").Op(">").Lit(0)).Block(
				Comment("A sum of one position is a copy in TF: slot 0, masked, adds its -0"),
				Comment("when its weight is negative."),
				Id("w0").Op(":=").Id("wc"),
				If(Id("w").Op("!=").Nil()).Block(
					Id("w0").Op("=").Lit(0),
					If(Len(Id("w")).Op(">").Lit(0)).Block(Id("w0").Op("=").Add(f.ftz(Id("w").Index(Lit(0))))),
				),
				Id("acc").Dot("add").Call(Lit(0), f.ftz(f.ftz(Id("w0").Op("*").Lit(0)).Op("*").Id("d").Index(Lit(0)))),
			),
		}
	}
	file.Comment("divList computes spec j's value of list b: PrecisionIA, the subtopics with a")
	file.Comment("label >= 1 of the items within the cutoff over min(topn, valid items) times")
	file.Comment("the subtopics covered; AlphaDCG, weight times discount times the alpha gain,")
	file.Comment("Σ_t y_t·(1-alpha)^(Σ of y_t over the items ranked before), by position.")
	file.Func().Params(ws().Op("*").Id(f.ws())).Id("divList").Params(
		List(Id("j"), Id("b")).Int(), List(Id("lab"), Id("w")).Index().Add(f.t()), Id("wc").Add(f.t()), List(Id("n"), Id("nt")).Int(), Id("p").Op("*").Id("famPlan"),
	).Block(
		Id("s").Op(":=").Op("&").Id("p").Dot("specs").Index(Id("j")),
		Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Id("j")),
		Id("k").Op(":=").Id("s").Dot("cutoff").Call(Id("n")),
		Switch(Id("s").Dot("kind")).Block(
			Case(Id("KindPrecisionIA")).Block(
				Var().Id("num").Add(f.t()),
				If(ws().Dot("grouped")).Block(
					Id("num").Op("=").Id("expectedTopSum").Call(ws().Dot("keys"), ws().Dot("cnt"), Id("k")),
				).Else().Block(
					Comment("Integer counts: exact in any order."),
					For(List(Id("_"), Id("key")).Op(":=").Range().Id("ws").Dot("keys").Index(Op(":").Min(Id("k"), Len(ws().Dot("keys"))))).Block(
						Id("num").Op("+=").Id("ws").Dot("cnt").Index(Id("key").Dot("index").Call()),
					),
				),
				Id("den").Op(":=").Add(f.conv(Min(Id("s").Dot("topnOr").Call(Id("n")), ws().Dot("nvalid")))).Op("*").Add(f.conv(ws().Dot("nsub"))),
				Id("o").Dot("val").Index(Id("b")).Op("=").Lit(0),
				If(Id("den").Op("!=").Lit(0)).Block(Id("o").Dot("val").Index(Id("b")).Op("=").Add(f.ftz(Id("num").Op("/").Id("den")))),
			),
			Case(Id("KindAlphaDCG")).Block(lines(
				[]Code{
					Id("d").Op(":=").Id("ws").Dot("disc").Index(Id("j")),
					Comment("TF computes 1 - alpha in float64 and pow rounds it to the dtype."),
					Id("base").Op(":=").Add(f.conv(Lit(1).Op("-").Id("s").Dot("alpha"))),
				},
				scratch("cum", "cum", Id("nt")),
				[]Code{Clear(Id("cum"))},
				scratch("terms", "terms", Id("nt")),
				f.lane("acc", Id("k"), Id("b").Op("*").Id("k"), "big1"),
				[]Code{
					For(List(Id("q"), Id("key")).Op(":=").Range().Id("ws").Dot("keys").Index(Op(":").Min(Id("k"), Len(ws().Dot("keys"))))).Block(
						Id("i").Op(":=").Id("key").Dot("index").Call(),
						For(Id("t").Op(":=").Range().Id("nt")).Block(
							Id("y").Op(":=").Add(f.ftz(Id("lab").Index(Id("i").Op("*").Id("nt").Op("+").Id("t")))),
							Id("terms").Index(Id("t")).Op("=").Add(f.ftz(Id("y").Op("*").Id("pow"+f.Name).Call(Id("base"), Id("cum").Index(Id("t"))))),
							Id("cum").Index(Id("t")).Op("=").Add(f.ftz(Id("cum").Index(Id("t")).Op("+").Id("y"))),
						),
						Comment("The gain adds the subtopics in Eigen's order over the [B, K, T] tensor."),
						Id("g").Op(":=").Id("sum"+f.Name).Call(Id("terms"), Parens(Id("b").Op("*").Id("k").Op("+").Id("q")).Op("*").Id("nt")),
						Id("wi").Op(":=").Id("wc"),
						If(Id("w").Op("!=").Nil()).Block(Id("wi").Op("=").Add(f.ftz(Id("w").Index(Id("i"))))),
						Id("acc").Dot("add").Call(Id("q"), f.ftz(f.ftz(Id("wi").Op("*").Id("g")).Op("*").Id("d").Index(Id("q")))),
					),
				},
				copyZero,
				[]Code{Id("o").Dot("val").Index(Id("b")).Op("=").Id("acc").Dot("result").Call()},
			)...),
		),
		ws().Dot("relWeights").Call(Id("o"), Id("b")),
	)
}

// unrankedMAP writes the recount of unranked relevant items in a plan of
// several metrics, whose general kernel (batch) knows only ranked items: for
// each list with unranked items, every MAP of specs is recomputed by the MAP
// specialisation, mapRank, which adds them to the AP denominator and the
// list weight, so the values are those of the MAP made alone, bit for bit
// (every tie policy but Random ranks the same way in both kernels, and a
// plan of several metrics refuses unranked items under Random). The list
// weights of those metrics are then derived again over the batch.
func unrankedMAP(file *File, f fam) {
	out := func(field string) *Statement { return Id("o").Dot(field).Index(Id("b")) }
	loop := append([]Code{
		If(Id("unranked").Index(Id("b")).Op("==").Lit(0)).Block(Continue()),
		Id("some").Op("=").True(),
	}, readInputs()...)
	loop = append(loop,
		For(List(Id("_"), Id("j")).Op(":=").Range().Id("specs")).Block(
			List(Id("ap"), Id("pw"), Id("sw"), Id("nrel"), Id("bad")).Op(":=").Id("ws").Dot("mapRank").Call(
				Id("b"), Id("lab"), Id("sc"), Id("w"), Id("unranked").Index(Id("b")), Id("wc"), Id("w").Op("!=").Nil(), Id("n"),
				Id("p").Dot("ragged"), Id("p").Dot("specs").Index(Id("j")).Dot("topn"), Id("p").Dot("ties"), Nil()),
			If(Id("bad").Op(">=").Lit(0)).Block(
				Return(Id("scoreError").Call(Id("b"), Id("bad"), Float64().Call(Id("lab").Index(Id("bad"))))),
			),
			Id("o").Op(":=").Op("&").Id("ws").Dot("out").Index(Id("j")),
			List(out("val"), out("pw"), out("sw"), out("r")).Op("=").List(Id("ap"), Id("pw"), Id("sw"), f.conv(Id("nrel"))),
		),
	)
	file.Commentf("unrankedMAP recounts in %s the MAP metrics specs of each list of a batch", f.T)
	file.Comment("that batch has computed, for the lists with unranked[b] > 0 unranked relevant")
	file.Comment("items, with the MAP specialisation, which adds them to the AP denominator and")
	file.Comment("the list weight (Suite.UpdateUnranked). The values are those of the MAP made")
	file.Comment("alone, bit for bit: every tie policy but Random ranks the same way in both")
	file.Comment("kernels, and a plan of several metrics refuses unranked items under Random.")
	file.Comment("The list weights of those metrics are then derived again over the batch.")
	file.Func().Params(Id("ws").Op("*").Id(f.ws())).Id("unrankedMAP").Params(
		Id("specs").Index().Int(), List(Id("labels"), Id("predictions")).Qual(tensorPath, "Lists"), Id("weights").Qual(tensorPath, "Weights"),
		Id("unranked").Index().Int(), Id("p").Op("*").Id("famPlan"),
	).Error().Block(
		List(Id("bsz"), Id("n")).Op(":=").List(Id("labels").Dot("Len").Call(), Id("labels").Dot("Width").Call()),
		Id("wv").Op(":=").Id("weights").Dot("Values").Call(),
		Id("some").Op(":=").False(),
		For(Id("b").Op(":=").Range().Id("bsz")).Block(loop...),
		If(Op("!").Id("some")).Block(Return(Nil())),
		For(List(Id("_"), Id("j")).Op(":=").Range().Id("specs")).Block(
			Id("ws").Dot("finish").Call(Id("j"), Id("bsz"), Id("p")),
		),
		Return(Nil()),
	)
}
