package metric_test

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/rankmetrics/rankmetrics/internal/cases"
)

// tfrCase is a line of testdata/tfr/map_cases.jsonl: a case from
// TF-Ranking's own tests and docstrings, with the values those tests assert
// and a float32 emulation of TF's arithmetic.
type tfrCase struct {
	cases.Case
	Expect struct {
		Source        string      `json:"source"`
		Asserted      string      `json:"asserted"`
		Value         float64     `json:"value"`
		ResultF32     float64     `json:"result_f32"`
		PerList       [][]float64 `json:"per_list"`
		ListWeights   [][]float64 `json:"list_weights"`
		TFPerList     []float64   `json:"tf_per_list"`
		TFListWeights []float64   `json:"tf_list_weights"`
	} `json:"expect"`
}

func readTFRCases(t *testing.T) []tfrCase {
	t.Helper()
	f, err := os.Open("../testdata/tfr/map_cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tfrCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c tfrCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) != 34 {
		t.Fatalf("read %d TF-Ranking cases, want 34", len(out))
	}
	return out
}

func f32bits(x float64) uint32 { return math.Float32bits(float32(x)) }

// TestTFRankingCases runs every case of TF-Ranking's tests: float32 results,
// per-list values and list weights bit-equal to TF's float32 arithmetic, and
// within 1e-6 of the values the TF tests assert, in float32 and float64.
func TestTFRankingCases(t *testing.T) {
	for _, c := range readTFRCases(t) {
		t.Run(c.ID, func(t *testing.T) {
			for _, dtype := range []string{"float32", "float64"} {
				for _, ties := range []string{"stable", "random", "expected", "pessimistic", "optimistic"} {
					cc := c.Case
					cc.DType, cc.Ties = dtype, ties // the cases are tie-free: every policy agrees
					a := cases.Run(&cc)
					if a.Error != "" {
						t.Fatalf("%s %s: %s", dtype, ties, a.Error)
					}
					if math.Abs(a.Result-c.Expect.Value) > 1e-6 {
						t.Errorf("%s %s: result %v, TF test expects %v", dtype, ties, a.Result, c.Expect.Value)
					}
					if c.Expect.TFPerList != nil {
						for b, want := range c.Expect.TFPerList {
							if got := a.PerList[0][b]; math.Abs(got-want) > 1e-6 {
								t.Errorf("%s %s: list %d AP %v, TF test expects %v", dtype, ties, b, got, want)
							}
						}
					}
					if c.Expect.TFListWeights != nil {
						for b, want := range c.Expect.TFListWeights {
							if got := a.ListWeights[0][b]; math.Abs(got-want) > 1e-6 {
								t.Errorf("%s %s: list %d weight %v, TF test expects %v", dtype, ties, b, got, want)
							}
						}
					}
					if dtype != "float32" {
						continue
					}
					if f32bits(a.Result) != f32bits(c.Expect.ResultF32) || float64(float32(a.Result)) != a.Result {
						t.Errorf("%s: result %v is not float32 %v", ties, a.Result, float32(c.Expect.ResultF32))
					}
					for u := range c.Expect.PerList {
						for b := range c.Expect.PerList[u] {
							if f32bits(a.PerList[u][b]) != f32bits(c.Expect.PerList[u][b]) ||
								f32bits(a.ListWeights[u][b]) != f32bits(c.Expect.ListWeights[u][b]) {
								t.Errorf("%s: update %d list %d: (%v, %v), want (%v, %v)", ties, u, b,
									a.PerList[u][b], a.ListWeights[u][b], c.Expect.PerList[u][b], c.Expect.ListWeights[u][b])
							}
						}
					}
				}
			}
		})
	}
}
