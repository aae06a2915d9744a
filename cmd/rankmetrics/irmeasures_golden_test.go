package main

import (
	"bytes"
	"context"
	"fmt"
	"github.com/rankmetrics/rankmetrics/internal/golden"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIRMeasuresCLIGolden runs `rankmetrics ir_measures` on the pairs
// and command lines parity/irmeasures/cli.py recorded python -m
// ir_measures (0.4.3) on, and compares the bytes of stdout and the exit
// status. Where ir_measures stopped with an error after printing (a
// provider's crash), only the status is compared.
func TestIRMeasuresCLIGolden(t *testing.T) {
	// RANKMETRICS_IRMEASURES_CLI: parity/irmeasures/check.sh's file, drawn
	// with a fresh seed.
	files := golden.Files(t, "RANKMETRICS_IRMEASURES_CLI", "../../testdata/irmeasures/cli_*.jsonl.gz")
	dir := t.TempDir()
	passed, failed := 0, 0
	golden.Each(t, files, func(_ string, _ int, g *cliCase) {
		qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
		if err := os.WriteFile(qp, []byte(strings.Join(g.Qrels, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(rp, []byte(strings.Join(g.Run, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		err := run(context.Background(), append([]string{"ir_measures", qp, rp}, g.Args...), nil, &out, &errb)
		status := exitStatus(io.Discard, err)
		name := fmt.Sprintf("seed %d case %d %s", g.Seed, g.Case, strings.Join(g.Args, " "))
		switch {
		case status != g.Status:
			t.Errorf("%s: exit status %d, ir_measures %d (%s); stderr %s", name, status, g.Status, g.Last, errb.String())
			failed++
		case (status == 0 || g.Stdout == "") && out.String() != g.Stdout:
			got, want := strings.Split(out.String(), "\n"), strings.Split(g.Stdout, "\n")
			line := 0
			for line < len(got) && line < len(want) && got[line] == want[line] {
				line++
			}
			at := func(l []string) string {
				if line < len(l) {
					return l[line]
				}
				return "(end)"
			}
			t.Errorf("%s: stdout line %d: %q, ir_measures %q (%d and %d lines)", name, line+1, at(got), at(want), len(got), len(want))
			failed++
		default:
			passed++
		}
	})
	t.Logf("%d passed, %d failed", passed, failed)
}

// cliCase is one recorded command line: its files, its arguments, and
// what python -m ir_measures printed and returned.
type cliCase struct {
	Seed   int      `json:"seed"`
	Case   int      `json:"case"`
	Qrels  []string `json:"qrels"`
	Run    []string `json:"run"`
	Args   []string `json:"args"`
	Stdout string   `json:"stdout"`
	Status int      `json:"status"`
	Last   string   `json:"stderr_last"`
}
