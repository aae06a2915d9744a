package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands returns the subcommands by name.
func commands() map[string]command {
	return map[string]command{
		"compare": {"paired significance tests of runs over the same queries: t, Wilcoxon, randomization, bootstrap, Tukey HSD", runCompare},
		"compute": {"answer JSON Lines metric cases (the parity interface)", runCompute},
		"eval":    {"evaluate ranking outputs from files: TREC qrels+run, TSV/CSV, JSONL, Parquet", runEval},
	}
}

// errUsage is returned for a bad command line; its message has been printed.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "rankmetrics:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rankmetrics: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return errUsage
	}
	return c.run(ctx, args[1:], stdin, stdout, stderr)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: rankmetrics COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, cmds[n].summary)
	}
}

// parseFlags parses args with fs, turning -h into a nil error after the
// usage and any other flag error into errUsage.
func parseFlags(fs *flag.FlagSet, args []string) (help bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, errUsage
	}
	return false, nil
}
