package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalProfile checks that --profile puts map@K and the TF-Ranking keys
// under the library's definitions, names them so, and refuses a metric the
// library lacks; its values are the profile's (checked against the
// libraries by metric's TestProfileGolden).
func TestEvalProfile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"qrels.txt", "A.run"} {
		b, err := os.ReadFile(filepath.Join("../../testdata/examples", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q, r := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "A.run")
	out := mustEval(t, "-m", "map@3,ndcg@3,P_5", "--profile", "torchmetrics", "--ties", "stable", q, r)
	for _, want := range []string{"map@3:torchmetrics", "ndcg@3:torchmetrics", "P_5"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval --profile torchmetrics: no %s in\n%s", want, out)
		}
	}
	mixed := mustEval(t, "-m", "map@3,map@3:torchmetrics", "--ties", "stable", q, r)
	if !strings.Contains(mixed, "map@3:torchmetrics") || !strings.Contains(mixed, "\nmap@3 ") {
		t.Errorf("eval with both profiles:\n%s", mixed)
	}
	if _, err := evalRun(t, "-m", "arp", "--profile", "keras-rs", q, r); err == nil {
		t.Errorf("eval -m arp --profile keras-rs: error %v, want one (keras-rs has no arp)", err)
	}
	if _, err := evalRun(t, "--profile", "sklearn", q, r); err == nil {
		t.Error("eval --profile sklearn: no error")
	}
}
