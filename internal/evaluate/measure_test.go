package evaluate

import (
	"slices"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/metric"
)

func TestParseMeasure(t *testing.T) {
	tests := []struct {
		in   string
		want Measure
		err  string
	}{
		{"map", Measure{"map", metric.NoTopN}, ""},
		{" MAP ", Measure{"map", metric.NoTopN}, ""},
		{"map@10", Measure{"map@10", 10}, ""},
		{"Map@0", Measure{"map@0", 0}, ""},
		{"map@007", Measure{"map@7", 7}, ""},
		{"map@-1", Measure{}, `unknown measure "map@-1"`},
		{"map@", Measure{}, `unknown measure "map@"`},
		{"ndcg", Measure{}, `unknown measure "ndcg"`},
	}
	for _, tc := range tests {
		got, err := ParseMeasure(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("ParseMeasure(%q): error %v, want %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("ParseMeasure(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestAppendMeasure(t *testing.T) {
	var l []Measure
	for _, m := range []Measure{MAP(), MAPAt(3), MAP(), MAPAt(3), MAPAt(1)} {
		l = AppendMeasure(l, m)
	}
	if want := []Measure{{"map", -1}, {"map@3", 3}, {"map@1", 1}}; !slices.Equal(l, want) {
		t.Errorf("measures %v, want %v", l, want)
	}
}

func TestParsePolicy(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Policy
		err  bool
	}{{"skip", Skip, false}, {"keep", Keep, false}, {"drop", 0, true}, {"Keep", 0, true}} {
		got, err := ParsePolicy(tc.in)
		if (err != nil) != tc.err || got != tc.want {
			t.Errorf("ParsePolicy(%q) = %v, %v", tc.in, got, err)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
}
