package metric

import (
	"encoding/binary"
	"math"
	"testing"
)

// decodeCase turns fuzz bytes into a small batch: a header byte for the
// options, then per item a label byte, a score byte and a weight byte.
func decodeCase(data []byte) (refCase, TiePolicy, DType, bool) {
	if len(data) < 3 {
		return refCase{}, 0, 0, false
	}
	h, n := data[0], int(data[1]%9)
	tc := refCase{ragged: h&1 != 0, f32Storage: h&2 != 0, topn: int(data[2]%12) - 1}
	ties := allPolicies[int(h>>2)%len(allPolicies)]
	d := DType(h >> 7)
	body := data[3:]
	weighted := (h >> 5) & 3
	labels := []float64{-1, 0, 0.5, 1, 2, math.NaN(), math.Inf(1), -3}
	weights := []float64{0, 1, 0.5, -1, 2, 1e-30}
	for len(body) >= 3 {
		m := n
		if tc.ragged {
			m = int(body[0]) % (n + 1)
			body = body[1:]
		}
		if len(tc.labels) == 16 {
			break
		}
		lab, sc, w := make([]float64, m), make([]float64, m), make([]float64, m)
		for i := range m {
			if len(body) < 3 {
				return tc, ties, d, len(tc.labels) > 0
			}
			lab[i] = labels[int(body[0])%len(labels)]
			sc[i] = float64(int8(body[1])) / 8
			switch body[1] {
			case 127:
				sc[i] = math.Inf(1)
			case 128:
				sc[i] = math.Inf(-1)
			}
			w[i] = weights[int(body[2])%len(weights)]
			body = body[3:]
		}
		tc.labels, tc.preds = append(tc.labels, lab), append(tc.preds, sc)
		switch weighted {
		case 1:
			tc.weights = append(tc.weights, w)
		case 2:
			tc.perList = append(tc.perList, weights[int(binary.LittleEndian.Uint16(append(body, 0, 0)))%len(weights)])
		}
	}
	return tc, ties, d, len(tc.labels) > 0
}

// FuzzUpdate checks, on any batch, that the metric never panics, that AP
// stays in [0, 1], and that the deterministic policies agree with the naive
// reference.
func FuzzUpdate(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 3, 0, 3, 10, 1, 0, 20, 1, 1, 5, 1},
		{1, 4, 4, 2, 1, 1, 3, 1, 1, 0, 0, 1, 4, 127, 1},
		{0x84, 5, 11, 3, 128, 1, 3, 127, 2, 4, 0, 3, 3, 0, 1},
		{0x26, 2, 1, 3, 1, 0, 3, 1, 1},
		{0x4c, 6, 7, 0, 9, 2, 1, 9, 1, 3, 9, 4, 3, 200, 1, 5, 9, 1, 0, 0, 0},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tc, ties, d, ok := decodeCase(data)
		if !ok {
			return
		}
		opts := []Option{WithDType(d), WithTies(ties), WithRagged(tc.ragged)}
		if tc.topn >= 0 {
			opts = append(opts, WithTopN(tc.topn))
		}
		m, err := NewMeanAveragePrecision(opts...)
		if err != nil {
			t.Fatal(err)
		}
		labels, preds, w := caseInputs(t, tc)
		var got PerList
		if err := m.UpdatePerList(&got, labels, preds, w); err != nil {
			t.Fatalf("update: %v", err)
		}
		if r := m.Result(); !(r >= 0 && r <= 1) {
			t.Fatalf("result %v", r)
		}
		if ties == Random {
			return
		}
		tol := 1e-12
		var want PerList
		if d == Float32 {
			want, tol = referenceCompute[float32](tc, ties), 1e-6
		} else {
			want = referenceCompute[float64](tc, ties)
		}
		comparePerList(t, tc, ties, got, want, tol)
	})
}
