// Package gorgonia evaluates ranking metrics on the outputs of a Gorgonia
// (gorgonia.org/gorgonia v0.9.18) graph during training.
//
// An [Evaluator] walks validation batches: for each one it binds the batch to
// the graph (through [BindNodes] or a function of your own), runs the VM,
// reads the score node's value — a *tensor.Dense of dtype Float32 or Float64
// and shape [B, L] — without copying, and feeds it to the metrics through an
// [adapters.Validator]. Padded batches (lists of different lengths padded to
// L, or dummy lists that fill a fixed batch size) are described by the
// Lengths, Mask and NumLists fields of [adapters.Batch].
//
// Gorgonia graphs have fixed shapes, so every batch must have the shapes the
// graph was built with.
//
// # Which VM
//
// Give the Evaluator a VM compiled for the scoring part of the graph only,
// as [NewScoringVM] makes:
//
//	evalVM := gorgonia.NewScoringVM(scores) // G.NewTapeMachine(g.ExactSubgraphRoots(scores))
//
// This skips the loss and the gradients, and it matters for correctness: a
// TapeMachine reuses memory, so when the program goes on past the score node
// (into a loss, say), a later operation can overwrite the score node's value
// in place before the Evaluator reads it. A VM over the whole graph is safe
// only with the G.TraceExec() option, which keeps a copy of every value.
//
// Importing this package next to gorgonia.org/gorgonia needs an alias for
// one of them; the examples use G for Gorgonia.
//
// Gorgonia v0.9.18 and gorgonia.org/tensor v0.9.24 panic at start-up on
// recent Go releases unless the main module requires
// go4.org/unsafe/assume-no-moving-gc v0.0.0-20231121144256-b99613f794b6 or
// later.
package gorgonia
