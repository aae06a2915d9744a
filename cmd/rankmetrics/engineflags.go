package main

import (
	"flag"
	"fmt"
	"runtime"

	"github.com/rankmetrics/rankmetrics/internal/evaluate"
	"github.com/rankmetrics/rankmetrics/internal/runio"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// engineArgs is what eval and compare both give the evaluation engine:
// the measures, the metric settings, the input and the query-set policies.
// Both commands register its flags through engineFlags, so that a flag has
// one name, one default and one meaning in both.
type engineArgs struct {
	read      runio.Options
	measures  []evaluate.Measure
	cfg       metric.Config
	batch     int
	workers   int
	runOnly   evaluate.Policy
	qrelsOnly evaluate.Policy
	compat    treceval.Version
}

// engineFlags holds the raw values of the shared flags until parse turns
// them into an engineArgs.
type engineFlags struct {
	measures                              measureList
	compat, dtype, ties, accum            *string
	inFormat, positions, unsorted, dedupe *string
	runOnly, qrelsOnly                    *string
	ragged                                *bool
}

// register adds the shared flags to fs, writing into o. seedFlag names the
// flag of the tie seed (compare keeps --seed for its Monte Carlo samples),
// and scoreCol says whether to register --score-col (compare registers a
// repeatable one).
func (f *engineFlags) register(fs *flag.FlagSet, o *engineArgs, seedFlag string, scoreCol bool) {
	o.cfg = metric.DefaultConfig(metric.KindMAP)
	fs.Var(&f.measures, "m", "measure `NAME`: map, map@K, a TF-Ranking metric key[@K] (ndcg@10, mrr, precision@5, ndcg_metric...) or a trec_eval value name (P_10, ndcg, ndcg_cut_10, map_cut_10, recip_rank, bpref...) or specification (P.5,10); repeatable or comma-separated (default map); README's \"Measure names\" table lists them all")
	f.compat = fs.String("compat", "10.0", "`VERSION` of trec_eval whose definitions the trec_eval names follow: 10.0 or 9.0.8")
	f.dtype = fs.String("dtype", "float32", "compute in `TYPE` float32 (TF-Ranking's, bit-exact) or float64")
	f.ties = fs.String("ties", "random", "order of equal scores: random, stable, pessimistic, optimistic or expected")
	fs.Uint64Var(&o.cfg.Seed, seedFlag, 0, "seed of the random tie order")
	f.accum = fs.String("accumulation", "default", "how updates add up: default, sequential (Keras, float32 in TF's order) or exact")
	f.ragged = fs.Bool("ragged", true, "pass lists ragged, as TF-Ranking's ragged=True (negative labels rank as non-relevant items); false pads them into dense batches, where labels < 0 are masked")
	fs.IntVar(&o.batch, "batch", 1024, "queries per metric update")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), fmt.Sprintf("parallel workers, at most %d (results do not depend on it)", maxWorkers))
	f.inFormat = fs.String("input-format", "auto", "`FORMAT` of the input: auto (from the extension), trec, tsv, csv, jsonl, parquet or rkm1")
	fs.StringVar(&o.read.Columns.QID, "qid-col", "qid", "`NAME` of the qid column (TSV, CSV, Parquet) or key (JSON Lines)")
	fs.StringVar(&o.read.Columns.Label, "label-col", "label", "`NAME` of the label column or key (JSON lists use NAME+\"s\")")
	if scoreCol {
		fs.StringVar(&o.read.Columns.Score, "score-col", "score", "`NAME` of the score column or key")
	}
	fs.StringVar(&o.read.Columns.Weight, "weight-col", "weight", "`NAME` of the optional per-item weight column or key")
	fs.StringVar(&o.read.Columns.Doc, "doc-col", "doc", "`NAME` of the optional document id column or key (for duplicate checks and trec_eval's tie order)")
	fs.IntVar(&o.read.MaxLineBytes, "max-line-bytes", runio.DefaultMaxLineBytes, "longest input line accepted, in `BYTES` (a bound on memory for corrupt or hostile files)")
	fs.Int64Var(&o.read.MaxInputBytes, "max-input-bytes", runio.DefaultMaxInputBytes, "largest decompressed size, in `BYTES`, of an input read whole (a gzipped or piped Parquet or RKM1 file)")
	f.positions = fs.String("columns", "", "headerless TSV/CSV: the columns in `ORDER`, comma-separated, from qid, doc, label, score, weight and - (skip), e.g. qid,doc,label,score")
	f.unsorted = fs.String("unsorted", "auto", "input in any line order: auto (a TREC file is scanned first: sorted, it streams; with each qid's lines in one block, blocks in any order, it is read block by block, memory bounded by the largest query; scattered lines are gathered in memory, as group; gzip streams when sorted, else is gathered; TSV/CSV/JSON Lines/Parquet and standard input stream when their first 16384 rows are sorted, else are gathered), error (stream, and stop at the first qid out of order), or group (gather all in memory: about 30 bytes per item, +8 with weights, +4 and the id's length with document ids, and about 45 bytes per query plus its qid's length; 72 MB for 1M one-item queries)")
	f.dedupe = fs.String("dedupe", "error", "repeated (qid, doc): error, first (keep the first) or max (keep the highest score, or label in qrels)")
	f.runOnly = fs.String("run-only", "skip", "queries of the run with no judgment: skip (trec_eval), or keep (value 0)")
	f.qrelsOnly = fs.String("qrels-only", "keep", "judged queries missing from the run: keep (value 0, as trec_eval -c: every run is scored on the same queries, all the judged ones, as the IR community recommends for comparing systems, so that a run gains nothing by leaving out hard queries), or skip (trec_eval without -c)")
}

// parse turns the flags' values into o. Its error names the flag, for the
// caller's usage error.
func (f *engineFlags) parse(o *engineArgs) error {
	var err error
	if o.cfg.DType, err = metric.ParseDType(*f.dtype); err != nil {
		return fmt.Errorf("--dtype: %w", err)
	}
	if o.cfg.Ties, err = metric.ParseTiePolicy(*f.ties); err != nil {
		return fmt.Errorf("--ties: %w", err)
	}
	if o.cfg.Accumulation, err = metric.ParseAccumulation(*f.accum); err != nil {
		return fmt.Errorf("--accumulation: %w", err)
	}
	o.cfg.Ragged = *f.ragged
	if o.read.Format, err = runio.ParseFormat(*f.inFormat); err != nil {
		return fmt.Errorf("--input-format: %w", err)
	}
	if o.read.MaxLineBytes < 1 || o.read.MaxInputBytes < 1 {
		return fmt.Errorf("--max-line-bytes %d, --max-input-bytes %d: want sizes of at least 1 byte", o.read.MaxLineBytes, o.read.MaxInputBytes)
	}
	if o.read.Positions, err = runio.ParsePositions(*f.positions); err != nil {
		return fmt.Errorf("--columns: %w", err)
	}
	if o.read.Unsorted, err = runio.ParseUnsortedPolicy(*f.unsorted); err != nil {
		return fmt.Errorf("--unsorted: %w", err)
	}
	if o.read.Dedupe, err = runio.ParseDedupePolicy(*f.dedupe); err != nil {
		return fmt.Errorf("--dedupe: %w", err)
	}
	if o.batch < 1 {
		return fmt.Errorf("--batch %d: want at least 1", o.batch)
	}
	if o.workers < 1 || o.workers > maxWorkers {
		return fmt.Errorf("--workers %d: want 1 to %d (results do not depend on it; more workers than the %d cores only cost memory)", o.workers, maxWorkers, runtime.NumCPU())
	}
	if o.runOnly, err = evaluate.ParsePolicy(*f.runOnly); err != nil {
		return fmt.Errorf("--run-only %w", err)
	}
	if o.qrelsOnly, err = evaluate.ParsePolicy(*f.qrelsOnly); err != nil {
		return fmt.Errorf("--qrels-only %w", err)
	}
	if o.compat, err = treceval.ParseVersion(*f.compat); err != nil {
		return fmt.Errorf("--compat: %w", err)
	}
	// TREC lines starting with '#' are comments in trec_eval 10.0, data
	// in 9.0.8.
	o.read.TRECNoComments = o.compat == treceval.V908
	o.measures = f.measures
	return nil
}

// keepDocs makes the input keep document ids when a measure is trec_eval's,
// whose tie order needs them.
func (o *engineArgs) keepDocs() {
	o.read.KeepDocs = o.read.KeepDocs || hasTrecEval(o.measures)
}
