package runio

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// scanAll reads every line of in with a TRECScanner and describes it:
// each data line as "LINE:field|field|...", then the error if any.
func scanAll(in string, qrels bool, mode TRECMode, opts Options) string {
	s := NewTRECScanner(strings.NewReader(in), "f", qrels, mode, &opts)
	var b strings.Builder
	for {
		f, err := s.Next()
		if err == io.EOF {
			return b.String()
		}
		b.WriteString(strings.Repeat(" ", min(b.Len(), 1)))
		if err != nil {
			b.WriteString("error " + err.Error())
			return b.String()
		}
		b.WriteString(string(rune('0' + s.Line())))
		b.WriteString(":" + string(bytes.Join(f, []byte("|"))))
	}
}

// The two rule sets of a TREC line, mode by mode. Expected values are
// worked by hand from the rules in TRECMode's documentation (runio's own
// rules are those of NewTRECReader; trec_eval's those of trec_eval 10.0
// and 9.0.8's get_qrels and get_trec_results).
func TestTRECScannerModes(t *testing.T) {
	const run, qrels = false, true
	for _, c := range []struct {
		name   string
		in     string
		qrels  bool
		strict string
		te10   string
		te908  string
	}{
		{"control byte separates only in runio's rules",
			"1\x01 Q0 a 1 1 r\n", run,
			"1:1|Q0|a|1|1|r", "1:1\x01|Q0|a|1|1|r", "1:1\x01|Q0|a|1|1|r"},
		{"vertical tab and form feed separate in both",
			"1\vQ0\fa 1 1 r\n", run,
			"1:1|Q0|a|1|1|r", "1:1|Q0|a|1|1|r", "1:1|Q0|a|1|1|r"},
		{"CRLF",
			"1 Q0 a 1 1 r\r\n2 0 b 1 2 r\r\n", run,
			"1:1|Q0|a|1|1|r 2:2|0|b|1|2|r", "1:1|Q0|a|1|1|r 2:2|0|b|1|2|r", "1:1|Q0|a|1|1|r 2:2|0|b|1|2|r"},
		{"run comment: 10.0 and runio skip it, even indented",
			"  # note\n1 Q0 a 1 1 r\n", run,
			"2:1|Q0|a|1|1|r",
			"2:1|Q0|a|1|1|r",
			"error f:1: field 3 (docno): missing: a run line is 'qid iter docno rank score runid'"},
		{"run comment with six fields is data in 9.0.8",
			"# a b c d e\n", run,
			"", "", "1:#|a|b|c|d|e"},
		{"qrels comment only in column 1 (10.0)",
			"# judged\n #1 0 a 1\n", qrels,
			"2:#1|0|a|1",
			"2:#1|0|a|1",
			"error f:1: field 3 (docno): missing: a qrels line is 'qid iter docno rel'"},
		{"blank run lines: skipped by all (trec_eval: any C white space)",
			"\n \t\r\n\v\f\n1 Q0 a 1 1 r\n", run,
			`error f:3: line "\v\f": a run line has 6 fields (qid Q0 docno rank score tag), found 0`,
			"4:1|Q0|a|1|1|r", "4:1|Q0|a|1|1|r"},
		{"blank qrels line: skipped by runio, an error in trec_eval",
			"1 0 a 1\n\n2 0 b 0\n", qrels,
			"1:1|0|a|1 3:2|0|b|0",
			"1:1|0|a|1 error f:2: field 1 (qid): missing: a qrels line is 'qid iter docno rel'",
			"1:1|0|a|1 error f:2: field 1 (qid): missing: a qrels line is 'qid iter docno rel'"},
		{"a seventh and eighth run field: ignored by all",
			"1 Q0 a 1 1 r x 42\n", run,
			"1:1|Q0|a|1|1|r", "1:1|Q0|a|1|1|r", "1:1|Q0|a|1|1|r"},
		{"tabs and an extra column, CRLF",
			"x\tQ0\tLA120889-4778\t9\t4.35\tidsRun\textra-col\t42\r\n", run,
			"1:x|Q0|LA120889-4778|9|4.35|idsRun", "1:x|Q0|LA120889-4778|9|4.35|idsRun", "1:x|Q0|LA120889-4778|9|4.35|idsRun"},
		{"a fifth qrels field is an error in both",
			"1 0 a 1 2\n", qrels,
			`error f:1: line "1 0 a 1 2": a qrels line has 4 fields (qid iter docno rel), found 5`,
			"error f:1: field 5: unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)",
			"error f:1: field 5: unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)"},
		{"a run line in the qrels",
			"1 Q0 a 1 1 r\n", qrels,
			`error f:1: line "1 Q0 a 1 1 r": a qrels line has 4 fields (qid iter docno rel), found 6: it looks like a run line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN`,
			"error f:1: field 5: unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)",
			"error f:1: field 5: unexpected: a qrels line has exactly 4 fields (use -R qrels with the 4-column format)"},
		{"a short run line",
			"1 Q0 a 1 1\n", run,
			`error f:1: line "1 Q0 a 1 1": a run line has 6 fields (qid Q0 docno rank score tag), found 5`,
			"error f:1: field 6 (run id): missing: a run line is 'qid iter docno rank score runid'",
			"error f:1: field 6 (run id): missing: a run line is 'qid iter docno rank score runid'"},
		{"NUL: a separator in runio, an error in trec_eval (even in a comment)",
			"1 Q0 a\x00b 1 r\n", run,
			"1:1|Q0|a|b|1|r",
			"error f:1: field line: NUL byte (trec_eval cannot read it)",
			"error f:1: field line: NUL byte (trec_eval cannot read it)"},
		{"NUL in a 10.0 comment",
			"# \x00\n", qrels,
			`error f:1: line "# \x00": a qrels line has 4 fields (qid iter docno rel), found 1`,
			"error f:1: field line: NUL byte (trec_eval cannot read it)",
			"error f:1: field line: NUL byte (trec_eval cannot read it)"},
	} {
		for _, m := range []struct {
			mode TRECMode
			want string
		}{{TRECStrict, c.strict}, {TRECEval10, c.te10}, {TRECEval908, c.te908}} {
			if got := scanAll(c.in, c.qrels, m.mode, Options{}); got != m.want {
				t.Errorf("%s, mode %d:\n got %q\nwant %q", c.name, m.mode, got, m.want)
			}
		}
	}
}

// The line limit: runio counts a line without its "\n" or "\r\n" and
// names --max-line-bytes; trec_eval's modes count the terminator too (as
// the trec_eval front end always has) and name the line field.
func TestTRECScannerLineLimit(t *testing.T) {
	nine, ten := "1 0 aa 11", "1 0 aaa 11" // 9 and 10 bytes
	strictErr := "error f:1: line longer than 10 bytes (--max-line-bytes raises the limit)"
	teErr := "error f:1: field line: longer than 10 bytes"
	for _, c := range []struct{ in, strict, te string }{
		{nine + "\n", "1:1|0|aa|11", "1:1|0|aa|11"},
		{ten + "\n", "1:1|0|aaa|11", teErr},
		{nine + "\r\n", "1:1|0|aa|11", teErr},
		{ten + "\r\n", "1:1|0|aaa|11", teErr},
		{ten, "1:1|0|aaa|11", "1:1|0|aaa|11"}, // no terminator at the end
		{ten + "1\n", strictErr, teErr},
	} {
		opts := Options{MaxLineBytes: 10, BufferSize: 64}
		if got := scanAll(c.in, true, TRECStrict, opts); got != c.strict {
			t.Errorf("%q runio: got %q, want %q", c.in, got, c.strict)
		}
		if got := scanAll(c.in, true, TRECEval10, opts); got != c.te {
			t.Errorf("%q trec_eval: got %q, want %q", c.in, got, c.te)
		}
	}
	// A line longer than the buffer goes through longLine: the same limits.
	long := "1 0 " + strings.Repeat("d", 100) + " 1" // 106 bytes
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{long + "\n", 107, "1:1|0|" + strings.Repeat("d", 100) + "|1"},
		{long + "\n", 106, "error f:1: field line: longer than 106 bytes"},
		{long + "\r\n", 107, "error f:1: field line: longer than 107 bytes"},
		{long, 106, "1:1|0|" + strings.Repeat("d", 100) + "|1"},
	} {
		opts := Options{MaxLineBytes: c.max, BufferSize: 64}
		if got := scanAll(c.in, true, TRECEval908, opts); got != c.want {
			t.Errorf("%q max %d: got %q, want %q", c.in[:10], c.max, got, c.want)
		}
	}
}

// Span gives each line's byte range, terminator included; Unread
// returns the same line again; ResetBytes reads a block in place.
func TestTRECScannerSpanUnread(t *testing.T) {
	in := "1 Q0 a 1 1 r\r\n\n# c\n2 Q0 b 1 1 r"
	s := NewTRECScanner(strings.NewReader(in), "f", false, TRECEval10, &Options{})
	type got struct {
		qid        string
		line       int64
		start, end int64
	}
	var gs []got
	for {
		f, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		st, en := s.Span()
		gs = append(gs, got{string(f[0]), s.Line(), st, en})
		if len(gs) == 2 {
			s.Unread()
			f, _ := s.Next()
			st2, en2 := s.Span()
			if string(f[0]) != "2" || s.Line() != 4 || st2 != st || en2 != en {
				t.Errorf("after Unread: %q line %d [%d,%d)", f[0], s.Line(), st2, en2)
			}
		}
	}
	want := []got{{"1", 1, 0, 14}, {"2", 4, 19, 31}}
	if len(gs) != 2 || gs[0] != want[0] || gs[1] != want[1] {
		t.Errorf("got %+v, want %+v", gs, want)
	}
	if _, err := s.Next(); err != io.EOF {
		t.Errorf("after the end: %v", err)
	}
	s.ResetBytes([]byte(in[19:]), 4)
	f, err := s.Next()
	if err != nil || string(f[2]) != "b" || s.Line() != 4 {
		t.Errorf("ResetBytes: %q %v line %d", f, err, s.Line())
	}
	s.Reset(strings.NewReader("3 Q0 c 1 1 r\n"), 7)
	if f, err := s.Next(); err != nil || string(f[0]) != "3" || s.Line() != 7 {
		t.Errorf("Reset: %q %v line %d", f, err, s.Line())
	}
}

// scanEvents lists what a scanner yields: each line's number, byte range
// and fields, then the error.
func scanEvents(s *TRECScanner) []string {
	var ev []string
	for {
		f, err := s.Next()
		if err == io.EOF {
			return ev
		}
		if err != nil {
			return append(ev, err.Error())
		}
		st, en := s.Span()
		ev = append(ev, fmt.Sprintf("%d [%d,%d) %q", s.Line(), st, en, f))
	}
}

// FuzzTRECScanner checks, in every mode, that a line's fields are
// separator-free, in its byte range and as many as the mode wants, and
// that the scanner reads the same from a reader with a tiny buffer (long
// lines), from memory, and after Reset.
func FuzzTRECScanner(f *testing.F) {
	for _, s := range []string{
		"1 Q0 a 1 1.5 r\n1 Q0 b 2 1.5 r\r\n2 Q0 a 1 nan r",
		"# c\n\n  1 Q0 a 1 1 r extra\n\v\f\n",
		"1 0 a 1\n1 0 b 0\n# x\n 2 0 a -2\n",
		"1\x01 0 a\x00 1\n",
		"1 0 " + strings.Repeat("d", 70) + " 1\r\n1 0 e 1\n",
	} {
		f.Add([]byte(s), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, m uint8, qrels bool) {
		mode := TRECMode(m % 3)
		opts := Options{MaxLineBytes: 40, BufferSize: 16}
		s := NewTRECScanner(bytes.NewReader(data), "f", qrels, mode, &opts)
		ev := scanEvents(s)
		sep := ctlSpace
		if mode != TRECStrict {
			sep = cSpace
		}
		for _, e := range ev {
			if strings.HasPrefix(e, "f:") {
				continue
			}
			var line, st, en int64
			var q string
			if _, err := fmt.Sscanf(e, "%d [%d,%d) %s", &line, &st, &en, &q); err != nil || st < 0 || en <= st || en > int64(len(data)) {
				t.Fatalf("event %s: %v", e, err)
			}
		}
		// Fields: counts and separators, checked on a fresh pass.
		s = NewTRECScanner(bytes.NewReader(data), "f", qrels, mode, &opts)
		for {
			fs, err := s.Next()
			if err != nil {
				break
			}
			want := map[bool]int{false: 6, true: 4}[qrels]
			if len(fs) != want {
				t.Fatalf("%d fields, want %d", len(fs), want)
			}
			st, en := s.Span()
			for _, x := range fs {
				if len(x) == 0 || !bytes.Contains(data[st:en], x) {
					t.Fatalf("field %q not in line %q", x, data[st:en])
				}
				for _, c := range x {
					if c <= ' ' && sep>>c&1 != 0 {
						t.Fatalf("field %q holds separator %q", x, c)
					}
				}
			}
		}
		mem := scanEvents(NewTRECBytesScanner(data, "f", qrels, mode, &opts))
		if strings.Join(mem, "\n") != strings.Join(ev, "\n") {
			t.Fatalf("reader:\n%s\nmemory:\n%s", strings.Join(ev, "\n"), strings.Join(mem, "\n"))
		}
		s.Reset(bytes.NewReader(data), 1)
		if again := scanEvents(s); strings.Join(again, "\n") != strings.Join(ev, "\n") {
			t.Fatalf("after Reset:\n%s\nfirst:\n%s", strings.Join(again, "\n"), strings.Join(ev, "\n"))
		}
	})
}

// TestTRECScannerManyFields: a run line of a million fields is read (the
// fields past the sixth are ignored, as trec_eval ignores them), a qrels
// line of a million fields is refused with the true count, and the scanner
// keeps at most want+1 of them (a hostile line must not grow the field
// slice to its own size).
func TestTRECScannerManyFields(t *testing.T) {
	const n = 1_000_000
	line := strings.Repeat("x ", n) + "\n"
	s := NewTRECBytesScanner([]byte(line), "run.txt", false, TRECStrict, &Options{})
	if f, err := s.Next(); err != nil || len(f) != 6 {
		t.Fatalf("run line: %d fields, err = %v, want 6 fields", len(f), err)
	}
	if c := cap(s.fields); c > 64 {
		t.Errorf("the scanner kept room for %d fields, want at most a handful", c)
	}
	s = NewTRECBytesScanner([]byte(line), "qrels.txt", true, TRECStrict, &Options{})
	_, err := s.Next()
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("found %d", n)) {
		t.Fatalf("err = %v, want a count of %d fields", err, n)
	}
	if c := cap(s.fields); c > 64 {
		t.Errorf("the scanner kept room for %d fields, want at most a handful", c)
	}
}

// TestTRECNoComments: with Options.TRECNoComments, '#' lines are data,
// as trec_eval 9.0.8 reads them (eval --compat 9.0.8).
func TestTRECNoComments(t *testing.T) {
	for _, c := range []struct {
		in    string
		qrels bool
		want  string
	}{
		{"# Q0 a 1 1 r\n1 Q0 b 1 1 r\n", false, "1:#|Q0|a|1|1|r 2:1|Q0|b|1|1|r"},
		{"#1 0 a 1\n", true, "1:#1|0|a|1"},
		{"# judged\n", true, `error f:1: line "# judged": a qrels line has 4 fields (qid iter docno rel), found 2`},
	} {
		if got := scanAll(c.in, c.qrels, TRECStrict, Options{TRECNoComments: true}); got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}
