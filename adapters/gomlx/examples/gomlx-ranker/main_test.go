package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// A short run of the example: MAP@10 rises well above the untrained model,
// stays below the noise-free ceiling, and restoring the best weights gives
// back exactly the best value.
func TestRunLearns(t *testing.T) {
	o := defaultOptions()
	o.data.Queries, o.valQueries, o.steps, o.every, o.patience = 256, 64, 300, 50, 3
	var out bytes.Buffer
	s, err := run(context.Background(), o, &out)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + out.String())
	const margin = 0.2
	if s.best < s.before+margin {
		t.Errorf("best MAP@10 %.4f does not beat the untrained %.4f by %.2f", s.best, s.before, margin)
	}
	if s.best >= s.oracle {
		t.Errorf("best MAP@10 %.4f reaches the noise-free ceiling %.4f", s.best, s.oracle)
	}
	if s.restored != s.best {
		t.Errorf("restored weights give %v, best evaluation was %v", s.restored, s.best)
	}
	for _, want := range []string{"untrained model: validation MAP@10 = ", "step 50: validation MAP@10 = ", "restored those weights"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestParseWidths(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"", nil, false},
		{"32", []int{32}, false},
		{"16, 8", []int{16, 8}, false},
		{"16,x", nil, true},
		{"0", nil, true},
	}
	for _, tc := range tests {
		got, err := parseWidths(tc.in)
		if (err != nil) != tc.wantErr || len(got) != len(tc.want) {
			t.Errorf("parseWidths(%q) = %v, %v", tc.in, got, err)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("parseWidths(%q) = %v, want %v", tc.in, got, tc.want)
			}
		}
	}
}
