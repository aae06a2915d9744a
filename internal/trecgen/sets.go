package trecgen

// Set is a named data set shape.
type Set struct {
	Name       string
	SeedOffset uint64
	Options    Options
}

// Sets are the data sets of the golden files and of the live check, one
// per way rankmetrics trec_eval reads a run: "sorted" is streamed (topics
// in order, every judged topic retrieved), "blocks" is evaluated topic by
// topic and printed at the end (topics in one block each, out of order),
// "shuffled" is gathered in memory. The last two have judged topics
// missing from the run, run topics without judgements and comments.
var Sets = []Set{
	{Name: "sorted", SeedOffset: 0, Options: Options{Topics: 10, ExtraRun: 2, LongTopic: true}},
	{Name: "blocks", SeedOffset: 500, Options: Options{Topics: 8, MissingJudged: 1, ExtraRun: 2, Layout: Blocks, Comments: true}},
	{Name: "shuffled", SeedOffset: 1000, Options: Options{Topics: 8, MissingJudged: 2, ExtraRun: 2, Layout: Shuffled, Comments: true}},
}
