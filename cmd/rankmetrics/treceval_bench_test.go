package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// benchTrecEval runs the trec_eval subcommand on the TREC pair of
// bench/gen found in $TRECEVAL_BENCH_DATA (qrels.txt, run.txt), e.g.
//
//	go run ./bench/gen -out /tmp/d -queries 100000 -formats trec
//	TRECEVAL_BENCH_DATA=/tmp/d go test ./cmd/rankmetrics -run X -bench TrecEval -cpuprofile cpu.out
func benchTrecEval(b *testing.B, args ...string) {
	dir := os.Getenv("TRECEVAL_BENCH_DATA")
	if dir == "" {
		b.Skip("TRECEVAL_BENCH_DATA is not set")
	}
	args = append(args, filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "run.txt"))
	b.ReportAllocs()
	for b.Loop() {
		if err := runTrecEval(context.Background(), args, nil, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTrecEvalMap(b *testing.B)      { benchTrecEval(b, "-m", "map") }
func BenchmarkTrecEvalAllTrec(b *testing.B)  { benchTrecEval(b, "-m", "all_trec") }
func BenchmarkTrecEvalAllTrecQ(b *testing.B) { benchTrecEval(b, "-q", "-m", "all_trec") }
