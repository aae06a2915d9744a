// Package cliflags registers the command-line flags that rankmetrics eval,
// rankmetrics compare and rankmetrics-beam share: the input, measure, tie
// and query flags. Registered from one place, each has one name, one
// default and one meaning in every command. It also answers an unknown flag
// with the nearest flag name.
package cliflags

import (
	"errors"
	"flag"
	"fmt"
	"github.com/rankmetrics/rankmetrics/internal/editdist"
	"io"
	"strings"

	"github.com/rankmetrics/rankmetrics/runio"
)

// Groups selects the flags Register adds.
type Groups uint

// The groups of flags.
const (
	// Input is --input-format, --qid-col, --label-col, --weight-col,
	// --doc-col, --columns, --max-line-bytes, --max-input-bytes and
	// --dedupe.
	Input Groups = 1 << iota
	// ScoreCol is --score-col (compare registers a repeatable one of its
	// own).
	ScoreCol
	// Measures is -m, --topn, --dtype and --ragged.
	Measures
	// Compat is --compat, the trec_eval version of the trec_eval measures.
	Compat
	// Ties is --ties and --ties-seed.
	Ties
	// Queries is --run-only and --qrels-only.
	Queries
	// Profile is --profile, the library whose definitions the family
	// measures follow.
	Profile
)

// Values holds the raw values of the shared flags, for the command to
// check and use after parsing. Register takes each flag's default from
// the field it writes into: set the fields (Defaults gives them) first.
type Values struct {
	// InputFormat is --input-format: auto, trec, tsv, csv, jsonl, parquet
	// or rkm1.
	InputFormat string
	// Columns holds --qid-col, --label-col, --score-col, --weight-col and
	// --doc-col.
	Columns runio.Columns
	// Positions is --columns: the columns of a headerless TSV or CSV file
	// in order (runio.ParsePositions parses it).
	Positions string
	// MaxLineBytes is --max-line-bytes, the longest line read.
	MaxLineBytes int
	// MaxInputBytes is --max-input-bytes, the largest decompressed size of
	// a file read whole.
	MaxInputBytes int64
	// Dedupe is --dedupe: error, first or max.
	Dedupe string

	// Measures is -m, the command's own parser of measure names; it must
	// be set when the Measures group is registered.
	Measures flag.Value
	// TopN is --topn: add map@N when at least 0.
	TopN int
	// DType is --dtype: float32 or float64.
	DType string
	// Ragged is --ragged.
	Ragged bool
	// Compat is --compat: 10.0 or 9.0.8.
	Compat string

	// Ties is --ties: random, stable, pessimistic, optimistic or expected.
	Ties string
	// TiesSeed is --ties-seed, the seed of the random tie order.
	TiesSeed uint64

	// Profile is --profile: tf-ranking, keras-rs or torchmetrics.
	Profile string

	// RunOnly is --run-only: skip or keep.
	RunOnly string
	// QrelsOnly is --qrels-only: skip or keep.
	QrelsOnly string
}

// Defaults returns the default values of the shared flags (Measures
// unset).
func Defaults() Values {
	return Values{
		InputFormat:   "auto",
		Columns:       runio.DefaultColumns,
		MaxLineBytes:  runio.DefaultMaxLineBytes,
		MaxInputBytes: runio.DefaultMaxInputBytes,
		Dedupe:        "error",
		TopN:          -1,
		DType:         "float32",
		Ragged:        true,
		Compat:        "10.0",
		Ties:          "random",
		Profile:       "tf-ranking",
		RunOnly:       "skip",
		QrelsOnly:     "keep",
	}
}

// Register adds the flags of groups g to fs, writing into v.
func (v *Values) Register(fs *flag.FlagSet, g Groups) {
	if g&Input != 0 {
		fs.StringVar(&v.InputFormat, "input-format", v.InputFormat, "`FORMAT` of the input: auto (from the extension), trec, tsv, csv, jsonl, parquet or rkm1")
		fs.StringVar(&v.Columns.QID, "qid-col", v.Columns.QID, "`NAME` of the qid column (TSV, CSV, Parquet) or key (JSON Lines)")
		fs.StringVar(&v.Columns.Label, "label-col", v.Columns.Label, "`NAME` of the label column or key (JSON lists use NAME+\"s\")")
		fs.StringVar(&v.Columns.Weight, "weight-col", v.Columns.Weight, "`NAME` of the optional per-item weight column or key")
		fs.StringVar(&v.Columns.Doc, "doc-col", v.Columns.Doc, "`NAME` of the optional document id column or key (for duplicate checks and trec_eval's tie order)")
		fs.StringVar(&v.Positions, "columns", v.Positions, "headerless TSV/CSV: the columns in `ORDER`, comma-separated, from qid, doc, label, score, weight and - (skip), e.g. qid,doc,label,score")
		fs.IntVar(&v.MaxLineBytes, "max-line-bytes", v.MaxLineBytes, "longest input line accepted, in `BYTES` (a bound on memory for corrupt or hostile files)")
		fs.Int64Var(&v.MaxInputBytes, "max-input-bytes", v.MaxInputBytes, "largest decompressed size, in `BYTES`, of an input read whole (a gzipped or piped Parquet or RKM1 file)")
		fs.StringVar(&v.Dedupe, "dedupe", v.Dedupe, "repeated (qid, doc): error, first (keep the first) or max (keep the highest score, or label in qrels)")
	}
	if g&ScoreCol != 0 {
		fs.StringVar(&v.Columns.Score, "score-col", v.Columns.Score, "`NAME` of the score column or key")
	}
	if g&Measures != 0 {
		fs.Var(v.Measures, "m", "measure `NAME`: map, map@K, a TF-Ranking metric key[@K] (ndcg@10, mrr, precision@5, ndcg_metric...) or a trec_eval value name (P_10, ndcg, ndcg_cut_10, map_cut_10, recip_rank, bpref...) or specification (P.5,10), an ir_measures name (nDCG@10, RBP(rel=1), alpha_nDCG@20); repeatable, comma- or space-separated (default map); README's \"Measure names\" table lists them all")
		fs.IntVar(&v.TopN, "topn", v.TopN, "add the measure map@`N` (TF-Ranking's topn)")
		fs.StringVar(&v.DType, "dtype", v.DType, "compute in `TYPE` float32 (TF-Ranking's, bit-exact) or float64")
		fs.BoolVar(&v.Ragged, "ragged", v.Ragged, "pass lists ragged, as TF-Ranking's ragged=True (negative labels rank as non-relevant items); false pads them into dense batches, where labels < 0 are masked")
	}
	if g&Compat != 0 {
		fs.StringVar(&v.Compat, "compat", v.Compat, "`VERSION` of trec_eval whose definitions the trec_eval names follow: 10.0 or 9.0.8")
	}
	if g&Ties != 0 {
		fs.StringVar(&v.Ties, "ties", v.Ties, "order of equal scores: random (seeded by --ties-seed), stable, pessimistic, optimistic or expected")
		fs.Uint64Var(&v.TiesSeed, "ties-seed", v.TiesSeed, "`SEED` of the random tie order (--ties random)")
	}
	if g&Profile != 0 {
		fs.StringVar(&v.Profile, "profile", v.Profile, "`LIBRARY` whose definitions map, map@K and the TF-Ranking metric keys follow: tf-ranking, keras-rs (keras-rs 0.4.0) or torchmetrics (torchmetrics 1.9.0); ndcg@10 then reads as ndcg@10:keras-rs. A name with its own :PROFILE, and trec_eval's and ir_measures' names, keep theirs")
	}
	if g&Queries != 0 {
		fs.StringVar(&v.RunOnly, "run-only", v.RunOnly, "queries of the run with no judgment: skip (trec_eval), or keep (value 0; not with trec_eval's measures)")
		fs.StringVar(&v.QrelsOnly, "qrels-only", v.QrelsOnly, "judged queries missing from the run: keep (value 0, as trec_eval -c: every run is scored on the same queries, all the judged ones, as the IR community recommends for comparing systems, so that a run gains nothing by leaving out hard queries), or skip (trec_eval without -c)")
	}
}

// Explain rewrites an error of fs.Parse for the user. An unknown flag
// becomes "unknown flag --NAME", followed by the nearest flag name of fs
// when one is close ("unknown flag --colums: did you mean --columns?");
// --seed in a command with a tie seed but no resampling says that the tie
// seed is --ties-seed. Other errors are returned as they are.
func Explain(fs *flag.FlagSet, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	if name == "seed" && fs.Lookup("ties-seed") != nil {
		return fmt.Errorf("unknown flag --seed: the seed of the random tie order is --ties-seed (--seed is the seed of resampling, as in rankmetrics compare; %s has none)", fs.Name())
	}
	if near := Nearest(fs, name); near != "" {
		return fmt.Errorf("unknown flag %s: did you mean %s?", Dashed(name), Dashed(near))
	}
	return fmt.Errorf("unknown flag %s", Dashed(name))
}

// Dashed writes a flag name as the help writes it: -m for one letter,
// --name otherwise.
func Dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Nearest returns the flag of fs whose name is nearest to name in edit
// distance (editdist.Distance), when near enough to be a misspelling (at most a third of the
// longer name's letters, and at most 3), or "". Of equally near names, it
// returns the first in lexical order.
func Nearest(fs *flag.FlagSet, name string) string {
	best, bestD := "", 0
	fs.VisitAll(func(f *flag.Flag) {
		d := editdist.Distance(name, f.Name)
		if d > min(3, max(len(name), len(f.Name))/3) {
			return
		}
		if best == "" || d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// Parse parses args with fs without printing: -h (or --help) prints
// fs.Usage, the whole help, on stdout and returns help; a bad flag or
// value is returned as Explain words it (an unknown flag with the nearest
// flag name), for the caller to print on one line with a pointer to -h
// rather than the whole help, which would bury it.
func Parse(fs *flag.FlagSet, args []string, stdout io.Writer) (help bool, err error) {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err = fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		usage()
		fs.SetOutput(out)
		return true, nil
	case err != nil:
		return false, Explain(fs, err)
	}
	return false, nil
}
