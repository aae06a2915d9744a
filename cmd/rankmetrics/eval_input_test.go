package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// childEnv makes the test binary run the CLI (see TestCLIChild).
const childEnv = "RANKMETRICS_TEST_CLI_ARGS"

// TestCLIChild runs main with the arguments in childEnv when the test
// binary is started by runUnderMemoryLimit; otherwise it does nothing.
func TestCLIChild(t *testing.T) {
	args := os.Getenv(childEnv)
	if args == "" {
		return
	}
	os.Args = append([]string{"rankmetrics"}, strings.Split(args, "\x1f")...)
	main()
	os.Exit(0)
}

// runUnderMemoryLimit runs the CLI in a child process whose address space
// is capped with ulimit -v, and returns its exit status and stderr.
func runUnderMemoryLimit(t *testing.T, limitMiB int, args ...string) (int, string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v in a child process is tested on Linux only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" -test.run='^TestCLIChild$'`, limitMiB*1024), exe)
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\x1f"), "GOMAXPROCS=2")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

// gzipBomb writes a gzip file of head followed by n copies of a chunk of
// chunkSize bytes c, as concatenated gzip members (one stream to readers):
// the chunk is compressed once, so a GiB costs the test a few milliseconds.
func gzipBomb(t *testing.T, path string, head []byte, c byte, chunkSize, n int) {
	t.Helper()
	member := func(data []byte) []byte {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		return b.Bytes()
	}
	chunk := member(bytes.Repeat([]byte{c}, chunkSize))
	out := member(head)
	for range n {
		out = append(out, chunk...)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Decompression bombs end in an error that names the file and the flag,
// within a 4 GiB address space: a 5 GiB line (the default 64 MiB line
// limit), and a gzipped RKM1 file inflating to 5 GB (read whole, bounded by
// --max-input-bytes). Without the limits both died with "fatal error: out
// of memory".
func TestDecompressionBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses up to 256 MiB in a child process")
	}
	dir := t.TempDir()
	line := filepath.Join(dir, "line.tsv.gz")
	gzipBomb(t, line, []byte("qid\tlabel\tscore\n1\t1\t0.5\n"), 'x', 4<<20, 1280)
	var hdr bytes.Buffer
	hdr.WriteString("RKM1")
	binary.Write(&hdr, binary.LittleEndian, uint32(1000))
	binary.Write(&hdr, binary.LittleEndian, uint32(1_000_000))
	rkm := filepath.Join(dir, "bomb.rkm1")
	gzipBomb(t, rkm, hdr.Bytes(), 0, 4<<20, 1200)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"long line", []string{"eval", "--quiet", line},
			line + ":3: line longer than 67108864 bytes (--max-line-bytes raises the limit)"},
		{"inflating RKM1", []string{"eval", "--quiet", "--max-input-bytes", "268435456", rkm},
			rkm + ": decompressed input larger than 268435456 bytes, the limit for inputs read whole (--max-input-bytes raises it)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := runUnderMemoryLimit(t, 4096, tc.args...)
			if code != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit status %d, stderr:\n%s\nwant status 1 and %q", code, stderr, tc.want)
			}
			if strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "panic") {
				t.Fatalf("crashed:\n%s", stderr)
			}
		})
	}
}

// Headerless TSV reads with --columns; without it the error says a header
// is expected and names the flag. q1 ranks d2 (label 0) above d1 (label
// 1): AP = 1/2.
func TestEvalHeaderlessColumns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run.tsv")
	if err := os.WriteFile(p, []byte("q1\td1\t1\t0.5\nq1\td2\t0\t0.7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run(t.Context(), []string{"eval", "--quiet", "--format", "tsv", "--columns", "qid,doc,label,score", p}, nil, &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if !strings.Contains(out.String(), "map\tall\t0.5\n") {
		t.Errorf("output %q, want map 0.5", out.String())
	}
	err := run(t.Context(), []string{"eval", "--quiet", p}, nil, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "the first line must be a header naming the columns; for a file without one, give them in order with --columns") {
		t.Errorf("without --columns: %v", err)
	}
	for _, bad := range [][]string{{"--columns", "qid,score"}, {"--max-line-bytes", "0"}, {"--max-input-bytes", "-1"}} {
		errOut.Reset()
		if err := run(t.Context(), append(append([]string{"eval"}, bad...), p), nil, &out, &errOut); err == nil || !strings.Contains(errOut.String(), bad[0]) {
			t.Errorf("%v: %v, %q", bad, err, errOut.String())
		}
	}
}
