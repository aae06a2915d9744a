// Command gorgonia-ranker trains a small neural ranker with Gorgonia and
// watches its validation MAP with rankmetrics while it trains.
//
//	go run ./examples/gorgonia-ranker
//
// By default it uses the synthetic learning-to-rank dataset that
// internal/ltrdata generates deterministically (1000 queries of 8 to 40
// documents, graded labels 0 to 4, 24 features; split 600/200/200), so it
// needs no download. Point it at LETOR files of your own, such as a fold of
// MQ2008 or MSLR-WEB10K, with -train, -valid and -test (without -valid, the
// last 20% of the training queries are held out).
//
// The model scores each document on its own (a linear model, or an MLP with
// one ReLU hidden layer) and is trained with a listwise softmax
// cross-entropy loss: for each list, the softmax of the scores is pushed
// towards the labels normalised to sum to 1 (lists without a positive label
// do not contribute; negative labels count as 0 in the loss). Features are
// standardised with the training set's mean and standard deviation. Lists
// are padded to the longest list of the data and batches to a fixed number
// of lists, because Gorgonia graphs have fixed shapes; the padding is masked
// out of the loss and, through adapters.Batch's Lengths and NumLists, out of
// the metric.
//
// Every epoch it prints the mean training loss and the validation MAP@10
// (TF-Ranking's MeanAveragePrecisionMetric with topn=10) with its
// (1 - alpha) t interval over the validation queries (adapters.WithInterval
// on the per-query AP; -history writes its bounds as val_map@10_ci_low
// and val_map@10_ci_high), with a progress bar on stderr. Early stopping (adapters.EarlyStopping) stops training when
// MAP@10 has not improved for -patience epochs and restores the weights of
// the best epoch, which are then scored on the test split. Alongside it, a
// BestCheckpoint with adapters.WithSignificance keeps the per-query AP of
// the best epoch (adapters.PerQuery records them) and counts an epoch as
// better only when a paired t-test over the validation queries says so at
// -alpha; the epochs better in mean but not significantly are marked and
// counted.
package main
