// Package beamio reads ranking outputs into Beam PCollections for package
// beam (github.com/rankmetrics/rankmetrics/adapters/beam): the input
// formats of `rankmetrics eval`, from any file system Beam knows (local
// paths, gs://, ...).
//
//   - ReadDelimited reads TSV and CSV files with a header line (or
//     without, given the columns in order: Options.Positions, the
//     --columns of rankmetrics eval). Like Beam's textio, it splits files into byte ranges read in parallel (a
//     splittable DoFn over offset ranges); unlike textio, it keeps each
//     line's byte offset, which fixes the order of a query's items (and so
//     the stable tie order and the order of floating-point sums), reads
//     "\r\n" endings, detects gzip from the content and reads a gzip file
//     whole (textio bounds a compressed file by its compressed size).
//   - ReadTREC reads TREC qrels and run files the same way.
//   - ReadParquet reads Parquet files, one file per worker, with column
//     names and types chosen at run time.
//
// Every reader parses through package runio, as `rankmetrics
// eval` does: a TSV or CSV line with runio.DelimParser, a TREC line with
// runio's TRECStrict scanner, a Parquet file with runio.ParquetRows,
// JSON Lines and RKM1 files with runio's readers. What beamio adds is the
// splitting of text files into byte ranges and the dead-letter mode: a
// line or row that eval rejects goes to the dead letters with eval's
// reason instead of failing the job.
//   - ReadJSONL and ReadRKM1 read JSON Lines and RKM1 files, one file per
//     worker, through the reader of `rankmetrics eval` itself: its
//     parsing, checks, limits and messages.
//
// Each reader returns a beam.Step: the rows, the dead letters (every
// malformed record, with its file, offset and reason) and the counts.
package beamio
