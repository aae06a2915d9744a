// Package tensor holds batches of ranked lists for the rankmetrics metrics.
//
// A [Lists] value is a batch of B lists. It is either dense, shaped [B, L]
// like a matrix, or ragged, where each row has its own length, like a
// tf.RaggedTensor made of flat values and row splits. Storage is float32 or
// float64; the metric converts to its own dtype when it reads an element, as
// TF-Ranking casts its inputs.
//
// Constructors that take a slice, a gorgonia.org/tensor Dense or a gonum
// mat.Dense make views without copying; the caller must not change the data
// while a metric reads it. Constructors that take [][]T copy.
//
// [Weights] says how sample weights are given: none (the zero value, which
// means 1 on every slot, ragged padding included, as TF-Ranking's None),
// one weight per item, shaped like the labels, or one weight per list.
package tensor
