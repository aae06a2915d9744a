// Command gen writes the benchmark data set of issue 5: Q queries of L items
// (100,000 x 100 by default) in TREC (qrels + run), TSV, Parquet and RKM1.
//
//	go run ./bench/gen -out bench/data
//
// Each query draws its relevance rate uniformly in [0, 0.2], so about 10% of
// items are relevant and some queries have none. A relevant item gets a
// grade 1..4 uniformly, any other item grade 0. The score is 0.6*label plus
// standard Gaussian noise, rounded to 3 decimals; then 2% of the items copy
// the score of another item of the same query, which makes real ties.
//
// The files hold the same numbers: scores are integers n/1000 written with
// three decimals (text), as float64 n/1000 (Parquet) or float32 (RKM1).
// The TSV, Parquet and RKM1 files list items in generation order; the run
// file lists each query's items by descending score, ties in generation
// order, with document ids named so that trec_eval's tie break (document id
// descending) gives that same order. So trec_eval, and a stable tie policy
// over any of the files, see identical rankings. The qrels judge every item
// (grade 0 included). Output is deterministic for a given -seed.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	out := fs.String("out", "bench/data", "output directory")
	cfg := Config{}
	fs.IntVar(&cfg.Queries, "queries", 100000, "number of queries")
	fs.IntVar(&cfg.Items, "items", 100, "items per query")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed")
	formats := fs.String("formats", "trec,tsv,parquet,bin", "comma-separated formats to write: trec, tsv, parquet, bin")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	var qrels, runf, tsv, pq, bin *bufio.Writer
	var closers []*os.File
	create := func(name string) (*bufio.Writer, error) {
		f, err := os.Create(filepath.Join(*out, name))
		if err != nil {
			return nil, err
		}
		closers = append(closers, f)
		return bufio.NewWriterSize(f, 1<<20), nil
	}
	for _, f := range strings.Split(*formats, ",") {
		var err error
		switch strings.TrimSpace(f) {
		case "trec":
			if qrels, err = create("qrels.txt"); err == nil {
				runf, err = create("run.txt")
			}
		case "tsv":
			tsv, err = create("data.tsv")
		case "parquet":
			pq, err = create("data.parquet")
		case "bin":
			bin, err = create("data.bin")
		default:
			err = fmt.Errorf("unknown format %q (want trec, tsv, parquet, bin)", f)
		}
		if err != nil {
			return err
		}
	}
	var files Files
	if qrels != nil {
		files.Qrels, files.Run = qrels, runf
	}
	if tsv != nil {
		files.TSV = tsv
	}
	if pq != nil {
		files.Parquet = pq
	}
	if bin != nil {
		files.RKM1 = bin
	}
	sum, genErr := Generate(ctx, cfg, files)
	var err error
	for _, w := range []*bufio.Writer{qrels, runf, tsv, pq, bin} {
		if w != nil {
			err = errors.Join(err, w.Flush())
		}
	}
	for _, f := range closers {
		err = errors.Join(err, f.Close())
	}
	if err = errors.Join(genErr, err); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d queries x %d items to %s: %.2f%% relevant, %d queries without a relevant item, %d items tied with another in their query\n",
		cfg.Queries, cfg.Items, *out, 100*float64(sum.Relevant)/float64(sum.Items), sum.NoRelevant, sum.TiedItems)
	return nil
}
