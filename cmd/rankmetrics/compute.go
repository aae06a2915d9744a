package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/rankmetrics/rankmetrics/internal/cases"
)

func runCompute(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compute", flag.ContinueOnError)
	fs.SetOutput(stderr)
	input := fs.String("input", "", "read cases from `FILE` instead of stdin")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: rankmetrics compute [--input FILE]\n\nReads JSON Lines metric cases and writes one answer line per case.")
		fs.PrintDefaults()
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "compute: unexpected argument %q\n", fs.Arg(0))
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
	_, err := cases.Process(ctx, r, stdout)
	return err
}
