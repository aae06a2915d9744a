// Package trecfile reads TREC qrels and run files exactly as trec_eval
// 10.0 or 9.0.8 reads them (which lines are comments, which are malformed,
// how fields are split), for the rankmetrics trec_eval command.
//
// Qrels are read whole and grouped by topic. Runs are scanned as a stream
// of topic groups in file order with bounded memory; the caller decides
// whether it can evaluate them in that order or must gather them first.
// Every error names the file, the physical line and the field.
package trecfile
