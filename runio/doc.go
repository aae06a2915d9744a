// Package runio reads ranking outputs from files, one query at a time.
//
// A [Reader] yields [Query] values: the qid, the items' labels and scores in
// input order, optional per-item weights and document ids, and, for TREC
// input, the judged documents that the run did not rank. The formats are:
//
//   - TREC: a qrels file (`qid iter docno rel`) and a run file
//     (`qid Q0 docno rank score tag`), joined on (qid, docno) as trec_eval does.
//     Run documents without a judgment get label 0. Judged documents missing
//     from the run are returned in [Query.UnrankedLabels]: they are not ranked
//     (they add no precision term) but a relevant one still belongs in the
//     average precision denominator, as in TF-Ranking's whole-list denominator.
//     Items keep the run file's line order; the rank column is not used.
//     The lines are read by [TRECScanner] in its [TRECStrict] mode; the
//     rankmetrics trec_eval command reads them with the same scanner in
//     a trec_eval mode, which follows trec_eval's own rules ([TRECMode]
//     lists the differences). Both join the qrels' topics with the run's
//     through [TopicMerge], the one qrels+run join (the reader in the
//     order of [CompareQID], trec_eval in byte order). Both find where a
//     file's topics are with one index of topic blocks, [TopicIndex]:
//     trec_eval through [ScanTopics], a first pass that checks every line,
//     the reader (under UnsortedAuto, on a file it can read again) through
//     a pass that cuts qids only and leaves the errors to its parser.
//   - TSV and CSV with a header row; the qid, label, score, weight and doc
//     column names are settable ([Columns]), or, without a header, the
//     columns are given in order ([Options.Positions]). CSV fields may be
//     quoted.
//   - JSON Lines, either one item per line
//     `{"qid":"q1","label":1,"score":0.5,"weight":1,"doc":"d1"}` or one list per
//     line `{"qid":"q1","labels":[...],"scores":[...],"weights":[...],"docs":[...]}`.
//   - Parquet, with the same column names as TSV.
//   - RKM1, the dense binary benchmark format (magic, u32 Q, u32 L, int8
//     labels, float32 scores); qids are synthesised as "1".."Q".
//
// Any input may be gzip-compressed; compression is detected from the magic
// bytes, not the file name. Data compressed with bzip2, xz or zstd, under
// any name, is an error ([ErrCompressed]) naming the file and the format,
// with the command that decompresses it.
//
// # Streaming and ordering
//
// Input sorted by qid is read in constant memory: only the current query is
// held. "Sorted" means that qids never decrease in the order of [CompareQID]:
// numerically when both qids are unsigned decimal integers, byte-wise
// otherwise. With [UnsortedError] (the zero value) a decreasing qid is an
// error that names the file and line. [UnsortedAuto] (the command line's
// default) reads any line order: it streams sorted TREC files, reads TREC
// files whose qids are in blocks one block at a time, and gathers the rest;
// a single-file input streams when its first rows are sorted and is
// gathered otherwise. With [UnsortedGroup] the whole input is read
// into memory first and grouped by qid (queries come out in order of first
// appearance). Measured by BenchmarkGroupedMemory (heap after loading), this
// costs about 30 bytes per item (label, score, line and a link), 8 more with
// weights, 4 more plus the id's length with document ids, and about 45
// bytes per query plus the length of its qid: 72 bytes per line for 1M
// one-item queries, 30 per item for 10k queries of 100 items (300 MB for
// 10M TSV rows). For TREC the qrels are held as well. The process peaks at
// 2.5 to 3 times the heap held (the garbage of the growing arrays, the
// collector's headroom and the evaluation): rankmetrics eval peaks at
// 750 MB for 10M TSV rows of 10k queries and 220 MB for 1M one-item
// queries (max RSS, /usr/bin/time -v).
//
// Several TREC runs judged by one qrels file can be read at once with the
// qrels parsed once ([OpenRuns]: one reader per run, each block of the
// qrels shared by the runs' joins), as a first read that streams the
// files as if sorted; a run that is not sorted, or not well formed, is
// then read again alone ([ReadAgain]).
//
// # Limits
//
// Hostile input ends in an error, never in unbounded memory or a crash:
//
//   - Text formats (TREC, TSV, CSV, JSON Lines): a line is at most
//     [Options.MaxLineBytes] long (default 64 MiB, flag --max-line-bytes);
//     a longer one is an error naming the file and line, after reading at
//     most the limit. Gzip does not change this: the limit is on the
//     decompressed line.
//   - TSV and CSV: the first line is a header naming the columns, unless
//     [Options.Positions] (flag --columns) gives them in order. A CSV
//     quoted field cannot span lines.
//   - JSON Lines: one object per line. Values under unknown keys are
//     skipped iteratively, at one byte per nesting level, so any nesting
//     that fits in a line is fine. Strings decode as encoding/json decodes
//     them, except that a lone UTF-16 surrogate escape (\ud800 not followed
//     by a low surrogate escape, or a low one alone) is an error:
//     encoding/json would turn each into U+FFFD and merge distinct ids.
//     NaN, Infinity and -Infinity are accepted as numbers, as Python's json
//     module writes them.
//   - Parquet and RKM1 are read in place from a file; gzipped or from
//     standard input they are decompressed into memory first, at most
//     [Options.MaxInputBytes] (default 4 GiB, flag --max-input-bytes),
//     held once, in pieces of 1 MiB that are never copied again: memory
//     is the decompressed size and at most 1 MiB more, not the up to
//     three times of a buffer grown by doubling (TestReadWholeMemory).
//     A Parquet file that makes the Parquet decoder panic (corrupt metadata
//     or pages) is an error naming the file and row.
//   - RKM1: the header's Q and L must match the file size (12 + 5*Q*L
//     bytes) before anything is allocated, and L = 0 with Q > 0 is an error.
//   - Labels must be finite in every format (inf, -inf, Infinity and
//     numbers beyond float64's range such as 1e400 are errors); NaN is a
//     mask in single-file formats and an error in qrels. Scores may be
//     ±Inf, never NaN; weights never NaN.
//   - [UnsortedGroup] holds the whole input, at the cost given above.
//
// # Bad input
//
// A malformed line is a [*ParseError] naming the file, line, field and value.
// A NaN score or weight is an error. A duplicate (qid, doc) pair is an error
// unless a [DedupePolicy] says which copy to keep. Queries present only in the
// run or only in the qrels are not dropped: they are yielded with
// [Query.Match] set and counted in [Stats].
package runio
