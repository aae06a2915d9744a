package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	err := dec.Decode(&w)
	if _, end := dec.Token(); err == nil && !errors.Is(end, io.EOF) {
		err = errors.New("text after the case object")
	}
	if err == nil {
		err = nullRows(w.Updates)
	} else if errors.Is(err, errNull) {
		err = findNull(line)
	}
	if err != nil {
		id := struct {
			ID string `json:"id"`
		}{w.ID}
		if id.ID == "" {
			_ = json.Unmarshal(line, &id)
		}
		return Case{ID: id.ID}, Family{}, fmt.Errorf("%w: %w", ErrCase, err)
	}
	return w.Case, w.Family, nil
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

// nullRows returns an error naming the first labels or predictions that
// are missing or null, or a row of labels, predictions or weights that is
// null: JSON decodes a null row as a nil row and [] as an empty one.
func nullRows(us []Update) error {
	for u := range us {
		for _, f := range []struct {
			key  string
			rows [][]Num
		}{{"labels", us[u].Labels}, {"predictions", us[u].Predictions}, {"weights", us[u].Weights}} {
			if f.rows == nil {
				if f.key == "weights" {
					continue // null or absent: no weights
				}
				return fmt.Errorf("updates[%d].%s is null or missing; give rows of numbers, [] for no lists", u, f.key)
			}
			for b, row := range f.rows {
				if row == nil {
					return fmt.Errorf("updates[%d].%s[%d] is null; a row is a list of numbers, [] for an empty one", u, f.key, b)
				}
			}
		}
	}
	return nil
}

// findNull returns an error naming the first null number of the labels,
// predictions or weights of line, which failed to decode because of it.
func findNull(line []byte) error {
	var w struct {
		Updates []map[string]json.RawMessage `json:"updates"`
	}
	if err := json.Unmarshal(line, &w); err == nil {
		for u, up := range w.Updates {
			for _, key := range []string{"labels", "predictions", "weights"} {
				var rows [][]json.RawMessage
				if json.Unmarshal(up[key], &rows) != nil {
					continue
				}
				for b, row := range rows {
					for i, x := range row {
						if string(x) == "null" {
							return fmt.Errorf("updates[%d].%s[%d][%d] is null%s", u, key, b, i, nullText)
						}
					}
				}
			}
		}
	}
	return fmt.Errorf("a number is null%s", nullText)
}
