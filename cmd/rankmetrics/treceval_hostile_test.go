package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeFiles writes name=content files into a new temporary directory and
// returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTrecEvalInterruptedInsideATopic interrupts the evaluation of a topic
// with a judgement of 2^22 (seconds of gain set-up for five measures) and
// expects it to stop within two seconds, with exit status 130 and
// "rankmetrics: interrupted".
func TestTrecEvalInterruptedInsideATopic(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"q": "1 0 a 4194304\n1 0 b 1\n",
		"r": "1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n",
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	args := []string{"-q", "-m", "ndcg", "-m", "G", "-m", "Rndcg", "-m", "ndcg_rel", "-m", "ideal_dcg",
		"-m", "ndcg_rel.1=2", "-m", "Rndcg.1=3", filepath.Join(dir, "q"), filepath.Join(dir, "r")}
	go func() { done <- runTrecEval(ctx, args, nil, io.Discard, io.Discard) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("still evaluating 2 s after the interrupt")
	}
	var errb bytes.Buffer
	if code := exitStatus(&errb, err); code != 130 || errb.String() != "rankmetrics: interrupted\n" {
		t.Errorf("exit status %d, message %q; want 130, %q", code, errb.String(), "rankmetrics: interrupted\n")
	}
	if strings.Contains(errb.String(), "context canceled") {
		t.Errorf("message %q", errb.String())
	}
}

// TestTrecEvalJudgmentErrorsNameTheQrels checks that errors about the
// judgements name the qrels file and the line at fault, not the run, with
// trec_eval's exit status 4.
func TestTrecEvalJudgmentErrorsNameTheQrels(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"dup":  "1 0 a 1\n1 0 b 0\n2 0 c 1\n1 0 b 2\n",
		"huge": "1 0 a 1\n1 0 b 16777217\n",
		"neg":  "2 0 a 1\n1 0 a -1\n1 0 b -2\n",
		// trec_eval crashes (segmentation fault) on topic 2.
		"crash": "1 0 a 1\n2 0 a -2\n2 0 b -3\n",
		"run":   "1 Q0 a 1 1 r\n2 Q0 a 1 1 r\n",
	})
	tests := []struct {
		qrels, flags, where, what string
	}{
		{"dup", "-q", "dup:4: topic 1:", `duplicate document "b" in the judgements`},
		{"dup", "", "dup:4: topic 1:", `duplicate document "b" in the judgements`},
		{"huge", "", "huge:2: topic 1:", "judgement 16777217, maximum 16777216"},
		{"neg", "-m ndcg", "neg:2: topic 1:", "only negative judgements"},
		{"crash", "-q", "crash:2: topic 2:", "-2 or lower: trec_eval crashes"},
		{"crash", "-m ndcg", "crash:2: topic 2:", "-2 or lower: trec_eval crashes"},
	}
	for _, tc := range tests {
		t.Run(tc.qrels+tc.flags, func(t *testing.T) {
			args := append(strings.Fields(tc.flags), filepath.Join(dir, tc.qrels), filepath.Join(dir, "run"))
			err := runTrecEval(context.Background(), args, nil, io.Discard, io.Discard)
			if code := trecEvalExitCode(err); code != 4 {
				t.Fatalf("exit status %d (%v), want 4", code, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, filepath.Join(dir, tc.where)) || !strings.Contains(msg, tc.what) || strings.Contains(msg, filepath.Join(dir, "run")) {
				t.Errorf("error %q, want %q and %q, without the run's name", msg, tc.where, tc.what)
			}
		})
	}
}
