package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/rankmetrics/rankmetrics/internal/ltrdata"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		// -h: the usage is printed.
	case err != nil:
		fmt.Fprintln(os.Stderr, "gorgonia-ranker:", err)
		stop()
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := flag.NewFlagSet("gorgonia-ranker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gorgonia-ranker [flags]\n\nTrains a neural ranker with Gorgonia on the embedded synthetic dataset\n(or on LETOR files) and reports validation MAP every epoch.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	trainFile := fs.String("train", "", "LETOR/SVMlight training `file` (MQ2008, MSLR-WEB10K, ...); default: the embedded synthetic data")
	validFile := fs.String("valid", "", "LETOR validation `file`; default with -train: the last 20% of the training queries")
	testFile := fs.String("test", "", "LETOR test `file` (optional with -train)")
	fs.StringVar(&cfg.model, "model", cfg.model, "scorer: linear or mlp")
	fs.IntVar(&cfg.hidden, "hidden", cfg.hidden, "hidden units of the mlp")
	fs.IntVar(&cfg.lists, "batch", cfg.lists, "lists (queries) per batch")
	fs.IntVar(&cfg.epochs, "epochs", cfg.epochs, "maximum number of epochs")
	fs.IntVar(&cfg.patience, "patience", cfg.patience, "epochs without a better validation MAP before stopping")
	fs.Float64Var(&cfg.lr, "lr", cfg.lr, "Adam learning rate")
	fs.Uint64Var(&cfg.seed, "seed", cfg.seed, "seed of the weight initialisation and the shuffling")
	fs.IntVar(&cfg.topn, "topn", cfg.topn, "MAP cutoff (MAP@topn)")
	fs.Float64Var(&cfg.alpha, "alpha", cfg.alpha, "level of the paired t-test that tells whether an epoch is significantly better than the best one, and of the t intervals (1-alpha)")
	progress := fs.Bool("progress", isTerminal(stderr), "draw a progress bar on stderr (default: when stderr is a terminal)")
	historyFile := fs.String("history", "", "write every epoch's metrics to `file` (.json for JSON, else CSV)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}

	d, desc, err := loadData(*trainFile, *validFile, *testFile)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, desc)
	arch := "linear"
	if cfg.model == "mlp" {
		arch = fmt.Sprintf("mlp %d-%d-1 (ReLU)", d.train.NumFeatures, cfg.hidden)
	}
	fmt.Fprintf(stdout, "model: %s, listwise softmax loss, Adam lr %g, %d lists per batch, seed %d\n", arch, cfg.lr, cfg.lists, cfg.seed)

	fmt.Fprintf(stdout, "validation: MAP@%d with its %g%% t interval over the %d validation queries\n", cfg.topn, 100*(1-cfg.alpha), len(d.valid.Queries))

	var bar io.Writer
	if *progress {
		bar = stderr
	}
	start := time.Now()
	res, err := train(ctx, cfg, d, stdout, bar)
	if err != nil {
		return err
	}
	label := fmt.Sprintf("MAP@%d", cfg.topn)
	if res.stopped {
		fmt.Fprintf(stdout, "early stopping after epoch %d: no better validation %s for %d epochs\n", len(res.epochs), label, cfg.patience)
	}
	fmt.Fprintf(stdout, "best epoch %d: validation %s %s (untrained %.4f, %+.4f); best weights restored\n",
		res.best.Epoch, label, res.bestCI, res.untrained, res.best.Value-res.untrained)
	fmt.Fprintf(stdout, "significance: %d epochs beat the best validation %s in mean but not significantly (paired t-test over %d queries, alpha %g); the last significantly better epoch is %d (%s %.4f)\n",
		res.notSignificant, label, len(d.valid.Queries), cfg.alpha, res.sigBest.Epoch, label, res.sigBest.Value)
	if !math.IsNaN(res.test) {
		fmt.Fprintf(stdout, "test %s with the best weights: %s (t interval over the %d test queries)\n", label, res.testCI, len(d.test.Queries))
	}
	tr, va := res.perEpoch()
	fmt.Fprintf(stdout, "time: %.1fs in all; per epoch %.3fs training and %.3fs validation (%.2f of the training time)\n",
		time.Since(start).Seconds(), tr.Seconds(), va.Seconds(), va.Seconds()/tr.Seconds())

	if *historyFile != "" {
		if err := writeHistory(*historyFile, res); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "history written to %s\n", *historyFile)
	}
	return nil
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// loadData reads LETOR files, or generates the embedded synthetic dataset.
func loadData(trainFile, validFile, testFile string) (data, string, error) {
	if trainFile == "" {
		if validFile != "" || testFile != "" {
			return data{}, "", errors.New("-valid and -test need -train")
		}
		c := ltrdata.DefaultConfig()
		s := ltrdata.Default()
		return data{train: s.Train, valid: s.Validation, test: s.Test},
			fmt.Sprintf("data: synthetic learning-to-rank set (internal/ltrdata, seed %d): %s; %d features, lists of %d to %d documents",
				c.Seed, describe(s.Train, s.Validation, s.Test), c.Features, c.MinDocs, c.MaxDocs), nil
	}
	var d data
	var err error
	if d.train, err = ltrdata.ReadFile(trainFile); err != nil {
		return data{}, "", err
	}
	if validFile != "" {
		if d.valid, err = ltrdata.ReadFile(validFile); err != nil {
			return data{}, "", err
		}
	} else {
		n := len(d.train.Queries) * 4 / 5
		if n == 0 || n == len(d.train.Queries) {
			return data{}, "", fmt.Errorf("%s: %d queries are too few to hold out a validation split; give -valid", trainFile, len(d.train.Queries))
		}
		all := d.train.Queries
		d.valid = &ltrdata.Dataset{NumFeatures: d.train.NumFeatures, Queries: all[n:]}
		d.train = &ltrdata.Dataset{NumFeatures: d.train.NumFeatures, Queries: all[:n]}
	}
	if testFile != "" {
		if d.test, err = ltrdata.ReadFile(testFile); err != nil {
			return data{}, "", err
		}
	}
	sets := []*ltrdata.Dataset{d.train, d.valid}
	if d.test != nil {
		sets = append(sets, d.test)
	}
	if err := ltrdata.Align(sets...); err != nil {
		return data{}, "", err
	}
	return d, fmt.Sprintf("data: %s: %s; %d features", filepath.Base(trainFile), describe(sets...), d.train.NumFeatures), nil
}

func describe(sets ...*ltrdata.Dataset) string {
	names := []string{"train", "validation", "test"}
	var parts []string
	for i, s := range sets {
		if s != nil {
			parts = append(parts, fmt.Sprintf("%s %d queries / %d docs", names[i], len(s.Queries), s.NumDocs()))
		}
	}
	return strings.Join(parts, ", ")
}

func writeHistory(path string, res *result) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return res.history.WriteJSON(f)
	}
	return res.history.WriteCSV(f)
}
