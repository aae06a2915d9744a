package main

import (
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/measure"
	"runtime"
	"slices"

	"github.com/rankmetrics/rankmetrics/cliflags"
	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
	"github.com/rankmetrics/rankmetrics/runio"
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
	// profile is --profile, applied to the measures by applyProfile.
	profile metric.Profile
}

// engineFlags holds the raw values of the shared flags until parse turns
// them into an engineArgs: the input, measure, tie and query flags of
// package cliflags, which rankmetrics-beam registers too, and the engine's
// own.
type engineFlags struct {
	cliflags.Values
	measures        measureList
	accum, unsorted *string
}

// register adds the shared flags to fs, writing into o. scoreCol says
// whether to register --score-col (compare registers a repeatable one).
func (f *engineFlags) register(fs *flag.FlagSet, o *engineArgs, scoreCol bool) {
	o.cfg = metric.DefaultConfig(metric.KindMAP)
	f.Values = cliflags.Defaults()
	f.Measures = &f.measures
	groups := cliflags.Input | cliflags.Measures | cliflags.Compat | cliflags.Ties | cliflags.Queries | cliflags.Profile
	if scoreCol {
		groups |= cliflags.ScoreCol
	}
	f.Register(fs, groups)
	f.accum = fs.String("accumulation", "default", "how updates add up: default, sequential (Keras, float32 in TF's order) or exact")
	fs.IntVar(&o.batch, "batch", 1024, "queries per metric update")
	fs.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), fmt.Sprintf("cores to use (1: one core, the reading of the input included) and parallel workers of the engine and of the parse of each TREC file, at most %d (results do not depend on it)", maxWorkers))
	f.unsorted = fs.String("unsorted", "auto", "input in any line order: auto (a pair of TREC files streams at once as if sorted and, at a qid out of order or a bad line, is read again: a plain file scanned first (sorted, it streams; with each qid's lines in one block, blocks in any order, it is read block by block, memory bounded by the largest query; scattered lines are gathered in memory, as group), a gzipped one gathered; standard input streams 16384 lines behind its reading, gathered when out of order within them; TSV/CSV/JSON Lines/Parquet stream when their first 16384 rows are sorted, else are gathered), error (stream, and stop at the first qid out of order), or group (gather all in memory: the process peaks at about 75 bytes per item plus its document id and 150 per query plus its qid, measured as max RSS: 220 MB for 1M one-item queries)")
}

// parse turns the flags' values into o. Its error names the flag, for the
// caller's usage error.
func (f *engineFlags) parse(o *engineArgs) error {
	var err error
	if o.cfg.DType, err = metric.ParseDType(f.DType); err != nil {
		return fmt.Errorf("--dtype: %w", err)
	}
	if o.cfg.Ties, err = metric.ParseTiePolicy(f.Ties); err != nil {
		return fmt.Errorf("--ties: %w", err)
	}
	if o.cfg.Accumulation, err = metric.ParseAccumulation(*f.accum); err != nil {
		return fmt.Errorf("--accumulation: %w", err)
	}
	o.cfg.Ragged, o.cfg.Seed = f.Ragged, f.TiesSeed
	if o.read.Format, err = runio.ParseFormat(f.InputFormat); err != nil {
		return fmt.Errorf("--input-format: %w", err)
	}
	o.read.Columns, o.read.MaxLineBytes, o.read.MaxInputBytes = f.Columns, f.MaxLineBytes, f.MaxInputBytes
	if o.read.MaxLineBytes < 1 || o.read.MaxInputBytes < 1 {
		return fmt.Errorf("--max-line-bytes %d, --max-input-bytes %d: want sizes of at least 1 byte", o.read.MaxLineBytes, o.read.MaxInputBytes)
	}
	if o.read.Positions, err = runio.ParsePositions(f.Positions); err != nil {
		return fmt.Errorf("--columns: %w", err)
	}
	if o.read.Unsorted, err = runio.ParseUnsortedPolicy(*f.unsorted); err != nil {
		return fmt.Errorf("--unsorted: %w", err)
	}
	if o.read.Dedupe, err = runio.ParseDedupePolicy(f.Dedupe); err != nil {
		return fmt.Errorf("--dedupe: %w", err)
	}
	if o.batch < 1 {
		return fmt.Errorf("--batch %d: want at least 1", o.batch)
	}
	if o.workers < 1 || o.workers > maxWorkers {
		return fmt.Errorf("--workers %d: want 1 to %d (results do not depend on it; more workers than the %d cores only cost memory)", o.workers, maxWorkers, runtime.NumCPU())
	}
	o.read.Workers = o.workers
	if o.runOnly, err = evaluate.ParsePolicy(f.RunOnly); err != nil {
		return fmt.Errorf("--run-only %w", err)
	}
	if o.qrelsOnly, err = evaluate.ParsePolicy(f.QrelsOnly); err != nil {
		return fmt.Errorf("--qrels-only %w", err)
	}
	if o.profile, err = metric.ParseProfile(f.Profile); err != nil {
		return fmt.Errorf("--profile: %w", err)
	}
	if o.compat, err = treceval.ParseVersion(f.Compat); err != nil {
		return fmt.Errorf("--compat: %w", err)
	}
	if f.TopN < -1 {
		return fmt.Errorf("--topn %d: want N >= 0", f.TopN)
	}
	// TREC lines starting with '#' are comments in trec_eval 10.0, data
	// in 9.0.8.
	o.read.TRECNoComments = o.compat == treceval.V908
	o.measures = f.measures
	if f.TopN >= 0 {
		o.measures = measure.Append(o.measures, measure.MAPAt(f.TopN))
	}
	return nil
}

// applyProfile puts the measures under --profile (measure.InProfile),
// once the command has set its default measures.
func (o *engineArgs) applyProfile() error {
	for i, m := range o.measures {
		p, err := measure.InProfile(m, o.profile)
		if err != nil {
			return err
		}
		o.measures[i] = p
	}
	return nil
}

// keepDocs makes the input keep document ids when a measure is trec_eval's
// or ir_measures', whose tie orders need them.
func (o *engineArgs) keepDocs() {
	o.read.KeepDocs = o.read.KeepDocs || slices.ContainsFunc(o.measures, func(m evaluate.Measure) bool { return m.IsTrecEval() || m.IR != nil })
}

// applyProvider computes the ir_measures measures by provider
// (measure.WithProvider), as ir_measures' --provider; "" keeps each
// measure's default provider.
func (o *engineArgs) applyProvider(provider string) error {
	if provider == "" {
		return nil
	}
	found := false
	for i, m := range o.measures {
		if m.IR == nil {
			continue
		}
		p, err := measure.WithProvider(m, provider)
		if err != nil {
			return err
		}
		o.measures[i], found = p, true
	}
	if !found {
		return fmt.Errorf("%s: no measure of ir_measures (AP, nDCG@10, RR@10...) among the measures", provider)
	}
	return nil
}

// limitCores makes the process run its goroutines on at most o.workers
// cores (runtime.GOMAXPROCS) until the returned function puts the limit
// back, so that --workers 1 uses one core: the reader parses the two files
// of a TREC pair and evaluates on goroutines of their own, which would
// otherwise take two cores whatever the engine's worker count. A limit at
// or above the current one changes nothing.
func (o *engineArgs) limitCores() (restore func()) {
	prev := runtime.GOMAXPROCS(0)
	if o.workers >= prev {
		return func() {}
	}
	runtime.GOMAXPROCS(o.workers)
	return func() { runtime.GOMAXPROCS(prev) }
}
