package runio_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/rankmetrics/rankmetrics/runio"
)

func ExampleNewTRECReader() {
	qrels := "301 0 d1 1\n301 0 d2 0\n301 0 d7 2\n302 0 d4 1\n"
	run := "301 Q0 d2 1 2.5 demo\n301 Q0 d1 2 1.5 demo\n301 Q0 d9 3 0.5 demo\n303 Q0 d4 1 1.0 demo\n"
	r, err := runio.NewTRECReader(context.Background(), strings.NewReader(qrels), strings.NewReader(run), "qrels", "run", runio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var q runio.Query
	for {
		err := r.Next(&q)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s %-10s labels=%v scores=%v unranked=%v\n", q.QID, q.Match, q.Labels, q.Scores, q.UnrankedLabels)
	}
	st := r.Stats()
	fmt.Printf("queries=%d items=%d unjudged=%d unranked relevant=%d\n", st.Queries, st.Items, st.UnjudgedItems, st.UnrankedRelevant)
	// Output:
	// 301 both       labels=[0 1 0] scores=[2.5 1.5 0.5] unranked=[2]
	// 302 qrels-only labels=[] scores=[] unranked=[1]
	// 303 run-only   labels=[0] scores=[1] unranked=[]
	// queries=3 items=4 unjudged=2 unranked relevant=2
}

func ExampleNewDelimitedReader() {
	in := "qid,label,score,weight\nq1,1,0.9,1\nq1,0,0.4,2\nq2,3,0.1,1\n"
	r, err := runio.NewDelimitedReader(context.Background(), strings.NewReader(in), "preds.csv", ',', runio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var q runio.Query
	for r.Next(&q) == nil {
		fmt.Println(q.QID, q.Labels, q.Scores, q.Weights)
	}
	// Output:
	// q1 [1 0] [0.9 0.4] [1 2]
	// q2 [3] [0.1] [1]
}

func ExampleParseError() {
	in := "qid\tlabel\tscore\n1\t1\t0.5\n1\t0\tabc\n"
	r, _ := runio.NewDelimitedReader(context.Background(), strings.NewReader(in), "preds.tsv", '\t', runio.Options{})
	var q runio.Query
	fmt.Println(r.Next(&q))
	// Output:
	// preds.tsv:3: field score: value "abc": not a number
}

func ExampleParsePositions() {
	// A headerless TREC-like TSV: qid, an ignored column, doc, label, score.
	in := "q1\tx\td1\t1\t0.9\nq1\tx\td2\t0\t1.5\n"
	cols, err := runio.ParsePositions("qid,-,doc,label,score")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := runio.NewDelimitedReader(context.Background(), strings.NewReader(in), "run.tsv", '\t', runio.Options{Positions: cols, KeepDocs: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	var q runio.Query
	for r.Next(&q) == nil {
		fmt.Println(q.QID, q.Docs, q.Labels, q.Scores)
	}
	// Output:
	// q1 [d1 d2] [1 0] [0.9 1.5]
}

func ExampleOptions_limits() {
	// A line longer than MaxLineBytes is an error naming the flag to raise.
	in := `{"qid":"q1","label":1,"score":0.5,"note":"` + strings.Repeat("x", 100) + `"}` + "\n"
	_, err := runio.NewJSONLReader(context.Background(), strings.NewReader(in), "preds.jsonl", runio.Options{MaxLineBytes: 64})
	fmt.Println(err)
	// Output:
	// preds.jsonl:1: line longer than 64 bytes (--max-line-bytes raises the limit)
}
