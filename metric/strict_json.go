package metric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// The keys of the JSON forms, for the errors about unknown keys.
const (
	configKeys = "name, topn, dtype, ragged, ties, seed, accumulation, metric, gain, discount, convention, empty, relevance, alpha and subtopics"
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

// UnmarshalJSON decodes a state; an unknown key is an error wrapping
// ErrConfig. The configuration is read from the key config or, as family
// metrics wrote it before every metric shared one Config, settings. The
// totals are checked by SetState and Merge.
func (s *State) UnmarshalJSON(b []byte) error {
	var j struct {
		Config     *Config `json:"config"`
		Former     *Config `json:"settings"`
		Total      float64 `json:"total"`
		Count      float64 `json:"count"`
		ExactTotal string  `json:"exact_total"`
		ExactCount string  `json:"exact_count"`
		RNG        []byte  `json:"rng"`
	}
	if err := decodeStrict(b, &j, "state", stateKeys); err != nil {
		return err
	}
	out := State{Total: j.Total, Count: j.Count, ExactTotal: j.ExactTotal, ExactCount: j.ExactCount, RNG: j.RNG}
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
