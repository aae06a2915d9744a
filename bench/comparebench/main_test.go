package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestComparebenchSmall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v.f64")
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-runs", "4", "-queries", "50", "-samples", "200", "-values", path}, &out); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Pairs, Runs, Queries int
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if r.Pairs != 6 || r.Runs != 4 || r.Queries != 50 {
		t.Errorf("%s", out.String())
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 4*50*8 {
		t.Errorf("values file: %v %v", st, err)
	}
}
