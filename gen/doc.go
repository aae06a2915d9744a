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
// Each variant is named after its type: kernel_float32.go declares MAP's
// workspaceFloat32 and engine_float32.go the engine of every metric,
// famFloat32; kernel_float64.go and engine_float64.go declare their float64
// variants, and each has a _test.go file beside it.
// The summation order is not generated: every reduction calls sumFloat32 or
// sumFloat64 in metric/sum.go, the one place that fixes it.
package main
