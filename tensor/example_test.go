package tensor_test

import (
	"fmt"

	"github.com/rankmetrics/rankmetrics/tensor"
	gt "gorgonia.org/tensor"
)

// A ragged batch from rows of different lengths; its width is the longest
// row, the width TF-Ranking pads to.
func ExampleRaggedRows() {
	l, _ := tensor.RaggedRows([][]float32{{3, 1}, {2}, {}})
	fmt.Println(l.Len(), l.Width(), l.RowLen(1), l.IsRagged())
	// Output: 3 2 1 true
}

// A gorgonia tensor is read in place: the metric sees later writes.
func ExampleFromGorgonia() {
	t := gt.New(gt.WithShape(2, 2), gt.WithBacking([]float32{0.1, 0.9, 0.5, 0.2}))
	l, err := tensor.FromGorgonia(t)
	if err != nil {
		panic(err)
	}
	t.Float32s()[0] = 0.7
	fmt.Println(l.Shape(), float32(l.At(0, 0)))
	// Output: [2, 2] 0.7
}
