// Package trecgen generates deterministic TREC qrels and run files that
// exercise trec_eval's corner cases: graded judgements 0-3 with -2 labels,
// unjudged retrieved documents, relevant documents never retrieved, exact
// score ties broken by docno and near ties 1e-9 apart (equal as C floats,
// different as doubles), shuffled lines and topics out of order, judged
// topics missing from the run and run topics missing from the judgements,
// topics without relevant documents, runs of one document and of more than
// a thousand, numeric and alphanumeric ids of different lengths, and a run
// id that changes on the last line.
package trecgen
