// Command gen writes the float32 and float64 kernels of package metric, and
// the tests that check each of them against a naive reference, from one
// github.com/dave/jennifer description.
//
// Run it through go generate in package metric:
//
//	go generate ./metric
//
// which runs "go run ../gen -out ." there. With -verify it writes nothing,
// compares what it would write with the files on disk and exits with status
// 1, naming the stale files, when they differ. CI runs the verify mode.
//
// Each variant is named after its type: engine_float32.go declares the
// engine of every metric, famFloat32, and engine_float64.go its float64
// variant; each has a _test.go file beside it. Within an engine, the
// generator emits specialisations of the shared kernel, as Go's
// gen_sort_variants.go emits sort variants: the general kernel (batch,
// rank, list) computes any plan of metrics from one ranking per list, and
// the MAP specialisation (mapBatch, mapRank), which a plan of one MAP of the
// TFRanking convention runs, ranks only the relevant items and stops at the
// cutoff. Both share the workspace, the input reading (inputs), the list
// weights and the products (finish); the tests of each specialisation
// check it against the naive reference.
// The summation order is not generated: every reduction calls sumFloat32 or
// sumFloat64 in metric/sum.go, the one place that fixes it.
//
// The kernels of the keras-rs and torchmetrics profiles (profile_float32.go,
// profile_float64.go and their tests) are rendered from one text template,
// gen/profile.tmpl, with the dtype's names: what the libraries define
// (masking, gains, discounts, list weights, cutoffs, tie and empty-query
// rules) is written once for both dtypes. What they call to follow the
// libraries' machines rather than their definitions is hand-written in
// package metric: the order of torch's CPU sum (profile_torch.go), XLA's
// reduction order and logarithms and JAX's random bits (profile_xla.go).
package main
