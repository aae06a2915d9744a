package cases

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestProcess(t *testing.T) {
	in := strings.Join([]string{
		`{"id":"doc","metric":"map","topn":2,"ragged":false,"dtype":"float32","ties":"stable","updates":[{"labels":[[0,1,1]],"predictions":[[3,2,1]],"weights":null}]}`,
		``,
		`{"id":"bad key","topn":2,"tie":"stable","updates":[]}`,
		`{"id":"ragged per-list","ragged":true,"ties":"expected","updates":[{"labels":[[0,1],[1,2,0]],"predictions":[[3,2],[4,1,2]],"weights":[[1],[3]]}]}`,
		`{"id":"nan","ties":"stable","updates":[{"labels":[[1,0]],"predictions":[["NaN",1]],"weights":null}]}`,
		`{"id":"two updates","dtype":"float64","ties":"stable","updates":[{"labels":[[1,0]],"predictions":[[2,1]],"weights":[[3,1]]},{"labels":[[0,0]],"predictions":[[2,1]],"weights":[[5,5]]}]}`,
		`{"id":"mixed weights","ragged":true,"updates":[{"labels":[[1,0],[1]],"predictions":[[1,2],[1]],"weights":[[1],[1,2]]}]}`,
		`not json`,
		`{"id":"third","metric":"ndcg","ties":"stable","updates":[{"labels":[[0,1]],"predictions":[[2,1]],"weights":null}]}`,
		`{"id":"fourth","metric":"dcg_typo","updates":[]}`,
	}, "\n")
	var out bytes.Buffer
	n, err := Process(context.Background(), strings.NewReader(in), &out, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"id":"doc","result":0.25,"per_list":[[0.25]],"list_weights":[[1]]}`,
		`{"id":"bad key","error":"line 3: bad case: json: unknown field \"tie\""}`,
		// Row 1: relevant at rank 2, AP 1/2. Row 2 ranks labels 1, 0, 2: (1 + 2/3) / 2.
		// List weights 1 and 3: (0.5 + 3*5/6) / 4 = 0.75.
		`{"id":"ragged per-list","result":0.75,"per_list":[[0.5,0.8333333]],"list_weights":[[1,3]]}`,
		`{"id":"nan","error":"update 0: metric: predictions[0][0] is NaN (its label is 1); NaN scores cannot be ranked: bad metric input"}`,
		`{"id":"two updates","result":0.75,"per_list":[[1],[0]],"list_weights":[[3],[1]]}`,
		`{"id":"mixed weights","error":"update 0: weights row 1 has 2 values; it needs 1 (per item) or 1 (per list): bad case"}`,
		`{"id":"","error":"line 8: bad case: a case is a JSON object {\"id\": ..., \"updates\": [...]}, not \"not json\""}`,
		// NDCG of one relevant item at rank 2: (1/log2 3) / 1 = 0.63092977.
		`{"id":"third","result":0.63092977,"per_list":[[0.63092977]],"list_weights":[[1]]}`,
		`{"id":"fourth","error":"unknown measure \"dcg_typo\": not a TF-Ranking metric key (map, mrr, hits, arp, precision, recall, ndcg, dcg, ordered_pair_accuracy, opa, precision_ia, alpha_dcg, each with an optional @K)"}`,
	}
	got := strings.Split(strings.TrimSpace(out.String()), "\n")
	if n != len(want) || len(got) != len(want) {
		t.Fatalf("%d answers (%d lines), want %d:\n%s", n, len(got), len(want), out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// TestFloat32Printing checks that every float32 answer parses back to the
// same float32 bits, and that float64 answers keep all 64 bits.
func TestFloat32Printing(t *testing.T) {
	for _, x := range []float32{0.1, 1.0 / 3, 0.8235294, math.SmallestNonzeroFloat32, math.MaxFloat32, 5e-7, 123456.79} {
		var b bytes.Buffer
		Answer{Float32: true}.num(&b, float64(x))
		back, err := strconv.ParseFloat(b.String(), 64)
		if err != nil || float32(back) != x {
			t.Errorf("%v printed %s, parsed back %v (%v)", x, b.String(), float32(back), err)
		}
		if !json.Valid(b.Bytes()) {
			t.Errorf("%s is not JSON", b.String())
		}
	}
	var b bytes.Buffer
	Answer{}.num(&b, 1.0/3)
	if b.String() != "0.3333333333333333" {
		t.Errorf("float64 1/3 printed %s", b.String())
	}
}

// FuzzProcess feeds arbitrary lines: Process never panics and answers each
// non-blank line with exactly one JSON line that carries its id.
func FuzzProcess(f *testing.F) {
	f.Add(`{"id":"a","topn":1,"updates":[{"labels":[[0,1]],"predictions":[[1,2]],"weights":[[1,2]]}]}`)
	f.Add(`{"id":"b","ragged":true,"ties":"random","seed":3,"updates":[{"labels":[[],[1]],"predictions":[[],["Infinity"]],"weights":[[2],[1]]}]}`)
	f.Add(`{"id":"c","updates":[{"labels":[[0,1]],"predictions":[[1]],"weights":null}]}`)
	f.Add(`{"id":"d","dtype":"float16"}`)
	f.Add(`[1,2,3]`)
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "\n", " ")
		var out bytes.Buffer
		n, err := Process(context.Background(), strings.NewReader(line), &out, 0)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			lines++
			var a map[string]any
			if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
				t.Fatalf("answer %q is not JSON: %v", sc.Text(), err)
			}
		}
		wantLines := 1
		if strings.TrimSpace(line) == "" {
			wantLines = 0
		}
		if n != wantLines || lines != wantLines {
			t.Fatalf("%d answers, %d lines for %q", n, lines, line)
		}
	})
}
