package ltrdata

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzRead checks that Read never panics, that it either succeeds or returns
// a *ParseError, and that whatever it accepts survives a Write/Read round trip.
func FuzzRead(f *testing.F) {
	sample, err := os.ReadFile(filepath.Join("testdata", "sample.letor"))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		string(sample),
		"",
		"\n\n# only a comment\n",
		"1 qid:1 1:0.5 2:1\n0 qid:1 2:3 # c\n2 qid:2\n",
		"0 qid:a 3:1 1:2\n",
		"1 qid:1 1:2 1:3\n",
		"1 qid:1\n0 qid:2\n1 qid:1\n",
		"0x1p-2 qid:q +1:1e-300 2:-0\r\n",
		"1 qid:1 99999999999:1\n",
		"nan qid:1\n",
		"1 qid:\u00a0x 1:1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := Read(bytes.NewReader(in), WithMaxFeatures(512))
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("Read accepted data that does not validate: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, d); err != nil {
			t.Fatalf("Write: %v", err)
		}
		back, err := Read(&buf, WithMaxFeatures(512))
		if err != nil {
			t.Fatalf("re-reading written data: %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(back, d) {
			t.Fatalf("round trip changed the data:\n got %+v\nwant %+v", back, d)
		}
	})
}
