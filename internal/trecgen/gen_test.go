package trecgen

import (
	"bytes"
	"strings"
	"testing"
)

func TestDeterministic(t *testing.T) {
	for _, s := range Sets {
		a, b := Generate(42+s.SeedOffset, s.Options), Generate(42+s.SeedOffset, s.Options)
		if !bytes.Equal(a.Qrels, b.Qrels) || !bytes.Equal(a.Run, b.Run) {
			t.Errorf("%s: two runs with one seed differ", s.Name)
		}
	}
}

// The data sets have the corner cases the package promises.
func TestCoverage(t *testing.T) {
	d := Generate(7, Sets[0].Options)
	runTopics := map[string]int{}
	scores := map[string]map[string]int{}
	lines := strings.Split(strings.TrimSpace(string(d.Run)), "\n")
	for _, l := range lines {
		f := strings.Fields(l)
		runTopics[f[0]]++
		if scores[f[0]] == nil {
			scores[f[0]] = map[string]int{}
		}
		scores[f[0]][f[4]]++
	}
	one, long, ties, near := false, false, false, false
	for q, n := range runTopics {
		one = one || n == 1
		long = long || n > 1000
		for s, c := range scores[q] {
			ties = ties || c > 1
			_, frac, _ := strings.Cut(s, ".")
			near = near || len(frac) == 9 // a previous score + 1e-9
		}
	}
	if !one || !long || !ties || !near {
		t.Errorf("one-document topic %v, >1000 documents %v, exact ties %v, near ties %v", one, long, ties, near)
	}
	if !strings.HasSuffix(lines[len(lines)-1], "-last") {
		t.Error("the last run line does not have its own run id")
	}
	for _, want := range []string{" -2\n", " 0\n", " 3\n"} {
		if !bytes.Contains(d.Qrels, []byte(want)) {
			t.Errorf("no judgement %q", strings.TrimSpace(want))
		}
	}
	sh := Generate(7, Sets[2].Options)
	if !bytes.Contains(sh.Run, []byte("\n#")) || !bytes.Contains(sh.Qrels, []byte("\n#")) {
		t.Error("no comment lines in the shuffled set")
	}
}
