package cases

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecodeFamily feeds arbitrary lines to the case decoder. It never
// panics; every error wraps ErrCase; and what it accepts is a JSON object
// whose labels and predictions, read independently by encoding/json into
// untyped values, hold no null, with as many rows as the decoded case.
func FuzzDecodeFamily(f *testing.F) {
	for _, s := range []string{
		`{"id":"a","topn":1,"updates":[{"labels":[[0,1]],"predictions":[[1,2]],"weights":[[1,2]]}]}`,
		`{"id":"b","ragged":true,"ties":"random","seed":3,"updates":[{"labels":[[],[1]],"predictions":[[],["Infinity"]],"weights":[[2],[1]]}]}`,
		`{"id":"c","metric":"ndcg@3","gain":"identity","updates":[{"labels":[[0,2]],"predictions":[[1,"NaN"]],"weights":null}]}`,
		`{"id":"d","updates":[{"labels":[[0,null]],"predictions":[[1,2]]}]}`,
		`{"id":"e","updates":[{"labels":[null],"predictions":[[1]]}]}`,
		`{"id":"f","updates":[{"labels":null,"predictions":null}]}`,
		`{"id":"g","metric":"alpha_dcg","subtopics":2,"alpha":0.5,"updates":[{"labels":[[1,0,0,1]],"predictions":[[1,2]]}]}`,
		`{"id":"h"}}`, `null`, `[1]`, `{"id":"i","expect":{"result":null}, "updates":[]}`, `{"updates":[{"labels":[[1e400]],"predictions":[["-inf"]]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		c, _, err := DecodeFamily(line)
		if err != nil {
			if !errors.Is(err, ErrCase) {
				t.Fatalf("error %v does not wrap ErrCase", err)
			}
			return
		}
		var raw struct {
			Updates []struct {
				Labels      [][]any `json:"labels"`
				Predictions [][]any `json:"predictions"`
			} `json:"updates"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatalf("accepted %q, which encoding/json cannot read: %v", line, err)
		}
		if len(raw.Updates) != len(c.Updates) {
			t.Fatalf("%d updates decoded, %d in %q", len(c.Updates), len(raw.Updates), line)
		}
		for u, up := range raw.Updates {
			for _, rows := range [][][]any{up.Labels, up.Predictions} {
				if rows == nil {
					t.Fatalf("update %d of %q has null or no labels or predictions", u, line)
				}
				for _, row := range rows {
					if row == nil {
						t.Fatalf("accepted a null row in %q", line)
					}
					for _, x := range row {
						if x == nil {
							t.Fatalf("accepted a null number in %q", line)
						}
					}
				}
			}
			if len(up.Labels) != c.Updates[u].Labels.Len() || len(up.Predictions) != c.Updates[u].Predictions.Len() {
				t.Fatalf("update %d of %q: rows differ", u, line)
			}
		}
	})
}
