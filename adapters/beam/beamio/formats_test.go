package beamio_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/parquet-go/parquet-go"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

type pqRow struct {
	QID    string  `parquet:"query"`
	Doc    int64   `parquet:"doc"`
	Label  int32   `parquet:"rel"`
	Score  float32 `parquet:"score"`
	Weight float64 `parquet:"weight"`
}

type pqOptionalRow struct {
	QID   string   `parquet:"query"`
	Doc   int64    `parquet:"doc"`
	Label int32    `parquet:"rel"`
	Score *float32 `parquet:"score,optional"`
}

// TestParquet reads Parquet shards (renamed columns, integer doc ids,
// float32 scores, several row groups) and checks the result against the
// single-process reference on a TSV of the same rows; a file with a null
// and a NaN score sends those rows to the dead letters.
func TestParquet(t *testing.T) {
	items := genData(11, 300, 40)
	for i := range items {
		items[i].score = float64(float32(items[i].score)) // what a FLOAT column holds
		items[i].doc = strings.TrimPrefix(items[i].doc, "d")
	}
	dir := t.TempDir()
	all, _ := writeTSV(t, dir, items, 1, true)
	pdir := filepath.Join(dir, "pq")
	if err := os.MkdirAll(pdir, 0o755); err != nil {
		t.Fatal(err)
	}
	const shards = 3
	for k := range shards {
		var rows []pqRow
		for _, it := range items[k*len(items)/shards : (k+1)*len(items)/shards] {
			var doc int64
			fmt.Sscan(it.doc, &doc)
			rows = append(rows, pqRow{QID: it.qid, Doc: doc, Label: int32(it.label), Score: float32(it.score), Weight: it.weight})
		}
		if err := parquet.WriteFile(filepath.Join(pdir, fmt.Sprintf("part-%d.parquet", k)), rows, parquet.MaxRowsPerRowGroup(700)); err != nil {
			t.Fatal(err)
		}
	}
	ms := measures(metric.Float32, metric.Stable, true, metric.NoTopN, 5)
	ref := reference(t, all, ms)

	cols := beamio.Columns{QID: "query", Label: "rel"}
	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadParquet(s, []string{filepath.Join(pdir, "*.parquet")}, beamio.Options{Columns: cols})
	lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got := runAndRead(t, p, s, lists, ms, rows)
	checkAgainst(t, got, ref, evalOut{}, ms)

	// Bad rows: a null score and a NaN score among good ones, and a file
	// without the needed columns.
	bdir := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bdir, 0o755); err != nil {
		t.Fatal(err)
	}
	one, nan := float32(1), float32(math.NaN())
	bad := []pqOptionalRow{{"q1", 1, 1, &one}, {"q1", 2, 0, nil}, {"q1", 3, 0, &nan}, {"q1", 4, 1, &one}}
	if err := parquet.WriteFile(filepath.Join(bdir, "a.parquet"), bad); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(filepath.Join(bdir, "b.parquet"), []pqRow{{QID: "q9"}}); err != nil {
		t.Fatal(err)
	}
	p, s = beam.NewPipelineWithRoot()
	rows = beamio.ReadParquet(s, []string{filepath.Join(bdir, "*.parquet")}, beamio.Options{Columns: beamio.Columns{QID: "query", Label: "rel", Weight: "w"}})
	lists, err = rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got = runAndRead(t, p, s, lists, ms, rows)
	reasons := map[string]bool{}
	for _, d := range got.dead {
		reasons[fmt.Sprintf("%s@%d: %s", filepath.Base(d.Pos.File), d.Pos.Offset, d.Reason)] = true
	}
	for _, want := range []string{
		// a.parquet has no column "w", which is named explicitly.
		`a.parquet@0: schema: field w: no column named "w" in the schema [query doc rel score]`,
		`b.parquet@0: schema: field w: no column named "w" in the schema [query doc rel score weight]`,
	} {
		if !reasons[want] {
			t.Errorf("no dead letter %q in %v", want, reasons)
		}
	}
	if c := got.report.Counts; c.Records != 5 || c.ParseErrors != 5 || c.FileErrors != 2 || c.DeadLetters != 7 || c.Check(false) != nil {
		t.Errorf("counts %+v", c)
	}

	// The same file with the weight column optional: the null and NaN
	// rows are rejected, and with them the rest of q1.
	p, s = beam.NewPipelineWithRoot()
	rows = beamio.ReadParquet(s, []string{filepath.Join(bdir, "a.parquet")}, beamio.Options{Columns: beamio.Columns{QID: "query", Label: "rel"}})
	lists, err = rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got = runAndRead(t, p, s, lists, ms, rows)
	reasons = map[string]bool{}
	for _, d := range got.dead {
		reasons[fmt.Sprintf("%d: %s", d.Pos.Offset, d.Reason)] = true
	}
	q1 := "the query has 2 row(s) rejected by the reader (the first at " + filepath.Join(bdir, "a.parquet") + "@1: field score: value \"null\": missing value), so it is not evaluated on the rest"
	for _, want := range []string{`1: field score: value "null": missing value`, `2: field score: value "NaN": NaN score`, "0: " + q1, "3: " + q1} {
		if !reasons[want] {
			t.Errorf("no dead letter %q in %v", want, reasons)
		}
	}
	if c := got.report.Counts; c.Records != 4 || c.Rows != 2 || c.ParseErrors != 2 || c.DeadGroupRows != 2 || c.Queries != 0 || c.Items != 0 || c.Check(false) != nil {
		t.Errorf("counts %+v", c)
	}
}

// TestCSVAndGzip reads CSV with quoted fields, one shard gzipped, and
// checks it against the reference on the plain file.
func TestCSVAndGzip(t *testing.T) {
	items := genData(12, 200, 30)
	for i := range items {
		items[i].qid = "q," + items[i].qid // needs quoting
	}
	dir := t.TempDir()
	var all bytes.Buffer
	all.WriteString("qid,doc,label,score\n")
	var lines []string
	for _, it := range items {
		lines = append(lines, fmt.Sprintf("%q,%s,%d,%v", it.qid, it.doc, it.label, it.score))
	}
	all.WriteString(strings.Join(lines, "\n") + "\n")
	allPath := filepath.Join(dir, "all.csv")
	if err := os.WriteFile(allPath, all.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sdir := filepath.Join(dir, "shards")
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		t.Fatal(err)
	}
	half := len(lines) / 2
	if err := os.WriteFile(filepath.Join(sdir, "part-0.csv"), []byte("qid,doc,label,score\n"+strings.Join(lines[:half], "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("qid,doc,label,score\r\n" + strings.Join(lines[half:], "\r\n")))
	zw.Close()
	if err := os.WriteFile(filepath.Join(sdir, "part-1.csv.gz"), z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ms := measures(metric.Float64, metric.Optimistic, false, metric.NoTopN, 3)
	ref := reference(t, allPath, ms)
	ev := runEval(t, append(evalArgs(ms), allPath)...)
	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadDelimited(s, []string{filepath.Join(sdir, "part-*")}, ',', beamio.Options{BlockSize: 4096})
	lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got := runAndRead(t, p, s, lists, ms, rows)
	checkAgainst(t, got, ref, ev, ms)
}
