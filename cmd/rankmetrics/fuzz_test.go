package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// FuzzEvalArgs: any command line ends in options within their bounds, the
// help, or a usage error; never a panic.
func FuzzEvalArgs(f *testing.F) {
	for _, s := range []string{
		"a.tsv", "-m\x00map@3\x00a.tsv", "--workers\x00257\x00a.tsv", "--plot-k\x001000\x00a\x00b",
		"-m\x00ndgc", "-h", "--format\x00xml\x00x", "a\x00b\x00c", "--topn\x00-2\x00x", "x\x00--ties\x00stable",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\x00")
		var errb bytes.Buffer
		o, help, err := parseEvalArgs(args, io.Discard, &errb)
		switch {
		case help:
		case err != nil:
			if !errors.Is(err, errUsage) {
				t.Fatalf("%q: error %v is not a usage error", args, err)
			}
			if n := strings.Count(errb.String(), "\n"); n != 2 {
				t.Fatalf("%q: %d lines on stderr, want the error and the pointer to -h:\n%s", args, n, errb.String())
			}
		default:
			if o.workers < 1 || o.workers > maxWorkers || o.plotK < 1 || o.plotK > maxPlotK || o.batch < 1 ||
				len(o.paths) < 1 || len(o.paths) > 2 || len(o.measures) == 0 {
				t.Fatalf("%q: accepted options out of bounds: %+v", args, o)
			}
		}
	})
}

// FuzzEvalOutput: whatever the qids, and whether the input ends well or
// on a bad line, -q output is whole records: one line of three fields per
// record in tsv, and a valid JSON document in json.
func FuzzEvalOutput(f *testing.F) {
	f.Add("q1", "q2", 1.0, false)
	f.Add("a\tb", "c\nd", 0.5, true)
	f.Add("\x00", "\u2028", -1.0, false)
	f.Add(`"`, `\`, 1e300, true)
	f.Add("\xff", "z", 0.0, false)
	f.Fuzz(func(t *testing.T, q1, q2 string, score float64, bad bool) {
		var in strings.Builder
		for _, q := range []string{q1, q2} {
			enc, err := json.Marshal(q)
			if err != nil {
				t.Skip() // not a string JSON can hold
			}
			fmt.Fprintf(&in, `{"qid":%s,"labels":[1,0],"scores":[%v,0]}`+"\n", enc, score)
		}
		if bad {
			in.WriteString(`{"qid":"zz","label":` + "\n")
		}
		for _, format := range []string{"json", "tsv"} {
			var out bytes.Buffer
			err := runEval(context.Background(), []string{"--quiet", "-q", "--unsorted", "group", "--dedupe", "first", "--batch", "1",
				"--input-format", "jsonl", "--format", format, "-"}, strings.NewReader(in.String()), &out, io.Discard)
			if bad && err == nil {
				t.Fatalf("a bad last line gave no error")
			}
			switch {
			case format == "json" && out.Len() > 0 && !json.Valid(out.Bytes()):
				t.Fatalf("output is not valid JSON (error %v):\n%s", err, out.String())
			case format == "tsv":
				for _, l := range strings.SplitAfter(out.String(), "\n") {
					if l != "" && (!strings.HasSuffix(l, "\n") || strings.Count(l, "\t") != 2) {
						t.Fatalf("line %q is not a whole record (error %v)", l, err)
					}
				}
			}
		}
	})
}
