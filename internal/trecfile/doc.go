// Package trecfile reads TREC qrels and run files exactly as trec_eval
// 10.0 or 9.0.8 reads them, for the rankmetrics trec_eval command.
//
// It does not read lines itself: runio's [runio.TRECScanner], in the
// version's trec_eval mode ([runio.TRECEval10], [runio.TRECEval908]),
// decides which lines are comments, which are malformed and how fields
// are split, the same scanner that reads TREC input for rankmetrics eval
// in runio's own mode. This package adds what only trec_eval needs: the
// numbers read as C's atof and atol do, topics grouped in qid order, the
// qrels index by byte range, and the run's layout (sorted, contiguous or
// scattered) for a streaming or block-by-block second pass.
//
// Qrels are read whole and grouped by topic. Runs are scanned as a stream
// of topic groups in file order with bounded memory; the caller decides
// whether it can evaluate them in that order or must gather them first.
// Every error names the file, the physical line and the field.
package trecfile
