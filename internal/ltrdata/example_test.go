package ltrdata_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/ltrdata"
)

func ExampleRead() {
	in := `2 qid:7 1:0.5 3:1 # docid = a
0 qid:7 2:0.25
1 qid:9 1:1 2:1 3:1
`
	d, err := ltrdata.Read(strings.NewReader(in), ltrdata.WithName("example.txt"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range d.Queries {
		for i := range q.Len() {
			fmt.Println(q.ID, q.Labels[i], q.Doc(i, d.NumFeatures))
		}
	}
	_, err = ltrdata.Read(strings.NewReader("1 qid:7 1:x\n"), ltrdata.WithName("bad.txt"))
	fmt.Println(err)
	// Output:
	// 7 2 [0.5 0 1]
	// 7 0 [0 0.25 0]
	// 9 1 [1 1 1]
	// bad.txt:1: field 3 "1:x": feature 1: not a number: strconv.ParseFloat: parsing "x": invalid syntax
}

func ExampleWrite() {
	d := &ltrdata.Dataset{NumFeatures: 2, Queries: []ltrdata.Query{
		{ID: "1", Labels: []float64{1, 0}, Features: []float64{0.5, 2, 0, 1}},
	}}
	if err := ltrdata.Write(os.Stdout, d); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 qid:1 1:0.5 2:2
	// 0 qid:1 1:0 2:1
}
