package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// DecodeFamily parses one case line: a JSON object with the keys of Case
// and Family. Unknown keys are an error, so that a misspelt option is not
// silently ignored, and so is null where a number or a row must be (null
// is neither 0 nor NaN), naming its update, key and position. The id is
// returned when it could be read.
func DecodeFamily(line []byte) (Case, Family, error) {
	var w struct {
		Case
		Family
	}
	if t := bytes.TrimSpace(line); len(t) == 0 || t[0] != '{' {
		return Case{}, Family{}, fmt.Errorf("%w: a case is a JSON object {\"id\": ..., \"updates\": [...]}, not %q", ErrCase, clip(t))
	}
	// json.Unmarshal reads line in place; a json.Decoder would first copy
	// it into a buffer of up to twice its size.
	err := json.Unmarshal(line, &w)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) && strings.Contains(err.Error(), "after top-level value") {
		err = errors.New("text after the case object")
	}
	if err == nil {
		err = unknownKey(line)
	}
	if err == nil {
		err = checkRows(w.Updates)
	}
	if err != nil {
		id := struct {
			ID string `json:"id"`
		}{w.ID}
		if id.ID == "" {
			// A decoder, not json.Unmarshal, reads the id of an object
			// followed by more text.
			_ = json.NewDecoder(bytes.NewReader(line)).Decode(&id)
		}
		return Case{ID: id.ID}, Family{}, fmt.Errorf("%w: %w", ErrCase, err)
	}
	return w.Case, w.Family, nil
}

// skipped is a JSON value that decodes to nothing.
type skipped struct{}

// UnmarshalJSON does nothing: the value is not wanted.
func (*skipped) UnmarshalJSON([]byte) error { return nil }

// unknownKey returns an error naming a key of the JSON object line that is
// not a key of Case or Family, matched as encoding/json matches keys to
// fields (exactly, or else ignoring case). It names the first in byte
// order when there are several.
func unknownKey(line []byte) error {
	var keys map[string]skipped
	if err := json.Unmarshal(line, &keys); err != nil {
		return err
	}
	var unknown []string
	for k := range keys {
		if !slices.ContainsFunc(caseKeys(), func(name string) bool { return strings.EqualFold(k, name) }) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("json: unknown field %q", slices.Min(unknown))
}

// caseKeys returns the keys of a case line: the JSON names of the fields
// of Case and Family.
func caseKeys() []string {
	var keys []string
	for _, t := range []reflect.Type{reflect.TypeFor[Case](), reflect.TypeFor[Family]()} {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			keys = append(keys, name)
		}
	}
	return keys
}

// clip shortens b for an error message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// nullText is the advice of every error about a null.
const nullText = `; write a number, or "NaN", "Infinity" or "-Infinity"`

// checkRows returns an error naming the first labels or predictions that
// are missing or null, or rows of labels, predictions or weights that are
// not lists of numbers, naming the update, key and position.
func checkRows(us []Update) error {
	for u := range us {
		for _, f := range []struct {
			key  string
			rows *Rows
		}{{"labels", &us[u].Labels}, {"predictions", &us[u].Predictions}, {"weights", &us[u].Weights}} {
			if err := f.rows.check(fmt.Sprintf("updates[%d].%s", u, f.key), f.key == "weights"); err != nil {
				return err
			}
		}
	}
	return nil
}
