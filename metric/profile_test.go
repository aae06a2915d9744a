package metric

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// TestProfileConfig checks the profile's place in Config: JSON round trip,
// the kinds each profile has and the fields it refuses.
func TestProfileConfig(t *testing.T) {
	c, err := newConfig(KindPrecision, []Option{WithProfile(ProfileTorchmetrics), WithTopN(5), WithAdaptiveK(true), WithEmpty(EmptySkip)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"profile":"torchmetrics"`) || !strings.Contains(string(b), `"adaptive_k":true`) {
		t.Errorf("JSON %s lacks the profile", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back.Profile != ProfileTorchmetrics || !back.AdaptiveK || back.Empty != EmptySkip {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	for _, bad := range []struct {
		k    Kind
		opts []Option
	}{
		{KindHits, []Option{WithProfile(ProfileKerasRS)}},
		{KindARP, []Option{WithProfile(ProfileTorchmetrics)}},
		{KindRPrecision, nil},
		{KindRPrecision, []Option{WithProfile(ProfileTorchmetrics), WithTopN(3)}},
		{KindNDCG, []Option{WithProfile(ProfileTorchmetrics), WithTopN(0)}},
		{KindNDCG, []Option{WithProfile(ProfileKerasRS), WithGain(IdentityGain())}},
		{KindMAP, []Option{WithProfile(ProfileKerasRS), WithEmpty(EmptyOne)}},
		{KindMAP, []Option{WithProfile(ProfileTorchmetrics), WithTies(Expected)}},
		{KindPrecision, []Option{WithAdaptiveK(true)}},
	} {
		if _, err := newConfig(bad.k, bad.opts); !errors.Is(err, ErrConfig) {
			t.Errorf("%s %v: error %v, want ErrConfig", bad.k, len(bad.opts), err)
		}
	}
	if got := len(ProfileTorchmetrics.Kinds()); got != 8 {
		t.Errorf("torchmetrics has %d kinds, want 8", got)
	}
	if got := len(ProfileKerasRS.Kinds()); got != 6 {
		t.Errorf("keras-rs has %d kinds, want 6", got)
	}
}

// TestProfileInputs checks the inputs a profile refuses as its library
// does: weights and graded labels under torchmetrics.
func TestProfileInputs(t *testing.T) {
	lab, _ := tensor.DenseRows([][]float32{{0, 2, 1}})
	sc, _ := tensor.DenseRows([][]float32{{3, 2, 1}})
	m, err := NewMRR(WithProfile(ProfileTorchmetrics))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Update(lab, sc, tensor.Weights{}); !errors.Is(err, ErrInput) {
		t.Errorf("graded labels under torchmetrics' MRR: %v, want ErrInput", err)
	}
	n, _ := NewNDCG(WithProfile(ProfileTorchmetrics))
	if err := n.Update(lab, sc, tensor.PerList([]float32{2})); !errors.Is(err, ErrInput) {
		t.Errorf("weights under torchmetrics: %v, want ErrInput", err)
	}
	if err := n.Update(lab, sc, tensor.Weights{}); err != nil {
		t.Errorf("graded labels under torchmetrics' NDCG: %v", err)
	}
}
