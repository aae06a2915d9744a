// Package gomlx plugs rankmetrics' mean average precision (MAP) into GoMLX
// (github.com/gomlx/gomlx v0.26.0) training.
//
// It is a Go module of its own, so the core rankmetrics module does not
// depend on GoMLX. It is tested with GoMLX's pure Go backend, simplego
// (GOMLX_BACKEND=go), which needs no C library or plugin.
//
// Two pieces:
//
//   - [MeanAveragePrecision] is a GoMLX evaluation metric (metrics.Interface plus
//     metrics.UpdateGo). Inside the graph it only packs labels, scores, mask
//     and weights into one tensor; the sorting, the tie policy, the weights
//     and the averaging run on the host with the rankmetrics kernels, so the
//     value is TF-Ranking's MeanAveragePrecisionMetric, bit for bit in
//     float32. Give it to train.NewTrainer among the evaluation metrics.
//   - [Evaluator], made by [Attach], is a train.Loop hook: every
//     Config.EveryNSteps steps it runs Trainer.Eval on a validation set,
//     records and logs MAP, feeds GoMLX's command-line progress bar through
//     [Evaluator.ProgressMetric], and passes each value to the
//     adapters.Callback values of Config.Callbacks. Early stopping and
//     checkpoints are such callbacks: adapters.NewEarlyStopping with
//     adapters.WithPatience stops training after that many evaluations
//     without improvement (and adapters.WithRestoreBest keeps the best
//     weights), adapters.NewBestCheckpoint saves them on each new best value.
//
// A batch for the metric, as a train.Dataset yields it: inputs as the model
// needs them; labels[0] the relevance labels [B, L]; optionally a Bool
// [B, L] mask for padded items, a Bool [B] mask for padded lists, and float
// per-item [B, L] or per-list [B] weights, in any order (see [MeanAveragePrecision]). The
// model's first output holds the scores, [B, L] or [B, L, 1].
//
// The example program examples/gomlx-ranker trains a small neural ranker on
// generated data and shows the whole setup.
package gomlx
