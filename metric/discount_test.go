package metric

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"
)

// TestDiscountTableMatchesTF checks the float32 rank discount, for every
// cutoff of testdata/parity/family_discount.json.gz, bit for bit against
// TF 2.15's tfr.keras.utils.log2_inverse over the [K] vector of ranks, which
// parity/generate_family.py recorded from the real TF: Eigen's packet log1p
// for whole 8-float packets, glibc's log1pf for the rest.
func TestDiscountTableMatchesTF(t *testing.T) {
	f, err := os.Open("../testdata/parity/family_discount.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Cutoffs map[string][]uint32 `json:"cutoffs"`
	}
	if err := json.NewDecoder(zr).Decode(&golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cutoffs) < 50 {
		t.Fatalf("read %d cutoffs, want at least 50", len(golden.Cutoffs))
	}
	ranks := 0
	for ks, want := range golden.Cutoffs {
		k, err := strconv.Atoi(ks)
		if err != nil || k != len(want) {
			t.Fatalf("cutoff %q has %d ranks", ks, len(want))
		}
		got := discountTable32(Log2Discount(), k, nil)
		for i, w := range want {
			if math.Float32bits(got[i]) != w {
				t.Fatalf("cutoff %d, rank %d: %v, TF %v", k, i+1, got[i], math.Float32frombits(w))
			}
		}
		ranks += k
	}
	t.Logf("%d ranks over %d cutoffs bit-equal to TF", ranks, len(golden.Cutoffs))
}
