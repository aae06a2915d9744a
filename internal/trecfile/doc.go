// Package trecfile reads TREC qrels and run files exactly as trec_eval
// 10.0 or 9.0.8 reads them, for the rankmetrics trec_eval command: it is
// the trec_eval mode of runio's TREC input.
//
// It has no qid scan and no qrels+run join of its own. Lines are read by
// runio's [runio.TRECScanner] in the version's trec_eval mode
// ([runio.TRECEval10], [runio.TRECEval908]), which decides which lines are
// comments, which are malformed and how fields are split; the first pass
// ([Scan]) reads every line into runio's [runio.TopicIndex], the index of
// [runio.ScanTopics], in trec_eval's topic order (C's strcmp), and finds
// whether a file's topics are sorted, each in one block, or scattered; and
// the command joins the judged topics with the run's through
// [runio.TopicMerge], the join of runio's TREC reader. This package adds
// what only trec_eval needs: the file ending at a NUL byte that starts a
// line, standard input read as trec_eval 10.0 reads it, numbers read as C's
// atof and atol read them, topics gathered into metric/treceval's
// judgements and documents, the qrels index by byte range, and the run read
// as a stream, block by block or gathered, as its layout allows
// ([ReadRun]).
//
// Every error names the file, the physical line and the field.
package trecfile
