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
	configKeys   = "name, topn, dtype, ragged, ties, seed and accumulation"
	settingsKeys = configKeys + ", metric, gain, discount, convention, empty, relevance, alpha and subtopics"
	stateKeys    = "total, count, exact_total, exact_count and rng"
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
// ErrConfig. The totals are checked by SetState and Merge.
func (s *State) UnmarshalJSON(b []byte) error {
	type plain State // without this method
	return decodeStrict(b, (*plain)(s), "state", "config, "+stateKeys)
}

// UnmarshalJSON decodes a state; an unknown key is an error wrapping
// ErrConfig. The totals are checked by SetState and Merge.
func (s *FamilyState) UnmarshalJSON(b []byte) error {
	type plain FamilyState // without this method
	return decodeStrict(b, (*plain)(s), "state", "settings, "+stateKeys)
}
