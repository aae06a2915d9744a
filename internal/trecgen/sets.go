package trecgen

// Set is a named data set shape.
type Set struct {
	Name       string
	SeedOffset uint64
	Options    Options
}

// Sets are the data sets of the golden files and of the live check:
// "sorted" streams (topics in order, every judged topic retrieved),
// "shuffled" is gathered in memory and has judged topics missing from the
// run, comments and run topics without judgements.
var Sets = []Set{
	{Name: "sorted", SeedOffset: 0, Options: Options{Topics: 10, ExtraRun: 2, LongTopic: true}},
	{Name: "shuffled", SeedOffset: 1000, Options: Options{Topics: 8, MissingJudged: 2, ExtraRun: 2, Shuffle: true, Comments: true}},
}
