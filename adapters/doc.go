// Package adapters connects rankmetrics metrics to training loops. It is
// framework-agnostic: hand-written loops use it directly, and the framework
// adapters (adapters/gorgonia, and adapters/gomlx in its own module) build on
// it.
//
// The pieces, in the style of Keras callbacks:
//
//   - [Validator] runs any scoring function over validation batches, feeds one
//     or more [metric.Metric] values and returns them as a metrics map, keyed
//     "val_" + metric name by default. Padded batches are handled through
//     per-row lengths or a mask.
//   - [Callback] receives a metrics map at the end of every epoch or step and
//     can ask the loop to stop. [Callbacks] runs several of them.
//   - [EarlyStopping] stops when a monitored value has not improved for a
//     number of evaluations, and restores the best state through a user
//     function.
//   - [BestCheckpoint] calls a user save function whenever the monitored value
//     improves.
//   - [History] keeps every evaluation and exports it as CSV or JSON.
//
// A typical loop:
//
//	v, _ := adapters.NewValidator(score, []metric.Metric{mapMetric})
//	es, _ := adapters.NewEarlyStopping("val_mean_average_precision_metric",
//		adapters.WithPatience(3), adapters.WithRestoreBest(save, restore))
//	hist := adapters.NewHistory()
//	cbs := adapters.Callbacks{es, hist}
//	for epoch := 1; ; epoch++ {
//		loss := trainOneEpoch()
//		m, err := v.Evaluate(ctx, slices.Values(validationBatches))
//		// handle err
//		m["loss"] = loss
//		if act, err := cbs.EpochEnd(epoch, step, m); err != nil || act == adapters.Stop {
//			break
//		}
//	}
//
// Callbacks are called from the training loop's goroutine; only [History] is
// safe for concurrent use.
package adapters
