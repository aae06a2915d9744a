package evaluate

import (
	"testing"

	"github.com/rankmetrics/rankmetrics/measure"
	"github.com/rankmetrics/rankmetrics/metric"
)

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

// TestHistMeasure: the histogram is of the first map, else of the first
// measure with values in [0, 1], else of the first measure.
func TestHistMeasure(t *testing.T) {
	tests := []struct {
		measures []string
		want     int
	}{
		{[]string{"ndcg@5", "map@3", "map"}, 2},
		{[]string{"arp", "dcg@3", "P_10", "mrr"}, 2},
		{[]string{"map@3", "mrr"}, 0},
		{[]string{"arp", "dcg"}, 0},
	}
	for _, tc := range tests {
		var list []Measure
		for _, s := range tc.measures {
			m, err := measure.Parse(s)
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, m)
		}
		if got := histMeasure(list); got != tc.want {
			t.Errorf("%v: histogram of measure %d, want %d", tc.measures, got, tc.want)
		}
	}
}

// TestFormatValue: values print in the shortest form of the dtype they
// were computed in, and trec_eval's measures are float64 whatever the
// plan's dtype (hand-worked strings).
func TestFormatValue(t *testing.T) {
	f32 := float64(float32(0.1)) // 0.10000000149011612 as a float64
	for _, c := range []struct {
		name string
		v    float64
		d    metric.DType
		want string
	}{
		{"ndcg@5", f32, metric.Float32, "0.1"},
		{"ndcg@5", f32, metric.Float64, "0.10000000149011612"},
		{"map", 0.5, metric.Float32, "0.5"},
		{"P_5", 0.3, metric.Float32, "0.3"},
		{"P_5", f32, metric.Float32, "0.10000000149011612"},
	} {
		m, err := measure.Parse(c.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatValue(c.v, m.ValueDType(c.d)); got != c.want {
			t.Errorf("%s %v in %v: got %q, want %q", c.name, c.v, c.d, got, c.want)
		}
	}
}
