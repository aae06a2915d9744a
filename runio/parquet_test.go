package runio

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// typedRow has the integer and float32 column types that data teams dump.
type typedRow struct {
	QID   int64   `parquet:"qid"`
	Label int32   `parquet:"label"`
	Score float32 `parquet:"score"`
}

// TestParquetTypedColumnsManyGroups writes 3000 rows in row groups of 700
// and pages of 1 KiB, so value batches cross page and group boundaries.
func TestParquetTypedColumnsManyGroups(t *testing.T) {
	var b bytes.Buffer
	w := parquet.NewGenericWriter[typedRow](&b, parquet.MaxRowsPerRowGroup(700), parquet.PageBufferSize(1024))
	var want []Query
	for q := 1; q <= 100; q++ {
		qq := Query{QID: strconv.Itoa(q * 7)}
		for i := 0; i < 30; i++ {
			s := float32(q) - float32(i)/8
			row := typedRow{QID: int64(q * 7), Label: int32((q + i) % 5), Score: s}
			if _, err := w.Write([]typedRow{row}); err != nil {
				t.Fatal(err)
			}
			qq.Labels = append(qq.Labels, float64((q+i)%5))
			qq.Scores = append(qq.Scores, float64(s))
		}
		want = append(want, qq)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := NewParquetReader(bg, bytes.NewReader(b.Bytes()), int64(b.Len()), "t.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := readAll(r)
	if err != nil {
		t.Fatal(err)
	}
	checkQueries(t, got, want)
	if got[1].Line != 31 {
		t.Errorf("second query starts at row %d, want 31", got[1].Line)
	}
}

type optionalRow struct {
	QID   string   `parquet:"qid"`
	Label float64  `parquet:"label"`
	Score *float64 `parquet:"score,optional"`
}

type boolRow struct {
	QID   string  `parquet:"qid"`
	Label bool    `parquet:"label"`
	Score float64 `parquet:"score"`
}

type floatQIDRow struct {
	QID   float64 `parquet:"qid"`
	Label float64 `parquet:"label"`
	Score float64 `parquet:"score"`
}

func writeParquet[T any](t testing.TB, rows []T) []byte {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestParquetErrors(t *testing.T) {
	one := 1.0
	nan := math.NaN()
	tests := []struct {
		name string
		data []byte
		opts Options
		want string
	}{
		{"null score", writeParquet(t, []optionalRow{{"a", 1, &one}, {"a", 0, nil}}), Options{},
			`p.parquet:2: field score: value "null": missing value`},
		{"nan score", writeParquet(t, []optionalRow{{"a", 1, &nan}}), Options{},
			`p.parquet:1: field score: value "NaN": NaN score`},
		{"missing column", writeParquet(t, []optionalRow{{"a", 1, &one}}), Options{Columns: Columns{Score: "pred"}},
			`p.parquet: field pred: no column named "pred" in the schema [qid label score]`},
		{"boolean label", writeParquet(t, []boolRow{{"a", true, 1}}), Options{},
			`p.parquet: field label: unsupported column type BOOLEAN`},
		{"float qid", writeParquet(t, []floatQIDRow{{1, 1, 1}}), Options{},
			`p.parquet: field qid: column type DOUBLE cannot be an id (want a string or an integer)`},
		{"string score", writeParquet(t, []optionalRow{{"a", 1, &one}}), Options{Columns: Columns{Score: "qid"}},
			`p.parquet: field qid: column type BYTE_ARRAY is not numeric`},
		{"unsorted", writeParquet(t, []optionalRow{{"b", 1, &one}, {"a", 1, &one}}), Options{},
			`p.parquet:2: field qid: value "a": input is not sorted by qid: it comes after "b" (sorted input streams in constant memory; --unsorted auto, the default, reads any order)`},
		{"not parquet", []byte("qid\tlabel\tscore\n"), Options{},
			`p.parquet: field magic: value "ore\n": not a Parquet file (no PAR1 at the end)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := firstError(NewParquetReader(bg, bytes.NewReader(tc.data), int64(len(tc.data)), "p.parquet", tc.opts))
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			got := err.Error()
			if tc.name == "not parquet" {
				got = got[:min(len(got), len(tc.want))]
			}
			if got != tc.want {
				t.Errorf("error\n got %s\nwant %s", err, tc.want)
			}
		})
	}
}
