package beamio

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
)

type corruptRow struct {
	QID    string  `parquet:"qid"`
	Doc    string  `parquet:"doc"`
	Label  int32   `parquet:"label"`
	Score  float64 `parquet:"score"`
	Weight float32 `parquet:"weight"`
}

// validParquet returns the bytes of a Parquet file of rows, in several
// row groups and pages, and the rows.
func validParquet(t testing.TB) ([]byte, []corruptRow) {
	return smallParquet(t, 12, 25, 100, 512)
}

// smallParquet returns a Parquet file of q queries of n rows each, in row
// groups of perGroup rows and pages of pageBytes.
func smallParquet(t testing.TB, nq, n, perGroup, pageBytes int) ([]byte, []corruptRow) {
	t.Helper()
	var rows []corruptRow
	for q := range nq {
		for i := range n {
			rows = append(rows, corruptRow{QID: fmt.Sprintf("q%d", q), Doc: fmt.Sprintf("d%d", i), Label: int32((q + i) % 3), Score: float64(i*7%25) / 4, Weight: float32(1 + q%2)})
		}
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, rows, parquet.MaxRowsPerRowGroup(int64(perGroup)), parquet.PageBufferSize(pageBytes)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), rows
}

// readOutcome is what readParquet did with one file.
type readOutcome struct {
	counts rm.Counts
	items  []rm.Item
	qids   []string
	dead   []rm.DeadLetter
	failed []rm.Chunk // FileFailed chunks
}

// readBytes reads data as a Parquet file with readParquet, and checks what
// must hold for any input: no error, counts that add up and match what was
// emitted, and a FileFailed chunk when a file failed after rows were read.
func readBytes(t testing.TB, data []byte) readOutcome {
	t.Helper()
	var o readOutcome
	emit := func(c rm.Chunk) {
		if c.FileFailed {
			o.failed = append(o.failed, c)
			return
		}
		for range c.Items {
			o.qids = append(o.qids, c.QID)
		}
		o.items = append(o.items, c.Items...)
	}
	c, err := readParquet(context.Background(), "mem.parquet", bytes.NewReader(data), int64(len(data)), Columns{}, emit, func(d rm.DeadLetter) { o.dead = append(o.dead, d) })
	if err != nil {
		t.Fatalf("readParquet: %v", err)
	}
	o.counts = c
	if err := c.Check(false); err != nil && !strings.Contains(err.Error(), "Rows = Items") { // Items are counted later, by the evaluation
		t.Fatalf("%v: %+v", err, c)
	}
	if int64(len(o.items)) != c.Rows || int64(len(o.dead)) != c.DeadLetters || c.Records != c.Rows+c.ParseErrors {
		t.Fatalf("%d items and %d dead letters emitted; counts %+v", len(o.items), len(o.dead), c)
	}
	for _, d := range o.dead {
		if d.Pos.File != "mem.parquet" || d.Reason == "" {
			t.Fatalf("dead letter without file or reason: %+v", d)
		}
	}
	if c.FileErrors > 0 && c.Records > 0 && c.Records == c.ParseErrors+c.Rows && len(o.failed) == 0 && c.ParseErrors != c.Records {
		t.Fatalf("the file failed after %d rows and no FileFailed chunk was emitted: %+v", c.Records, c)
	}
	return o
}

func TestReadParquetValid(t *testing.T) {
	data, rows := validParquet(t)
	o := readBytes(t, data)
	if len(o.dead) != 0 || len(o.items) != len(rows) {
		t.Fatalf("%d items, dead %v; want %d items", len(o.items), o.dead, len(rows))
	}
	for i, r := range rows {
		it := o.items[i]
		if o.qids[i] != r.QID || it.Doc != r.Doc || it.Label != float64(r.Label) || it.Score != r.Score || !it.HasWeight || it.Weight != float64(r.Weight) || it.Offset != int64(i) {
			t.Fatalf("row %d: %s %+v, want %+v", i, o.qids[i], it, r)
		}
	}
}

// TestParquetCorruption reads many copies of a valid file with 1 to 3
// random bytes changed: none may panic, and each ends in rows or a dead
// letter naming the file.
func TestParquetCorruption(t *testing.T) {
	data, rows := validParquet(t)
	n := 2000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(10, 1))
	var panics, failed, partial, whole int
	for range n {
		bad := append([]byte(nil), data...)
		for range 1 + rng.IntN(3) {
			bad[rng.IntN(len(bad))] = byte(rng.Uint32())
		}
		o := readBytes(t, bad)
		if len(o.items) == 0 && len(o.dead) == 0 {
			t.Fatalf("no row and no dead letter from a corrupt file")
		}
		for _, d := range o.dead {
			if strings.Contains(d.Reason, "the Parquet library failed on it") {
				panics++
			}
		}
		switch {
		case o.counts.FileErrors > 0 && len(o.failed) > 0:
			partial++
		case o.counts.FileErrors > 0:
			failed++
		case len(o.items) == len(rows):
			whole++
		}
	}
	t.Logf("%d corruptions: %d recovered panics; %d files failed before any row, %d after some rows; %d read whole", n, panics, failed, partial, whole)
}

// FuzzReadParquet reads arbitrary bytes as a Parquet file; the seeds are a
// valid file and corrupt copies of it (TestParquetCorruption corrupts the
// larger file of validParquet).
//
// Run it with a bound on minimization:
//
//	go test ./beamio -run '^$' -fuzz '^FuzzReadParquet$' -fuzztime 60s -fuzzminimizetime 20x -parallel 1
//
// The fuzzer minimizes every input that finds new coverage, trying
// O(size²) cuts of it for up to -fuzzminimizetime (default 60 s), and an
// exec costs 2-3 ms in this package's instrumented build: without the
// bound, the first new input's minimization took the whole minute and
// 60 s of fuzzing ran 24 execs (no input is slow: a pprof of the
// minimizer's candidates shows allocation and GC, the slowest candidate
// under 0.4 s). The seed is small (2 queries of 2 rows, 1.1 KB, against
// validParquet's 4.6 KB) to keep each exec and each minimization short.
func FuzzReadParquet(f *testing.F) {
	data, _ := smallParquet(f, 2, 2, 4, 64)
	f.Logf("seed of %d bytes", len(data))
	f.Add(data)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		bad := append([]byte(nil), data...)
		for range 1 + rng.IntN(3) {
			bad[rng.IntN(len(bad))] = byte(rng.Uint32())
		}
		f.Add(bad)
	}
	f.Add(data[:len(data)/2])
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		readBytes(t, b)
	})
}

// TestParquetMaxInputBytes reads a gzip-compressed Parquet file (a small
// bomb: megabytes of one value that compress to kilobytes) with a limit
// below its decompressed size: the file goes to the dead letters with a
// reason naming the flag, without reading the whole file into memory.
func TestParquetMaxInputBytes(t *testing.T) {
	rows := make([]corruptRow, 1<<18)
	for i := range rows {
		rows[i] = corruptRow{QID: "q", Doc: "d", Score: 1, Weight: 1}
	}
	var raw bytes.Buffer
	if err := parquet.Write(&raw, rows, parquet.Compression(&parquet.Uncompressed)); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw.Bytes())
	zw.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "bomb.parquet.gz")
	if err := os.WriteFile(path, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes gzip, %d decompressed", gz.Len(), raw.Len())
	const limit = 1 << 20
	if raw.Len() <= 4*limit {
		t.Fatalf("the bomb is too small: %d bytes", raw.Len())
	}
	var dead []rm.DeadLetter
	var counts rm.Counts
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn := &parquetFn{MaxInputBytes: limit}
	file := fileio.ReadableFile{Metadata: fileio.FileMetadata{Path: path, Size: int64(gz.Len())}}
	err := fn.ProcessElement(context.Background(), file, func(rm.Chunk) { t.Error("a row of a file over the limit") },
		func(d rm.DeadLetter) { dead = append(dead, d) }, func(c rm.Counts) { counts = counts.Add(c) })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("not a readable Parquet file: decompressed input larger than %d bytes, the limit for inputs read whole (--max-input-bytes raises it); a gzip-compressed Parquet file is decompressed into memory", limit)
	if len(dead) != 1 || dead[0].Reason != want || dead[0].Pos.File != path {
		t.Errorf("dead letters %+v, want one for %s: %q", dead, path, want)
	}
	if counts != (rm.Counts{FileErrors: 1, DeadLetters: 1}) {
		t.Errorf("counts %+v", counts)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
		t.Errorf("%d bytes allocated for a limit of %d", alloc, limit)
	}

	// Within the limit, the same file is read.
	fn.MaxInputBytes = int64(raw.Len())
	n := 0
	err = fn.ProcessElement(context.Background(), file, func(c rm.Chunk) { n += len(c.Items) }, func(d rm.DeadLetter) { t.Errorf("dead letter %v", d) }, func(rm.Counts) {})
	if err != nil || n != len(rows) {
		t.Errorf("%d rows, %v; want %d", n, err, len(rows))
	}
}
