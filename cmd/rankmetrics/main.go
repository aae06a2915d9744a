package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/rankmetrics/rankmetrics/cliflags"
	"github.com/rankmetrics/rankmetrics/metric/treceval"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

// commands returns the subcommands by name.
func commands() map[string]command {
	return map[string]command{
		"compare":     {"paired significance tests of runs over the same queries: t, Wilcoxon, randomization, bootstrap, Tukey HSD", runCompare},
		"compute":     {"answer JSON Lines metric cases (the parity interface)", runCompute},
		"explain":     {"why TF-Ranking, keras-rs and torchmetrics give a batch different values: per list, each profile's value and the rules", runExplain},
		"eval":        {"evaluate ranking outputs from files: TREC qrels+run, TSV/CSV, JSONL, Parquet", runEval},
		"trec_eval":   {"trec_eval 10.0 or 9.0.8, byte-identical output (--compat)", runTrecEval},
		"ir_measures": {"python -m ir_measures QRELS RUN MEASURE...: ir_measures 0.4.3's output, byte-identical", runIRMeasures},
	}
}

// errUsage is returned for a bad command line; its message has been printed.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitStatus(os.Stderr, err))
}

// exitStatus prints err, if any, and returns the exit status of the
// process: 0 without error, 2 for a bad command line (already printed),
// 1 for any other error.
func exitStatus(stderr io.Writer, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.As(err, new(irmExit)):
		// ir_measures' exit status; its message has been printed.
		var e irmExit
		errors.As(err, &e)
		return int(e)
	case errors.As(err, new(*exitError)):
		// trec_eval's exit statuses (1 usage, 2 input, 4 evaluation, 7 no
		// topic): the trec_eval subcommand keeps them.
		fmt.Fprintln(stderr, "rankmetrics:", err)
		return trecEvalExitCode(err)
	}
	fmt.Fprintln(stderr, "rankmetrics:", err)
	return 1
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return errUsage
	}
	switch args[0] {
	case "-h", "--help", "-help":
		usage(stdout, cmds)
		return nil
	case "help":
		// help SUBCOMMAND is SUBCOMMAND -h.
		if len(args) == 1 {
			usage(stdout, cmds)
			return nil
		}
		if len(args) == 2 && args[1] == "measures" {
			return writeMeasures(stdout)
		}
		if _, ok := cmds[args[1]]; !ok || len(args) > 2 {
			fmt.Fprintf(stderr, "rankmetrics: help %s: want one of the commands\n", strings.Join(args[1:], " "))
			usage(stderr, cmds)
			return errUsage
		}
		return cmds[args[1]].run(ctx, []string{"-h"}, stdin, stdout, stderr)
	case "--version", "-version", "version":
		if len(args) > 1 {
			fmt.Fprintf(stderr, "rankmetrics: %s takes no arguments\n", args[0])
			return errUsage
		}
		printVersion(stdout)
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

// printVersion prints the version of the module the binary was built from
// ("(devel)" when built inside its source tree), the Go version, and the
// trec_eval versions that "rankmetrics trec_eval" reproduces.
func printVersion(w io.Writer) {
	version, goVersion := "(devel)", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(w, "rankmetrics %s, built with %s\nrankmetrics trec_eval reproduces trec_eval %s and %s byte for byte\n", version, goVersion, treceval.V10, treceval.V908)
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: rankmetrics COMMAND [flags]\n       rankmetrics help COMMAND\n       rankmetrics --version\n\ncommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, cmds[n].summary)
	}
}

// parseFlags parses args with fs. -h (or --help) prints fs.Usage, the
// whole help, on stdout and returns help. A bad flag or value prints one
// line that names it (an unknown flag with the nearest flag name), then a
// pointer to -h (not the whole help, which would bury the line), and
// returns errUsage.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (help bool, err error) {
	help, err = cliflags.Parse(fs, args, stdout)
	if err != nil {
		return false, usageError(fs.Output(), fs.Name(), err.Error())
	}
	return help, nil
}

// usageError prints the message of a bad command line of subcommand cmd,
// on one line (a line break in it, from an argument, is escaped), with a
// pointer to its help, and returns errUsage.
func usageError(w io.Writer, cmd, msg string) error {
	msg = strings.NewReplacer("\n", `\n`, "\r", `\r`).Replace(msg)
	fmt.Fprintf(w, "%s: %s\nrun \"rankmetrics %s -h\" for the flags and formats\n", cmd, msg, cmd)
	return errUsage
}

// parseInterleaved parses args with fs where flags may follow the
// positional arguments: it parses, takes the next positional argument, and
// parses again what follows it. It returns the positional arguments in
// order, and parseFlags' help and error.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout io.Writer) (paths []string, help bool, err error) {
	for {
		if help, err := parseFlags(fs, args, stdout); help || err != nil {
			return nil, help, err
		}
		if fs.NArg() == 0 {
			return paths, false, nil
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
