package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rankmetrics/rankmetrics/internal/cases"
)

const computeUsage = `usage: rankmetrics compute [--input FILE] [--max-line BYTES]

Reads metric cases, one JSON object per line (JSON Lines), from stdin or FILE
and writes one answer line per case, in order. Each answer is written as soon
as it is computed, so a program can send a case over a pipe and read its
answer before sending the next. A bad case gets {"id": ..., "error": "..."}
and the next lines are still answered.

A case (every key but "updates" is optional):
  id           string, copied to the answer
  metric       "map" (default), mrr, hits, arp, precision, recall, ndcg, dcg,
               ordered_pair_accuracy (opa), precision_ia, alpha_dcg; "ndcg@5"
               sets the cutoff
  topn         cutoff, an integer >= 0, or null for the whole list
  ragged       false (dense: rows of one length) or true (rows of any length)
  dtype        "float32" (default, TF-Ranking's) or "float64"
  ties         "random" (default, seeded by seed), "stable", "pessimistic",
               "optimistic" or "expected"
  seed         integer seed of the random tie order
  convention, empty, relevance   MAP conventions: "tfranking" (default),
               "treceval", "minrk", "retrieved", "xgboost", "xgboost-"; what
               a list without relevant items scores ("zero", "one", "skip",
               "error"); the label from which an item is relevant
  gain, discount   ndcg/dcg: "pow2m1" (default) or "identity"; "log2"
               (default) or "inverse"
  alpha, subtopics precision_ia/alpha_dcg: alpha in [0, 1], subtopic labels
               per item (label rows then hold that many labels per item)
  profile      "tf-ranking" (default), "keras-rs" or "torchmetrics": the
               library whose definitions the metric follows; torchmetrics
               adds "rprecision" and "fallout", takes "empty" (zero = neg,
               one = pos, skip, error) and "adaptive_k" (precision)
  expect       ignored, so that golden files can be fed as they are
  updates      a list of Update calls on one fresh metric, each
               {"labels": rows, "predictions": rows, "weights": rows or null}
               rows are lists of numbers, one row per list; weight rows as
               long as the label rows weigh items, rows of one value weigh
               lists. Numbers may be "NaN", "Infinity", "-Infinity"; null is
               an error.

The answer: {"id", "result" (after every update), "per_list" and
"list_weights" (one row per update)}; float32 values print so that they parse
back to the same float32 bits.

Memory: a case takes at most 12 times its line (about 6 for lists of numbers,
8 bytes per number), so the default --max-line bounds it at 3 GiB; a 96 MB
line of one-digit numbers peaks at 584 MB (max RSS, /usr/bin/time -v).

Example:
  echo '{"id":"a","topn":2,"ties":"stable","updates":[{"labels":[[0,1,1]],"predictions":[[3,2,1]]}]}' | rankmetrics compute
  {"id":"a","result":0.25,"per_list":[[0.25]],"list_weights":[[1]]}

Flags:
`

func runCompute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	input := fs.String("input", "", "read cases from `FILE` instead of stdin")
	maxLine := fs.Int("max-line", cases.DefaultMaxLine, "the longest case line, in `BYTES`; a longer line gets an error answer")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), computeUsage)
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args, stdout); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compute: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if *maxLine <= 0 {
		fmt.Fprintf(stderr, "compute: --max-line is %d; it must be > 0\n", *maxLine)
		return errUsage
	}
	r := stdin
	if *input != "" {
		f, err := os.Open(*input)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	if _, err := cases.Process(ctx, r, stdout, *maxLine); err != nil {
		return fmt.Errorf("compute: %w", err)
	}
	return nil
}
