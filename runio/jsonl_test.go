package runio

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// Deeply nested values under unknown keys are skipped without recursion:
// 20M levels overflowed the goroutine stack (a fatal error, not a panic).
func TestJSONLDeepNesting(t *testing.T) {
	const depth = 20_000_000
	deep := func(open, close string) string {
		return strings.Repeat(open, depth) + strings.Repeat(close, depth)
	}
	ok := []string{
		`{"qid":"1","x":` + deep("[", "]") + `,"label":1,"score":0.5}`,
		`{"qid":"1","label":1,"x":` + strings.Repeat(`{"a":`, depth/10) + "1" + strings.Repeat("}", depth/10) + `,"score":0.5}`,
		`{"qid":"1","label":1,"score":0.5,"x":` + strings.Repeat(`[{"k":[`, depth/10) + strings.Repeat(`]}]`, depth/10) + `}`,
	}
	for i, line := range ok {
		got, err := readAllOrErr(NewJSONLReader(bg, strings.NewReader(line+"\n"), "deep.jsonl", Options{}))
		if err != nil || len(got) != 1 || got[0].Labels[0] != 1 || got[0].Scores[0] != 0.5 {
			t.Errorf("case %d: %v, %v", i, got, err)
		}
	}
	// Byte positions are 1-based: the value of "x" starts at byte 38.
	bad := []struct{ line, want string }{
		{`{"qid":"1","label":1,"score":0.5,"x":` + strings.Repeat("[", depth) + `}`, "invalid JSON"},
		{`{"qid":"1","label":1,"score":0.5,"x":` + strings.Repeat("[", depth) + strings.Repeat("}", depth) + `}`, "invalid JSON"},
		{`{"qid":"1","label":1,"score":0.5,"x":[1,]}`, "invalid JSON at byte 41"},
		{`{"qid":"1","label":1,"score":0.5,"x":{"a"}}`, "invalid JSON at byte 42"},
		{`{"qid":"1","label":1,"score":0.5,"x":{1:2}}`, "invalid JSON at byte 39"},
		{`{"qid":"1","label":1,"score":0.5,"x":["\x"]}`, "invalid JSON at byte 40"},
		{`{"qid":"1","label":1,"score":0.5,"x":["\u12g4"]}`, "invalid JSON at byte 42"},
		{`{"qid":"1","labels":[[1]],"scores":[1]}`, `in.jsonl:1: field labels[0]: value "[1]],\"scores\":[1]}": not a number`},
	}
	for i, tc := range bad {
		_, err := readAllOrErr(NewJSONLReader(bg, strings.NewReader(tc.line+"\n"), "in.jsonl", Options{}))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "in.jsonl:1: ") {
			t.Errorf("case %d: error %.200v, want one with %q", i, err, tc.want)
		}
	}
}

// Lone UTF-16 surrogate escapes are errors naming the field: encoding/json
// reads each as U+FFFD, which merged "q\udc80" and "q\udc81" into one qid,
// and a high surrogate used to swallow the escape after it.
func TestJSONLSurrogates(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`{"qid":"q\udc80","label":1,"score":1}`, `in.jsonl:1: field qid: value "\\udc80": invalid string: lone UTF-16 surrogate escape at byte 10 (not a character)`},
		{`{"qid":"q\ud800\u0041","label":1,"score":1}`, `in.jsonl:1: field qid: value "\\ud800": invalid string: lone UTF-16 surrogate escape at byte 10 (not a character)`},
		{`{"qid":"q\ud800","label":1,"score":1}`, `in.jsonl:1: field qid: value "\\ud800": invalid string: lone UTF-16 surrogate escape at byte 10 (not a character)`},
		{`{"qid":"q\ud800\ud800","label":1,"score":1}`, `in.jsonl:1: field qid: value "\\ud800": invalid string: lone UTF-16 surrogate escape at byte 10 (not a character)`},
		{`{"qid":"q","doc":"\udfff","label":1,"score":1}`, `in.jsonl:1: field doc: value "\\udfff": invalid string: lone UTF-16 surrogate escape at byte 19 (not a character)`},
		{`{"qid":"q","docs":["a","\udfff"],"labels":[1,2],"scores":[1,2]}`, `in.jsonl:1: field docs: value "\\udfff": invalid string: lone UTF-16 surrogate escape at byte 25 (not a character)`},
		{`{"qid":"q","\ud800":1,"label":1,"score":1}`, `in.jsonl:1: field key: value "\\ud800": invalid string: lone UTF-16 surrogate escape at byte 13 (not a character)`},
	}
	for _, tc := range tests {
		_, err := readAllOrErr(NewJSONLReader(bg, strings.NewReader(tc.in+"\n"), "in.jsonl", Options{}))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

// Every valid string decodes as encoding/json decodes it: ids written with
// json.Marshal, and with every character escaped as \uXXXX (pairs for
// characters beyond the BMP).
func TestJSONLStringsMatchEncodingJSON(t *testing.T) {
	ids := []string{"q1", "é", "😀", "a\"b\\c/d", "\b\f\n\r\t", "\x00\x1f", "<&>", "\u2028\u2029", "\uffff", "𝄞x", "\U0010ffff"}
	for _, id := range ids {
		marshalled, err := json.Marshal(id)
		if err != nil {
			t.Fatal(err)
		}
		var escaped strings.Builder
		escaped.WriteByte('"')
		for _, r := range id {
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&escaped, `\u%04X`, u)
			}
		}
		escaped.WriteByte('"')
		for _, lit := range []string{string(marshalled), escaped.String()} {
			var want string
			if err := json.Unmarshal([]byte(lit), &want); err != nil {
				t.Fatal(err)
			}
			line := `{"qid":` + lit + `,"doc":` + lit + `,"label":1,"score":1}` + "\n"
			got, err := readAllOrErr(NewJSONLReader(bg, strings.NewReader(line), "in.jsonl", Options{KeepDocs: true}))
			if err != nil {
				t.Fatalf("%s: %v", lit, err)
			}
			if got[0].QID != want || got[0].Docs[0] != want {
				t.Errorf("%s: qid %q doc %q, encoding/json reads %q", lit, got[0].QID, got[0].Docs[0], want)
			}
		}
	}
}
