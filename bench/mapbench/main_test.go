package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

// writeRKM1 writes two lists of three items by hand.
func writeRKM1(t *testing.T) string {
	var b bytes.Buffer
	b.WriteString("RKM1")
	binary.Write(&b, binary.LittleEndian, uint32(2))
	binary.Write(&b, binary.LittleEndian, uint32(3))
	b.Write([]byte{1, 0, 1, 0, 0, 2})
	for _, s := range []float32{3, 2, 1, 1, 2, 3} {
		binary.Write(&b, binary.LittleEndian, s)
	}
	p := filepath.Join(t.TempDir(), "d.bin")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// List 1 ranks rel, non, rel: AP (1 + 2/3)/2 = 5/6; list 2 ranks its one
// relevant item first: AP 1. MAP = 11/12.
func TestOnce(t *testing.T) {
	d, err := ReadRKM1(writeRKM1(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2, 3} {
		for _, batch := range []int{1, 2, 5} {
			got, err := Once(d, Case{metric.Float64, metric.Stable, metric.NoTopN, w}, batch)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-11.0/12) > 1e-15 {
				t.Errorf("workers %d batch %d: MAP %v, want 11/12", w, batch, got)
			}
		}
	}
	// MAP@1: list 1 gets 1/2 (one of two relevant), list 2 gets 1.
	if got, _ := Once(d, Case{metric.Float64, metric.Stable, 1, 1}, 4); math.Abs(got-0.75) > 1e-15 {
		t.Errorf("MAP@1 %v, want 0.75", got)
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-data", writeRKM1(t), "-reps", "2", "-cases", "scaling"}, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d result lines, want 2 controls and 4 cases:\n%s", len(lines), out.String())
	}
	var r Result
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil || r.Peer != "control" {
		t.Fatalf("first line %s: %v", lines[0], err)
	}
	if err := json.Unmarshal([]byte(lines[2]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Items != 6 || len(r.Runs) != 2 || float32(r.MAP) != float32(11.0/12) {
		t.Errorf("result %+v", r)
	}
	if err := run(context.Background(), []string{"-data", "missing.bin"}, &out); err == nil {
		t.Error("no error for a missing file")
	}
}
