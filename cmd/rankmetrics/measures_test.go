package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/measure"
)

// TestHelpMeasures: `rankmetrics help measures` prints every record of the
// registry, on stdout, and README's name table names every measure that
// eval accepts, so that neither can miss a measure added to the registry.
func TestHelpMeasures(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"help", "measures"}, nil, &out, &errb); err != nil {
		t.Fatalf("help measures: %v (%s)", err, errb.String())
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(readme, []byte("### Measure names"))
	if start < 0 {
		t.Fatal("README has no Measure names section")
	}
	table := string(readme[start:])
	if end := strings.Index(table[3:], "\n## "); end >= 0 {
		table = table[:end+3]
	}
	for _, d := range measure.Defs() {
		if !strings.Contains(out.String(), d.Doc) {
			t.Errorf("help measures lacks %s (%s)", d.Key, d.Family)
		}
		if d.TrecEvalOnly || d.Subtopics {
			continue
		}
		if !strings.Contains(table, "`"+d.Key) && !strings.Contains(table, " "+d.Key+")") && !strings.Contains(table, "("+d.Key+")") && !strings.Contains(table, "`"+d.Key+"`") {
			t.Errorf("README's Measure names table does not name %s (%s)", d.Key, d.Family)
		}
	}
}
