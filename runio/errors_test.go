package runio

import (
	"errors"
	"strings"
	"testing"
)

// Every malformed input must fail with an error naming the file, the line,
// the field and the value. The texts are exact.

func firstError(r Reader, err error) error {
	if err != nil {
		return err
	}
	_, err = readAll(r)
	return err
}

func TestDelimitedErrors(t *testing.T) {
	tests := []struct {
		name  string
		delim byte
		opts  Options
		in    string
		want  string
	}{
		{"empty", '\t', Options{}, "", `in.tsv: empty input: no header line`},
		{"missing column", '\t', Options{}, "qid\tlabel\n", `in.tsv:1: field header: value "qid\tlabel": no column named "score" (the first line must be a header naming the columns; for a file without one, give them in order with --columns, as in --columns qid,doc,label,score)`},
		{"missing explicit weight", '\t', Options{Columns: Columns{Weight: "w"}}, "qid\tlabel\tscore\n", `in.tsv:1: field header: value "qid\tlabel\tscore": no column named "w" (the first line must be a header naming the columns; for a file without one, give them in order with --columns, as in --columns qid,doc,label,score)`},
		{"duplicate column", '\t', Options{}, "qid\tlabel\tscore\tqid\n", `in.tsv:1: field header: value "qid": column appears twice`},
		{"bad score", '\t', Options{}, "qid\tlabel\tscore\n1\t1\t0.5\n1\t0\tx1\n", `in.tsv:3: field score: value "x1": not a number`},
		{"bad label", '\t', Options{}, "qid\tlabel\tscore\n\n1\tyes\t0.5\n", `in.tsv:3: field label: value "yes": not a number`},
		{"nan score", '\t', Options{}, "qid\tlabel\tscore\n1\t1\tNaN\n", `in.tsv:2: field score: value "NaN": NaN score`},
		{"nan weight", '\t', Options{}, "qid\tlabel\tscore\tweight\n1\t1\t1\tnan\n", `in.tsv:2: field weight: value "nan": NaN weight`},
		{"bad weight", '\t', Options{}, "qid\tlabel\tscore\tweight\n1\t1\t1\t\n", `in.tsv:2: field weight: value "": not a number`},
		{"too few fields", '\t', Options{}, "qid\tlabel\tscore\n1\t1\n", `in.tsv:2: line "1\t1": expected 3 fields as in the header, found 2`},
		{"too many fields", ',', Options{}, "qid,label,score\n1,1,2,3\n", `in.tsv:2: line "1,1,2,3": expected 3 fields as in the header, found 4`},
		{"empty qid", '\t', Options{}, "qid\tlabel\tscore\n\t1\t2\n", `in.tsv:2: field qid: value "": empty qid`},
		{"empty doc", '\t', Options{}, "qid\tdoc\tlabel\tscore\n1\t\t1\t2\n", `in.tsv:2: field doc: value "": empty document id`},
		{"unsorted", '\t', Options{}, "qid\tlabel\tscore\n2\t1\t1\n10\t1\t1\n3\t1\t1\n", `in.tsv:4: field qid: value "3": input is not sorted by qid: it comes after "10" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{"duplicate doc", '\t', Options{}, "qid\tdoc\tlabel\tscore\nq\ta\t1\t1\nq\tb\t1\t1\nq\ta\t0\t2\n", `in.tsv:4: field doc: value "a": duplicate document for qid "q" (first at line 2; --dedupe first or --dedupe max keeps one)`},
		{"duplicate doc grouped", '\t', Options{Unsorted: UnsortedGroup}, "qid\tdoc\tlabel\tscore\nq\ta\t1\t1\nr\tb\t1\t1\nq\ta\t0\t2\n", `in.tsv:4: field doc: value "a": duplicate document for qid "q" (first at line 2; --dedupe first or --dedupe max keeps one)`},
		{"unterminated quote", ',', Options{}, "qid,label,score\n\"q,1,2\n", `in.tsv:2: line "\"q,1,2": unterminated quoted field (quoted fields cannot span lines)`},
		{"text after quote", ',', Options{}, "qid,label,score\n\"q\"x,1,2\n", `in.tsv:2: line "\"q\"x,1,2": unexpected 'x' after a closing quote`},
		{"quote in bare field", ',', Options{}, "qid,label,score\nq\"x,1,2\n", `in.tsv:2: line "q\"x,1,2": a quote inside an unquoted field`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := firstError(NewDelimitedReader(bg, strings.NewReader(tc.in), "in.tsv", tc.delim, tc.opts))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %T is not a *ParseError", err)
			}
		})
	}
}

func TestTRECErrors(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		qrels string
		run   string
		want  string
	}{
		{"run fields", Options{}, "1 0 a 1\n", "1 Q0 a 1 0.5\n", `run.txt:1: line "1 Q0 a 1 0.5": a run line has 6 fields (qid Q0 docno rank score tag), found 5`},
		{"qrels fields", Options{}, "1 0 a 1\n1 0 b\n", "1 Q0 a 1 0.5 t\n", `qrels.txt:2: line "1 0 b": a qrels line has 4 fields (qid iter docno rel), found 3`},
		{"run line in qrels", Options{}, "1 Q0 a 1 0.5 t\n", "1 Q0 a 1 0.5 t\n", `qrels.txt:1: line "1 Q0 a 1 0.5 t": a qrels line has 4 fields (qid iter docno rel), found 6: it looks like a run line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN`},
		{"qrels line in run", Options{}, "1 0 a 1\n", "1 0 a 1\n", `run.txt:1: line "1 0 a 1": a run line has 6 fields (qid Q0 docno rank score tag), found 4: it looks like a qrels line; did you swap QRELS and RUN? trec_eval's order is QRELS RUN`},
		{"qrels indented '#' (data in 10.0 too)", Options{}, "  # judged\n1 0 a 1\n", "1 Q0 a 1 0.5 t\n", `qrels.txt:1: line "  # judged": a qrels line has 4 fields (qid iter docno rel), found 2`},
		{"run score", Options{}, "1 0 a 1\n", "1 Q0 a 1 0.5 t\n1 Q0 b 2 0,4 t\n", `run.txt:2: field score: value "0,4": not a number`},
		{"run nan", Options{}, "1 0 a 1\n", "1 Q0 a 1 nan t\n", `run.txt:1: field score: value "nan": NaN score`},
		{"qrels rel", Options{}, "1 0 a one\n", "1 Q0 a 1 1 t\n", `qrels.txt:1: field rel: value "one": not a number`},
		{"run unsorted", Options{}, "1 0 a 1\n", "b Q0 a 1 1 t\na Q0 a 1 1 t\n", `run.txt:2: field qid: value "a": input is not sorted by qid: it comes after "b" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{"qrels unsorted", Options{}, "2 0 a 1\n1 0 a 1\n", "1 Q0 a 1 1 t\n", `qrels.txt:2: field qid: value "1": input is not sorted by qid: it comes after "2" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{"run duplicate", Options{}, "1 0 a 1\n", "1 Q0 a 1 1 t\n1 Q0 b 2 1 t\n1 Q0 a 3 0 t\n", `run.txt:3: field docno: value "a": duplicate document for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
		{"qrels duplicate", Options{}, "1 0 a 1\n1 0 a 0\n", "1 Q0 a 1 1 t\n", `qrels.txt:2: field docno: value "a": duplicate judgment for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
		{"run duplicate grouped", Options{Unsorted: UnsortedGroup}, "1 0 a 1\n", "1 Q0 a 1 1 t\n2 Q0 b 2 1 t\n1 Q0 a 3 0 t\n", `run.txt:3: field docno: value "a": duplicate document for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := firstError(NewTRECReader(bg, strings.NewReader(tc.qrels), strings.NewReader(tc.run), "qrels.txt", "run.txt", tc.opts))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}

func TestJSONLErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		in   string
		want string
	}{
		{"not an object", Options{}, "[1,2]\n", `in.jsonl:1: line "[1,2]": expected a JSON object`},
		{"syntax", Options{}, `{"qid":"1","label":1,"score":0.5` + "\n", `in.jsonl:1: line "{\"qid\":\"1\",\"label\":1,\"score\":0.5": invalid JSON at byte 33`},
		{"trailing garbage", Options{}, `{"qid":"1","label":1,"score":0.5} x` + "\n", `in.jsonl:1: line "{\"qid\":\"1\",\"label\":1,\"score\":0.5} x": invalid JSON at byte 35`},
		{"missing qid", Options{}, `{"label":1,"score":0.5}` + "\n", `in.jsonl:1: field qid: missing qid`},
		{"missing score", Options{}, `{"qid":"1","label":1}` + "\n", `in.jsonl:1: field score: missing score`},
		{"bad score", Options{}, `{"qid":"1","label":1,"score":"0.5"}` + "\n", `in.jsonl:1: field score: value "\"0.5\"}": not a number`},
		{"bad number grammar", Options{}, `{"qid":"1","label":01,"score":1}` + "\n", `in.jsonl:1: field label: value "01": not a number`},
		{"nan score", Options{}, `{"qid":"1","label":1,"score":NaN}` + "\n", `in.jsonl:1: field score: value "NaN": NaN score`},
		{"nan in list", Options{}, `{"qid":"1","labels":[1,0],"scores":[1,NaN]}` + "\n", `in.jsonl:1: field scores[1]: value "NaN": NaN score`},
		{"bad list element", Options{}, `{"qid":"1","labels":[1,"x"],"scores":[1,2]}` + "\n", `in.jsonl:1: field labels[1]: value "\"x\"],\"scores\":[1,2]}": not a number`},
		{"length mismatch", Options{}, `{"qid":"1","labels":[1,0],"scores":[1]}` + "\n", `in.jsonl:1: field scores: 1 scores for 2 labels`},
		{"empty list", Options{}, `{"qid":"1","labels":[],"scores":[]}` + "\n", `in.jsonl:1: field labels: value "[]": empty list`},
		{"mixed forms", Options{}, `{"qid":"1","label":1,"scores":[1]}` + "\n", `in.jsonl:1: line "{\"qid\":\"1\",\"label\":1,\"scores\":[1]}": mixes item keys (label, score) and list keys (labels, scores)`},
		{"duplicate key", Options{}, `{"qid":"1","qid":"2","label":1,"score":1}` + "\n", `in.jsonl:1: field qid: key appears twice`},
		{"weight appears later", Options{}, `{"qid":"1","label":1,"score":1}` + "\n" + `{"qid":"1","label":1,"score":1,"weight":2}` + "\n", `in.jsonl:2: field weight: weight given but the first line has none`},
		{"weight disappears", Options{}, `{"qid":"1","label":1,"score":1,"weight":2}` + "\n" + `{"qid":"1","label":1,"score":1}` + "\n", `in.jsonl:2: field weight: missing weight (the first line has one)`},
		{"required weight", Options{Columns: Columns{Weight: "w"}}, `{"qid":"1","label":1,"score":1}` + "\n", `in.jsonl:1: field w: missing weight`},
		{"unsorted", Options{}, `{"qid":"b","label":1,"score":1}` + "\n" + `{"qid":"a","label":1,"score":1}` + "\n", `in.jsonl:2: field qid: value "a": input is not sorted by qid: it comes after "b" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{"duplicate doc in list", Options{}, `{"qid":"1","docs":["a","a"],"labels":[1,0],"scores":[1,2]}` + "\n", `in.jsonl:1: field doc: value "a": duplicate document for qid "1" (first at line 1; --dedupe first or --dedupe max keeps one)`},
		{"bad escape", Options{}, `{"qid":"a\x","label":1,"score":1}` + "\n", `in.jsonl:1: line "{\"qid\":\"a\\x\",\"label\":1,\"score\":1}": invalid JSON at byte 12`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := firstError(NewJSONLReader(bg, strings.NewReader(tc.in), "in.jsonl", tc.opts))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}
