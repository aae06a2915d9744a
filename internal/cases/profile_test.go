package cases

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestProfileCases checks the "profile" key of compute on the batch of
// issue 24 (two lists, cutoff 3, ties in input order), whose values under
// torchmetrics 1.9.0 and keras-rs 0.4.0 come from the libraries (see
// parity/profiles), and the keys a profile refuses.
func TestProfileCases(t *testing.T) {
	const batch = `"topn":3,"ties":"stable","updates":[{"labels":[[0,1,0,1],[1,0,0,0]],"predictions":[[0.9,0.8,0.8,0.1],[0.1,0.5,0.5,0.9]]}]`
	for _, c := range []struct {
		line string
		want float64
		err  string
	}{
		{`{"metric":"map","profile":"torchmetrics",` + batch + `}`, 0.25, ""},
		{`{"metric":"ndcg","profile":"torchmetrics",` + batch + `}`, float64(float32(0.17335659)), ""},
		{`{"metric":"ndcg","profile":"keras-rs",` + batch + `}`, float64(float32(0.19342642)), ""},
		{`{"metric":"precision","profile":"torchmetrics","adaptive_k":true,` + batch + `}`, float64(float32(1.0 / 6)), ""},
		{`{"metric":"fallout","profile":"torchmetrics",` + batch + `}`, 1, ""},
		{`{"metric":"fallout",` + batch + `}`, 0, "not a TF-Ranking metric"},
		{`{"metric":"hits","profile":"keras-rs",` + batch + `}`, 0, "has no hits"},
		{`{"metric":"map","profile":"sklearn",` + batch + `}`, 0, "profile"},
	} {
		var out bytes.Buffer
		if _, err := Process(context.Background(), strings.NewReader(c.line+"\n"), &out, DefaultMaxLine); err != nil {
			t.Fatal(err)
		}
		var a struct {
			Result float64 `json:"result"`
			Error  string  `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatalf("%s: %v", out.String(), err)
		}
		switch {
		case c.err != "" && !strings.Contains(a.Error, c.err):
			t.Errorf("%s: error %q, want one containing %q", c.line, a.Error, c.err)
		case c.err == "" && (a.Error != "" || float32(a.Result) != float32(c.want)):
			t.Errorf("%s: %v (%s), want %v", c.line, a.Result, a.Error, c.want)
		}
	}
}
