package cliflags

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

func newFlagSet(name string, g Groups) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	v := Defaults()
	var m stringValue
	v.Measures = &m
	v.Register(fs, g)
	return fs
}

type stringValue string

func (s *stringValue) String() string     { return string(*s) }
func (s *stringValue) Set(v string) error { *s = stringValue(v); return nil }

func TestExplain(t *testing.T) {
	all := Input | ScoreCol | Measures | Compat | Ties | Queries
	tests := []struct {
		groups Groups
		args   []string
		want   string
	}{
		{all, []string{"--colums", "qid,label,score"}, "unknown flag --colums: did you mean --columns?"},
		{all, []string{"-qid-cl", "q"}, "unknown flag --qid-cl: did you mean --qid-col?"},
		{all, []string{"--tie-seed", "1"}, "unknown flag --tie-seed: did you mean --ties-seed?"},
		{all, []string{"--dtpye", "float64"}, "unknown flag --dtpye: did you mean --dtype?"},
		{all, []string{"-x"}, "unknown flag -x"},
		{all, []string{"--frobnicate"}, "unknown flag --frobnicate"},
		{all, []string{"--seed", "1"}, "unknown flag --seed: the seed of the random tie order is --ties-seed (--seed is the seed of resampling, as in rankmetrics compare; test has none)"},
		{Input, []string{"--seed", "1"}, "unknown flag --seed"},
		{all, []string{"--ties-seed", "x"}, `invalid value "x" for flag -ties-seed: parse error`},
	}
	for _, tc := range tests {
		fs := newFlagSet("test", tc.groups)
		err := fs.Parse(tc.args)
		if err == nil || errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%v: %v, want an error", tc.args, err)
		}
		if got := Explain(fs, err).Error(); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestNearest(t *testing.T) {
	fs := newFlagSet("test", Input|ScoreCol|Measures|Compat|Ties|Queries)
	tests := []struct{ name, want string }{
		{"columns", "columns"},
		{"colums", "columns"},
		{"column", "columns"},
		{"qrels-onyl", "qrels-only"},
		{"run-onyl", "run-only"},
		{"score_col", "score-col"},
		{"n", ""},
		{"mm", ""},
		{"ties-sed", "ties-seed"},
		{"input", ""},
		{"max-line", ""}, // 5 edits from max-line-bytes
	}
	for _, tc := range tests {
		if got := Nearest(fs, tc.name); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRegisterDefaults: each flag's default is the field's value before
// Register, and the tie seed is --ties-seed, never --seed.
func TestRegisterDefaults(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	v := Defaults()
	var m stringValue
	v.Measures, v.QrelsOnly = &m, "keep"
	v.Register(fs, Input|ScoreCol|Measures|Compat|Ties|Queries)
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	for _, want := range []string{`-qrels-only string`, `(default "keep")`, `-ties-seed SEED`, `-columns ORDER`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, b.String())
		}
	}
	if fs.Lookup("seed") != nil {
		t.Error("--seed is registered")
	}
	if err := fs.Parse([]string{"--ties-seed", "9", "--topn", "3", "--columns", "qid,label,score"}); err != nil || v.TiesSeed != 9 || v.TopN != 3 || v.Positions != "qid,label,score" {
		t.Errorf("parse: %v, %+v", err, v)
	}
}
