package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestComputeOnTFRankingCases(t *testing.T) {
	input := filepath.Join("..", "..", "testdata", "tfr", "map_cases.jsonl")
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"compute", "--input", input}, nil, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	raw, err := os.ReadFile(input)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Split(strings.TrimSpace(string(raw)), "\n")
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(got) != len(in) {
		t.Fatalf("%d answers for %d cases", len(got), len(in))
	}
	for i := range in {
		var c struct {
			ID     string `json:"id"`
			Expect struct {
				Value float64 `json:"value"`
			} `json:"expect"`
		}
		var a struct {
			ID     string  `json:"id"`
			Result float64 `json:"result"`
			Error  string  `json:"error"`
		}
		if err := json.Unmarshal([]byte(in[i]), &c); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(got[i]), &a); err != nil {
			t.Fatal(err)
		}
		if a.ID != c.ID || a.Error != "" || a.Result-c.Expect.Value > 1e-6 || c.Expect.Value-a.Result > 1e-6 {
			t.Errorf("case %s: answer %s, TF expects %v", c.ID, got[i], c.Expect.Value)
		}
	}
}

func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run(context.Background(), nil, nil, &out, &errOut); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), "compute") {
		t.Fatalf("no arguments: %v, %q", err, errOut.String())
	}
	errOut.Reset()
	if err := run(context.Background(), []string{"frobnicate"}, nil, &out, &errOut); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: %v, %q", err, errOut.String())
	}
	if err := run(context.Background(), []string{"compute", "--nope"}, nil, &out, &errOut); !errors.Is(err, errUsage) {
		t.Fatalf("bad flag: %v", err)
	}
	if err := run(context.Background(), []string{"compute", "--input", "/does/not/exist"}, nil, &out, &errOut); err == nil || !strings.Contains(err.Error(), "/does/not/exist") {
		t.Fatalf("missing file: %v", err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"compute"}, strings.NewReader(`{"id":"x","ties":"stable","updates":[{"labels":[[0,1,1]],"predictions":[[3,2,1]],"weights":null}],"topn":2}`+"\n"), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != `{"id":"x","result":0.25,"per_list":[[0.25]],"list_weights":[[1]]}` {
		t.Fatalf("stdin answer %s", got)
	}
}

// TestFrontDoor: --version, help COMMAND and -h in every subcommand print
// on stdout with status 0; an unknown flag gets the nearest flag name, and
// --seed means one thing: the tie seed is --ties-seed everywhere, and eval,
// which has no resampling, refuses --seed instead of reading it as the tie
// seed.
func TestFrontDoor(t *testing.T) {
	dir := t.TempDir()
	tsv := writeTemp(t, dir, "in.tsv", "qid\tlabel\tscore\n1\t1\t1\n1\t0\t1\n2\t1\t0\n2\t0\t0\n")
	tsvB := writeTemp(t, dir, "b.tsv", "qid\tlabel\tscore\n1\t1\t2\n1\t0\t1\n2\t1\t0\n2\t0\t1\n")
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string // a line or part of one that stdout has
		stderr string // stderr's first line; "" for an empty stderr
	}{
		{"--version", []string{"--version"}, 0, "rankmetrics trec_eval reproduces trec_eval 10.0 and 9.0.8 byte for byte", ""},
		{"version", []string{"version"}, 0, "rankmetrics (devel), built with go1.", ""},
		{"version with an argument", []string{"version", "x"}, 2, "", "rankmetrics: version takes no arguments"},
		{"-h", []string{"-h"}, 0, "rankmetrics help COMMAND", ""},
		{"help", []string{"help"}, 0, "rankmetrics help COMMAND", ""},
		{"help eval", []string{"help", "eval"}, 0, "usage: rankmetrics eval [flags] QRELS RUN", ""},
		{"help compare", []string{"help", "compare"}, 0, "usage: rankmetrics compare [flags] QRELS RUN_A RUN_B [RUN...]", ""},
		{"help compute", []string{"help", "compute"}, 0, "usage: rankmetrics compute", ""},
		{"help trec_eval", []string{"help", "trec_eval"}, 0, "usage: rankmetrics trec_eval", ""},
		{"help of no command", []string{"help", "evl"}, 2, "", "rankmetrics: help evl: want one of the commands"},
		{"eval -h", []string{"eval", "-h"}, 0, "  -ties-seed SEED", ""},
		{"eval --help", []string{"eval", "--help"}, 0, "usage: rankmetrics eval [flags] QRELS RUN", ""},
		{"compare -h", []string{"compare", "-h"}, 0, "the tie seed is --ties-seed", ""},
		{"compute -h", []string{"compute", "--help"}, 0, "usage: rankmetrics compute", ""},
		{"trec_eval -h", []string{"trec_eval", "-h"}, 0, "usage: rankmetrics trec_eval", ""},
		{"eval misspelt flag", []string{"eval", "--colums", "qid,label,score", tsv}, 2, "", "eval: unknown flag --colums: did you mean --columns?"},
		{"compare misspelt flag", []string{"compare", tsv, tsvB, "--sampels", "10"}, 2, "", "compare: unknown flag --sampels: did you mean --samples?"},
		{"compare misspelt tie seed", []string{"compare", "-tie-seed", "1", tsv, tsvB}, 2, "", "compare: unknown flag --tie-seed: did you mean --ties-seed?"},
		{"compute misspelt flag", []string{"compute", "--max-lin", "9"}, 2, "", "compute: unknown flag --max-lin: did you mean --max-line?"},
		{"no near flag", []string{"eval", "--frobnicate", tsv}, 2, "", "eval: unknown flag --frobnicate"},
		{"eval --seed", []string{"eval", "--seed", "1", tsv}, 2, "", "eval: unknown flag --seed: the seed of the random tie order is --ties-seed (--seed is the seed of resampling, as in rankmetrics compare; eval has none)"},
		{"eval --ties-seed", []string{"eval", "--ties-seed", "7", "--quiet", tsv}, 0, "dtype float32, ties random, seed 7,", ""},
		{"compare --seed and --ties-seed", []string{"compare", "--seed", "5", "--ties-seed", "7", "--format", "json", "--test", "randomization", tsv, tsvB}, 0, `"seed": 5,`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := exitStatus(&errOut, run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut))
			firstLine, _, _ := strings.Cut(errOut.String(), "\n")
			if status != tc.status || !strings.Contains(out.String(), tc.stdout) || firstLine != tc.stderr {
				t.Errorf("rankmetrics %s: status %d, stdout\n%s\nstderr\n%s\nwant status %d, stdout with %q, stderr's first line %q",
					strings.Join(tc.args, " "), status, out.String(), errOut.String(), tc.status, tc.stdout, tc.stderr)
			}
			if tc.status == 2 && strings.HasPrefix(tc.stderr, tc.args[0]+":") && !strings.Contains(errOut.String(), `run "rankmetrics `+tc.args[0]+` -h"`) {
				t.Errorf("stderr lacks the pointer to -h:\n%s", errOut.String())
			}
		})
	}
}
