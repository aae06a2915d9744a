package runio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// fullRow has every column the reader reads, with ids of both kinds.
type fullRow struct {
	QID    int64   `parquet:"qid"`
	Doc    string  `parquet:"doc,dict"`
	Label  int32   `parquet:"label"`
	Score  float32 `parquet:"score"`
	Weight float64 `parquet:"weight,optional"`
}

// smallParquet is a valid file of 3 row groups with small pages, so that
// corrupting any byte hits metadata, page headers or page data.
func smallParquet(t testing.TB) []byte {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[fullRow](&b, parquet.MaxRowsPerRowGroup(8), parquet.PageBufferSize(64))
	for q := range 4 {
		for i := range 6 {
			row := fullRow{QID: int64(q + 1), Doc: fmt.Sprintf("d%d", i), Label: int32(i % 3), Score: float32(q*10 - i), Weight: 1}
			if _, err := w.Write([]fullRow{row}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readParquetBytes reads data whole; a panic fails the test (through the
// fuzzer or t) since nothing recovers it here.
func readParquetBytes(data []byte, opts Options) ([]Query, error) {
	return readAllOrErr(NewParquetReader(bg, bytes.NewReader(data), int64(len(data)), "c.parquet", opts))
}

// Corrupting any one byte of a valid file, or three neighbouring ones, ends in the file's queries or an error naming the file, never a
// panic: parquet-go panicked on about 2% of such files, in OpenFile and in
// value reads.
func TestParquetCorruptBytes(t *testing.T) {
	orig := smallParquet(t)
	if _, err := readParquetBytes(orig, Options{}); err != nil {
		t.Fatal(err)
	}
	var errs, corrupt int
	buf := make([]byte, len(orig))
	step := 1
	if testing.Short() {
		step = 7
	}
	for pos := 0; pos < len(orig); pos += step {
		for _, c := range []struct {
			n int
			x byte
		}{{1, 0xff}, {3, 0x55}} {
			copy(buf, orig)
			for k := 0; k < c.n && pos+k < len(buf); k++ {
				buf[pos+k] ^= c.x
			}
			_, err := readParquetBytes(buf, Options{Columns: Columns{Weight: "weight", Doc: "doc"}})
			if err == nil {
				continue
			}
			errs++
			if !strings.HasPrefix(err.Error(), "c.parquet") {
				t.Fatalf("byte %d ^ %#x: error does not name the file: %v", pos, c.x, err)
			}
			var pe *ParseError
			if errors.As(err, &pe) && pe.Msg == "corrupt Parquet file" {
				corrupt++
			}
		}
	}
	t.Logf("%d bytes x 2 corruptions: %d errors, %d of them recovered panics", len(orig), errs, corrupt)
}

// Files found by fuzzing whose one corrupt byte made parquet-go allocate
// gigabytes: a footer length of about 2 GB (OpenFile allocated it) and a
// page header claiming a 2.7 GB page (the page read allocated it). Each
// must fail naming the file, allocating little.
func TestParquetCorruptSizes(t *testing.T) {
	tests := []struct{ file, want string }{
		{"corrupt-footer-length.parquet", `field footer length: value "`},
		{"corrupt-page-size.parquet", `corrupt Parquet file: row group 1 column `},
	}
	for _, tc := range tests {
		data, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = readParquetBytes(data, Options{Columns: Columns{Weight: "weight"}})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), "c.parquet") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming the file with %q", tc.file, err, tc.want)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Errorf("%s: allocated %d MB", tc.file, n>>20)
		}
	}
}
