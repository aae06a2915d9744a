package metric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// The keys of the JSON forms, for the errors about unknown keys.
const (
	configKeys = "name, topn, dtype, ragged, ties, seed, accumulation, metric, gain, discount, convention, empty, relevance, alpha, subtopics, profile and adaptive_k"
	stateKeys  = "config, total, count, exact_total, exact_count and rng"
)

// decodeStrict decodes the JSON object b into v, failing on a key v does
// not have, so that a misspelt key ("tie" for "ties") is an error and not a
// silently ignored setting, and on text after the object. what names the
// object in the error, keys lists the keys it takes.
func decodeStrict(b []byte, v any, what, keys string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("metric: %s: %w; the keys are %s: %w", what, err, keys, ErrConfig)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("metric: %s: text after the object: %w", what, ErrConfig)
	}
	return nil
}

// MarshalJSON encodes the state, writing a total or count that is NaN or
// infinite as the string "NaN", "Infinity" or "-Infinity" (JSON has no
// such numbers), as TF-Ranking's non-finite totals (MRR's -Inf at cutoff
// 0, NDCG's NaN when a float32 gain overflows) and the rounded sums of an
// Exact state beyond the float64 range need.
func (s State) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Config     Config  `json:"config"`
		Total      jsonNum `json:"total"`
		Count      jsonNum `json:"count"`
		ExactTotal string  `json:"exact_total,omitempty"`
		ExactCount string  `json:"exact_count,omitempty"`
		RNG        []byte  `json:"rng"`
	}{s.Config, jsonNum(s.Total), jsonNum(s.Count), s.ExactTotal, s.ExactCount, s.RNG})
}

// jsonNum is a float64 whose JSON form is a number, or "NaN", "Infinity"
// or "-Infinity".
type jsonNum float64

// MarshalJSON encodes x.
func (x jsonNum) MarshalJSON() ([]byte, error) {
	switch f := float64(x); {
	case math.IsNaN(f):
		return []byte(`"NaN"`), nil
	case math.IsInf(f, 1):
		return []byte(`"Infinity"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Infinity"`), nil
	}
	return json.Marshal(float64(x))
}

// UnmarshalJSON decodes a number or one of the strings MarshalJSON writes.
func (x *jsonNum) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*x = jsonNum(math.NaN())
		return nil
	case `"Infinity"`:
		*x = jsonNum(math.Inf(1))
		return nil
	case `"-Infinity"`:
		*x = jsonNum(math.Inf(-1))
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("%s is not a number, \"NaN\", \"Infinity\" or \"-Infinity\"", b)
	}
	*x = jsonNum(f)
	return nil
}

// UnmarshalJSON decodes a state; an unknown key is an error wrapping
// ErrConfig. The configuration is read from the key config or, as family
// metrics wrote it before every metric shared one Config, settings. The
// totals are checked by SetState and Merge.
func (s *State) UnmarshalJSON(b []byte) error {
	var j struct {
		Config     *Config `json:"config"`
		Former     *Config `json:"settings"`
		Total      jsonNum `json:"total"`
		Count      jsonNum `json:"count"`
		ExactTotal string  `json:"exact_total"`
		ExactCount string  `json:"exact_count"`
		RNG        []byte  `json:"rng"`
	}
	if err := decodeStrict(b, &j, "state", stateKeys); err != nil {
		return err
	}
	out := State{Total: float64(j.Total), Count: float64(j.Count), ExactTotal: j.ExactTotal, ExactCount: j.ExactCount, RNG: j.RNG}
	switch {
	case j.Config != nil && j.Former != nil:
		return fmt.Errorf("metric: state: both config and settings; settings is the former name of config: %w", ErrConfig)
	case j.Config != nil:
		out.Config = *j.Config
	case j.Former != nil:
		out.Config = *j.Former
	}
	*s = out
	return nil
}
