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
