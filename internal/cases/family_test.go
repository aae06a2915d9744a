package cases

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"
)

// TestFamilyCases runs testdata/parity/family_conventions.jsonl, cases in
// the compute format for the family's keys, whose results were worked out
// by hand (the worked examples of issue 6) or come from TF-Ranking's
// docstrings, and whose errors must name the bad key or value.
func TestFamilyCases(t *testing.T) {
	f, err := os.Open("../../testdata/parity/family_conventions.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		c, fam, err := DecodeFamily(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		var want struct {
			Result *float64 `json:"result"`
			Error  string   `json:"error"`
		}
		if err := json.Unmarshal(c.Expect, &want); err != nil {
			t.Fatal(err)
		}
		if !IsFamily(&c, fam) {
			t.Fatalf("%s: not a family case", c.ID)
		}
		a := RunFamily(&c, fam)
		switch {
		case want.Error != "":
			if !strings.Contains(a.Error, want.Error) {
				t.Fatalf("%s: error %q, want one containing %q", c.ID, a.Error, want.Error)
			}
		case a.Error != "":
			t.Fatalf("%s: %s", c.ID, a.Error)
		default:
			tol := 1e-15
			if a.Float32 {
				tol = 1e-7
			}
			if math.Abs(a.Result-*want.Result) > tol {
				t.Fatalf("%s: result %v, want %v", c.ID, a.Result, *want.Result)
			}
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 22 {
		t.Fatalf("ran %d cases, want 22", n)
	}
}

// TestDecodeFamily checks that unknown keys are errors and that a plain MAP
// case is not a family case.
func TestDecodeFamily(t *testing.T) {
	if _, _, err := DecodeFamily([]byte(`{"id":"x","metric":"map","conventon":"minrk","updates":[]}`)); err == nil {
		t.Fatal("a misspelt key was accepted")
	}
	c, fam, err := DecodeFamily([]byte(`{"id":"x","metric":"map","topn":3,"updates":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if IsFamily(&c, fam) {
		t.Fatal("plain MAP taken for a family case")
	}
	c, fam, err = DecodeFamily([]byte(`{"id":"x","metric":"map","topn":3,"empty":"one","updates":[]}`))
	if err != nil || !IsFamily(&c, fam) {
		t.Fatalf("a MAP case with an empty policy: %v, family %v", err, IsFamily(&c, fam))
	}
}
