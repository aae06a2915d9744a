package beamio

import (
	"bytes"
	"fmt"
	"math"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/internal/runio"
)

// Columns names the columns to read from TSV, CSV and Parquet input, as the
// column flags of `rankmetrics eval`: the same type as eval's reader uses.
// Empty names take the defaults of DefaultColumns. The weight and doc
// columns are optional when left at their defaults (read if present) and
// required when named explicitly.
type Columns = runio.Columns

// DefaultColumns are qid, label, score, weight and doc.
var DefaultColumns = runio.DefaultColumns

// clip shortens a value quoted in a reason.
func clip(b []byte) string {
	const n = 80
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

func fieldReason(field string, v []byte, msg string) string {
	return fmt.Sprintf("field %s: value %q: %s", field, clip(v), msg)
}

// splitter cuts a delimited line into fields.
type splitter struct {
	delim  byte
	quoted bool // CSV: RFC 4180 quoting within one line
	fields [][]byte
	unq    []byte
}

// split returns the fields of b, valid until the next call, or a reason.
func (s *splitter) split(b []byte) ([][]byte, string) {
	s.fields = s.fields[:0]
	if s.quoted && bytes.IndexByte(b, '"') >= 0 {
		return s.splitQuoted(b)
	}
	for {
		i := bytes.IndexByte(b, s.delim)
		if i < 0 {
			s.fields = append(s.fields, b)
			return s.fields, ""
		}
		s.fields = append(s.fields, b[:i])
		b = b[i+1:]
	}
}

// splitQuoted splits a line with quoted fields: a field that starts with a
// quote runs to the matching quote, "" standing for one quote.
func (s *splitter) splitQuoted(b []byte) ([][]byte, string) {
	s.unq = s.unq[:0]
	var ends []int // end of each field in s.unq
	i := 0
	for {
		if i < len(b) && b[i] == '"' {
			i++
			for {
				j := bytes.IndexByte(b[i:], '"')
				if j < 0 {
					return nil, "unterminated quoted field (a quoted field cannot span lines)"
				}
				s.unq = append(s.unq, b[i:i+j]...)
				i += j + 1
				if i < len(b) && b[i] == '"' {
					s.unq = append(s.unq, '"')
					i++
					continue
				}
				break
			}
			ends = append(ends, len(s.unq))
			if i == len(b) {
				break
			}
			if b[i] != s.delim {
				return nil, fmt.Sprintf("unexpected %q after a closing quote", b[i])
			}
			i++
			if i == len(b) {
				ends = append(ends, len(s.unq))
				break
			}
			continue
		}
		end := len(b)
		if j := bytes.IndexByte(b[i:], s.delim); j >= 0 {
			end = i + j
		}
		if bytes.IndexByte(b[i:end], '"') >= 0 {
			return nil, "a quote inside an unquoted field"
		}
		s.unq = append(s.unq, b[i:end]...)
		ends = append(ends, len(s.unq))
		if end == len(b) {
			break
		}
		i = end + 1
		if i == len(b) {
			ends = append(ends, len(s.unq))
			break
		}
	}
	start := 0
	for _, e := range ends {
		s.fields = append(s.fields, s.unq[start:e])
		start = e
	}
	return s.fields, ""
}

// header holds the column positions of a delimited file.
type header struct {
	cols                          Columns
	ncols                         int
	iQID, iLabel, iScore, iW, iDo int
}

// parseHeader finds the columns in a header line.
func parseHeader(line []byte, sp *splitter, cols Columns) (header, string) {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	fields, reason := sp.split(line)
	if reason != "" {
		return header{}, "header: " + reason
	}
	c, wReq, dReq := cols.WithDefaults()
	h := header{cols: c, ncols: len(fields)}
	find := func(want string, required bool) (int, string) {
		at := -1
		for i, f := range fields {
			if string(f) == want {
				if at >= 0 {
					return -1, fmt.Sprintf("header: column %q appears twice", want)
				}
				at = i
			}
		}
		if at < 0 && required {
			return -1, fmt.Sprintf("header: no column named %q", want)
		}
		return at, ""
	}
	var r string
	if h.iQID, r = find(c.QID, true); r != "" {
		return h, r
	}
	if h.iLabel, r = find(c.Label, true); r != "" {
		return h, r
	}
	if h.iScore, r = find(c.Score, true); r != "" {
		return h, r
	}
	if h.iW, r = find(c.Weight, wReq); r != "" {
		return h, r
	}
	if h.iDo, r = find(c.Doc, dReq); r != "" {
		return h, r
	}
	return h, ""
}

// parseDelimited parses one data line of a delimited file into r, or
// returns the reason it cannot.
func parseDelimited(line []byte, sp *splitter, h *header, r *rm.Row) string {
	f, reason := sp.split(line)
	if reason != "" {
		return reason
	}
	if len(f) != h.ncols {
		return fmt.Sprintf("expected %d fields as in the header, found %d", h.ncols, len(f))
	}
	if len(f[h.iQID]) == 0 {
		return fieldReason(h.cols.QID, nil, "empty qid")
	}
	var msg string
	if r.Label, msg = runio.ParseLabel(f[h.iLabel]); msg != "" {
		return fieldReason(h.cols.Label, f[h.iLabel], msg)
	}
	if r.Score, msg = runio.ParseScore(f[h.iScore]); msg != "" {
		return fieldReason(h.cols.Score, f[h.iScore], msg)
	}
	r.HasWeight, r.Weight = false, 0
	if h.iW >= 0 {
		var ok bool
		if r.Weight, ok = runio.ParseNumber(f[h.iW]); !ok {
			return fieldReason(h.cols.Weight, f[h.iW], "not a number")
		}
		if math.IsNaN(r.Weight) || math.IsInf(r.Weight, 0) {
			return fieldReason(h.cols.Weight, f[h.iW], "a weight must be finite")
		}
		r.HasWeight = true
	}
	r.Doc = ""
	if h.iDo >= 0 {
		if len(f[h.iDo]) == 0 {
			return fieldReason(h.cols.Doc, nil, "empty document id")
		}
		r.Doc = string(f[h.iDo])
	}
	r.QID = string(f[h.iQID])
	return ""
}

// delimitedQID returns the qid field of a line that could not be parsed,
// or "" when it cannot be told; cut says the line was cut at the length
// limit, so that its last field may be incomplete.
func delimitedQID(line []byte, sp *splitter, h *header, cut bool) string {
	f, reason := sp.split(line)
	if reason != "" || len(f) <= h.iQID || cut && len(f) == h.iQID+1 {
		return ""
	}
	return string(f[h.iQID])
}

// trecQID returns the first field of a TREC line that could not be
// parsed, or "" when it cannot be told (see delimitedQID).
func trecQID(line []byte, cut bool) string {
	f := whitespaceFields(line, nil)
	if len(f) == 0 || cut && len(f) == 1 {
		return ""
	}
	return string(f[0])
}

// whitespaceFields cuts b at runs of spaces and tabs.
func whitespaceFields(b []byte, out [][]byte) [][]byte {
	out = out[:0]
	i, n := 0, len(b)
	for {
		for i < n && (b[i] == ' ' || b[i] == '\t') {
			i++
		}
		if i == n {
			return out
		}
		j := i
		for j < n && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		out = append(out, b[i:j])
		i = j
	}
}

// parseRun parses a TREC run line "qid Q0 docno rank score tag".
func parseRun(line []byte, fields *[][]byte, r *rm.Row) string {
	f := whitespaceFields(line, *fields)
	*fields = f
	if len(f) != 6 {
		return fmt.Sprintf("a run line has 6 fields (qid Q0 docno rank score tag), found %d", len(f))
	}
	s, msg := runio.ParseScore(f[4])
	if msg != "" {
		return fieldReason("score", f[4], msg)
	}
	*r = rm.Row{QID: string(f[0]), Doc: string(f[2]), Score: s}
	return ""
}

// parseQrels parses a TREC qrels line "qid iter docno rel".
func parseQrels(line []byte, fields *[][]byte, j *rm.Judgment) string {
	f := whitespaceFields(line, *fields)
	*fields = f
	if len(f) != 4 {
		return fmt.Sprintf("a qrels line has 4 fields (qid iter docno rel), found %d", len(f))
	}
	l, msg := runio.ParseRel(f[3])
	if msg != "" {
		return fieldReason("rel", f[3], msg)
	}
	*j = rm.Judgment{QID: string(f[0]), Doc: string(f[2]), Label: l}
	return ""
}
