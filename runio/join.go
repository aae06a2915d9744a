package runio

import "fmt"

// Joiner joins the judgments and the ranked documents of one TREC query
// into a Query, as trec_eval joins them: it is the join of the TREC reader
// (NewTRECReader, Open), offered to front ends that gather a query's lines
// themselves (the Beam pipeline), so that the qrels+run join is written
// once. Run documents without a judgment get label 0 and are marked
// Unjudged; judged documents the run does not rank go to UnrankedLabels
// (and UnrankedDocs with Options.KeepDocs), in qrels order. A Joiner
// reuses its buffers; it is not safe for concurrent use.
type Joiner struct {
	t      trecReader
	qb, rb trecBlock
}

// NewJoiner returns a Joiner under opts: opts.Dedupe says what a repeated
// document is (an error under DedupeError), opts.KeepDocs whether the
// query keeps its document ids (Query.Docs, Unjudged, UnrankedDocs).
func NewJoiner(opts Options) *Joiner {
	return &Joiner{t: trecReader{opts: opts, qname: "qrels", rname: "run", tbl: newDocTable()}}
}

// Join sets q to query qid, joined from its judgments (judgedDocs with
// their labels; none when the qrels lack the query) and its ranked
// documents in run order (runDocs with their scores; none when the run
// lacks it), and returns what the join counted: the query as qrels-only or
// run-only, unjudged items, judged documents not ranked, duplicates
// dropped. The Line of a *ParseError for a repeated document is its
// position in its list, from 1.
func (j *Joiner) Join(q *Query, qid string, judgedDocs []string, labels []float64, runDocs []string, scores []float64) (Stats, error) {
	if len(judgedDocs) != len(labels) || len(runDocs) != len(scores) {
		return Stats{}, fmt.Errorf("runio: join of query %q: %d judged documents with %d labels, %d ranked documents with %d scores",
			qid, len(judgedDocs), len(labels), len(runDocs), len(scores))
	}
	if len(judgedDocs) == 0 && len(runDocs) == 0 {
		return Stats{}, fmt.Errorf("runio: join of query %q: no judgment and no ranked document", qid)
	}
	fill := func(b *trecBlock, docs []string, vals []float64) *trecBlock {
		if len(docs) == 0 {
			return nil
		}
		b.reset()
		b.qid = append(b.qid, qid...)
		for i, d := range docs {
			b.docs = append(b.docs, d...)
			b.docEnd = append(b.docEnd, uint32(len(b.docs)))
			b.vals = append(b.vals, vals[i])
			b.lines = append(b.lines, int64(i+1))
		}
		return b
	}
	qb, rb := fill(&j.qb, judgedDocs, labels), fill(&j.rb, runDocs, scores)
	j.t.stats = Stats{}
	err := j.t.join(q, qb, rb)
	return j.t.stats, err
}
