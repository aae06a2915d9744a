package runio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Data compressed with bzip2, xz or zstd is an error naming the file, the
// format and the command that decompresses it, whatever the file's name,
// in every format and on standard input; text that merely starts like a
// bzip2 header is read as text.
func TestOtherCompressions(t *testing.T) {
	// The first bytes of each format, as their specifications give them:
	// bzip2's "BZh", a block size digit and the block magic (pi's digits);
	// xz's stream header magic; a zstd frame's magic number, little-endian.
	heads := map[string][]byte{
		"bzip2": append([]byte("BZh9\x31\x41\x59\x26\x53\x59"), make([]byte, 40)...),
		"xz":    append([]byte{0xfd, '7', 'z', 'X', 'Z', 0x00, 0x00, 0x04}, make([]byte, 40)...),
		"zstd":  append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10}, make([]byte, 40)...),
	}
	dir := t.TempDir()
	for format, head := range heads {
		for _, tc := range []struct {
			name, want string
			opts       Options
		}{
			{"run.tsv.gz", "-dc DIR/run.tsv.gz > DIR/run.tsv, or pipe it: " + format + " -dc DIR/run.tsv.gz | rankmetrics ... --input-format tsv -", Options{}},
			{"run.tsv", "-dc DIR/run.tsv > DIR/run.tsv.plain, or pipe it: " + format + " -dc DIR/run.tsv | rankmetrics ... --input-format tsv -", Options{}},
			{"run.jsonl.gz", "--input-format jsonl -", Options{}},
			{"run.parquet.gz", "--input-format parquet -", Options{}},
			{"run.rkm1", "--input-format rkm1 -", Options{}},
			{"-", format + " -dc FILE | rankmetrics ... -", Options{Format: FormatRKM1}},
			{"-", format + " -dc FILE | rankmetrics ... -", Options{Format: FormatCSV}},
		} {
			path := filepath.Join(dir, tc.name)
			if tc.name == "-" {
				path = "-"
				tc.opts.Stdin = bytes.NewReader(head)
			} else if err := os.WriteFile(path, head, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readAllOrErr(Open(bg, []string{path}, tc.opts))
			name := strings.ReplaceAll(path, dir, "DIR")
			if name == "-" {
				name = "standard input"
			}
			msg := strings.ReplaceAll(errString(err), dir, "DIR")
			if !errors.Is(err, ErrCompressed) || !strings.HasPrefix(msg, name+": "+format+"-compressed data") || !strings.Contains(msg, tc.want) {
				t.Errorf("%s holding %s: error %q; want %s: %s-compressed data ... %s", tc.name, format, msg, name, format, tc.want)
			}
		}
	}
	// A qrels of a TREC pair is told to be decompressed to a file.
	q := filepath.Join(dir, "q.qrels.gz")
	os.WriteFile(q, heads["xz"], 0o644)
	r := filepath.Join(dir, "r.run")
	os.WriteFile(r, []byte("1 Q0 d1 1 0.5 x\n"), 0o644)
	_, err := readAllOrErr(Open(bg, []string{q, r}, Options{}))
	if want := q + ": xz-compressed data, which rankmetrics does not read (it reads gzip); decompress it first: xz -dc " + q + " > " + strings.TrimSuffix(q, ".gz"); errString(err) != want {
		t.Errorf("TREC qrels: %v, want %s", err, want)
	}
	// A TSV whose first qid is "BZh9" is text.
	p := filepath.Join(dir, "bzh.tsv")
	os.WriteFile(p, []byte("BZh9\tlabel\tscore\nq\t1\t0.5\n"), 0o644)
	got, err := readAllOrErr(Open(bg, []string{p}, Options{Columns: Columns{QID: "BZh9"}}))
	if err != nil || len(got) != 1 {
		t.Errorf("TSV with a BZh9 column: %d queries, %v", len(got), err)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
