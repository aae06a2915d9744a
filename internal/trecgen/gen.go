package trecgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Options shape a generated data set.
type Options struct {
	// Topics is the number of judged topics.
	Topics int
	// MissingJudged adds judged topics absent from the run.
	MissingJudged int
	// ExtraRun adds run topics absent from the judgements.
	ExtraRun int
	// Layout orders the lines.
	Layout Layout
	// Comments adds '#' comment lines (read as comments by 10.0; written
	// with 4 and 6 fields so that 9.0.8 reads them as a topic "#" that is
	// never evaluated).
	Comments bool
	// LongTopic adds one topic with more than 1000 retrieved documents.
	LongTopic bool
}

// Data is a generated qrels and run pair.
type Data struct {
	Qrels, Run []byte
}

// Layout is the order of a file's lines.
type Layout int

const (
	// SortedBlocks: topics in byte order, each in one block of lines.
	SortedBlocks Layout = iota
	// Blocks: each topic in one block, topics in generation order.
	Blocks
	// Shuffled: lines in random order, topics interleaved.
	Shuffled
)

type line struct {
	qid, text string
}

// Generate returns a data set for seed.
func Generate(seed uint64, o Options) Data {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var qrels, run []line
	n := o.Topics + o.MissingJudged + o.ExtraRun
	used := map[string]bool{}
	for t := 0; t < n; t++ {
		qid := topicID(r)
		for used[qid] {
			qid = topicID(r)
		}
		used[qid] = true
		judged := t < o.Topics+o.MissingJudged
		inRun := t < o.Topics || t >= o.Topics+o.MissingJudged
		ndocs := docCount(r, t, o)
		docs := docIDs(r, ndocs+ndocs/2+3)
		// Judgements: a sample of the documents, graded, some -2; a
		// few topics have no relevant document.
		noRel := r.IntN(8) == 0
		if judged {
			for i, d := range docs {
				if r.IntN(3) == 0 && i < ndocs {
					continue // retrieved but unjudged
				}
				rel := [...]int{0, 0, 0, 1, 1, 2, 3, -2}[r.IntN(8)]
				if noRel && rel > 0 {
					rel = 0
				}
				qrels = append(qrels, line{qid, fmt.Sprintf("%s %d %s %d", qid, r.IntN(2), d, rel)})
			}
		}
		if inRun {
			scores := scoresFor(r, ndocs)
			for i := 0; i < ndocs; i++ {
				run = append(run, line{qid, fmt.Sprintf("%s Q0 %s %d %s run%d", qid, docs[i], i+1, scores[i], seed%7)})
			}
		}
	}
	arrange(r, qrels, o.Layout)
	arrange(r, run, o.Layout)
	var q, s bytes.Buffer
	for i, l := range qrels {
		if o.Comments && i == len(qrels)/2 {
			q.WriteString("# judged by ab\n")
		}
		q.WriteString(l.text)
		q.WriteByte('\n')
	}
	for i, l := range run {
		if o.Comments && i == len(run)/3 {
			s.WriteString("#  a comment in a run\n\n")
		}
		txt := l.text
		if i == len(run)-1 {
			txt += "-last" // the run id trec_eval prints is the last line's
		}
		s.WriteString(txt)
		s.WriteByte('\n')
	}
	return Data{Qrels: q.Bytes(), Run: s.Bytes()}
}

func topicID(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		return strconv.Itoa(1 + r.IntN(9))
	case 1:
		return strconv.Itoa(10 + r.IntN(990))
	case 2:
		return "q" + strconv.Itoa(r.IntN(100)) + string(rune('a'+r.IntN(3)))
	}
	return "T-" + strconv.Itoa(r.IntN(10000))
}

func docCount(r *rand.Rand, t int, o Options) int {
	switch {
	case t == 0:
		return 1
	case t == 1 && o.LongTopic:
		return 1001 + r.IntN(150)
	case r.IntN(5) == 0:
		return 2 + r.IntN(8)
	}
	return 10 + r.IntN(90)
}

func docIDs(r *rand.Rand, n int) []string {
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var d string
		switch r.IntN(3) {
		case 0:
			d = strconv.Itoa(r.IntN(100000))
		case 1:
			d = fmt.Sprintf("LA%06d-%04d", r.IntN(1000000), r.IntN(10000))
		default:
			d = "d" + strconv.Itoa(r.IntN(5000))
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// scoresFor writes n scores: mostly distinct, with groups of exact ties,
// near ties 1e-9 apart, integers and negative values.
func scoresFor(r *rand.Rand, n int) []string {
	out := make([]string, n)
	base := 10 + r.Float64()*5
	for i := 0; i < n; i++ {
		base -= r.Float64() * 0.2
		switch k := r.IntN(10); {
		case k == 0 && i > 0:
			out[i] = out[i-1] // exact tie
		case k == 1 && i > 0:
			v, _ := strconv.ParseFloat(out[i-1], 64)
			out[i] = strconv.FormatFloat(v+1e-9, 'f', 9, 64) // near tie
		case k == 2:
			out[i] = strconv.Itoa(int(base))
		default:
			out[i] = strconv.FormatFloat(base, 'f', 6, 64)
		}
	}
	return out
}

func arrange(r *rand.Rand, ls []line, layout Layout) {
	if layout == Shuffled {
		r.Shuffle(len(ls), func(i, j int) { ls[i], ls[j] = ls[j], ls[i] })
		return
	}
	// Stable by qid, keeping the generated order within a topic.
	idx := make(map[string]int)
	var order []string
	for _, l := range ls {
		if _, ok := idx[l.qid]; !ok {
			idx[l.qid] = len(order)
			order = append(order, l.qid)
		}
	}
	buckets := make(map[string][]line, len(order))
	for _, l := range ls {
		buckets[l.qid] = append(buckets[l.qid], l)
	}
	if layout == SortedBlocks {
		sortStrings(order)
	}
	ls = ls[:0]
	for _, q := range order {
		ls = append(ls, buckets[q]...)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
