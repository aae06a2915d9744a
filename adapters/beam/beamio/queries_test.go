package beamio_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
)

// writeJSONL writes items as JSON Lines, one item per line, through
// runio's writer: the whole set to all.jsonl, and the same lines cut into
// k consecutive shards. It returns the path of all.jsonl and the shards'
// glob.
func writeJSONL(t testing.TB, dir string, items []item, k int) (string, string) {
	t.Helper()
	write := func(path string, its []item) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := runio.NewJSONLWriter(f, runio.Columns{}, false)
		for _, it := range its {
			q := runio.Query{QID: it.qid, Docs: []string{it.doc}, Labels: []float64{float64(it.label)}, Scores: []float64{it.score}, Weights: []float64{it.weight}}
			if err := w.WriteQuery(&q); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	all := filepath.Join(dir, "all.jsonl")
	write(all, items)
	sdir := filepath.Join(dir, fmt.Sprintf("jshards%d", k))
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range k {
		write(filepath.Join(sdir, fmt.Sprintf("part-%02d.jsonl", i)), items[i*len(items)/k:(i+1)*len(items)/k])
	}
	return all, filepath.Join(sdir, "part-*.jsonl")
}

// TestJSONL evaluates JSON Lines shards, in input order and shuffled, and
// checks the result against the single-process reference and `rankmetrics
// eval` on the whole file.
func TestJSONL(t *testing.T) {
	items := genData(21, 300, 40)
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN, 10)
	for _, tc := range []struct {
		name   string
		items  []item
		shards int
	}{{"ordered/1", items, 1}, {"ordered/3", items, 3}, {"shuffled/17", shuffled(22, items), 17}} {
		t.Run(tc.name, func(t *testing.T) {
			all, glob := writeJSONL(t, t.TempDir(), tc.items, tc.shards)
			ref := reference(t, all, ms)
			ev := runEval(t, append(evalArgs(ms), all)...)
			p, s := beam.NewPipelineWithRoot()
			rows := beamio.ReadJSONL(s, []string{glob}, rm.DedupeError, beamio.Options{})
			lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
			if err != nil {
				t.Fatal(err)
			}
			got := runAndRead(t, p, s, lists, ms, rows)
			checkAgainst(t, got, ref, ev, ms)
			if c := got.report.Counts; c.Records != int64(len(tc.items)) {
				t.Errorf("read %d records, want %d", c.Records, len(tc.items))
			}
		})
	}
}

// TestJSONLBadFile checks that a JSON Lines file runio refuses goes to the
// dead letters with runio's reason, and takes its queries with it.
func TestJSONLBadFile(t *testing.T) {
	dir := t.TempDir()
	good := `{"qid":"q1","doc":"a","label":1,"score":2}` + "\n" + `{"qid":"q2","doc":"a","label":1,"score":2}` + "\n"
	bad := `{"qid":"q1","doc":"b","label":0,"score":1}` + "\n" + `{"qid":"q3","doc":"b","label":"x","score":1}` + "\n"
	for name, data := range map[string]string{"a.jsonl": good, "b.jsonl": bad} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ms := measures(metric.Float64, metric.Stable, true, metric.NoTopN)
	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadJSONL(s, []string{filepath.Join(dir, "*.jsonl")}, rm.DedupeError, beamio.Options{})
	lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got := runAndRead(t, p, s, lists, ms, rows)
	var file []string
	for _, d := range got.dead {
		if d.Stage == rm.StageParse {
			file = append(file, d.Reason)
		}
	}
	if len(file) != 1 || !strings.Contains(file[0], "line 2") || !strings.Contains(file[0], "label") {
		t.Errorf("file dead letters %q, want one naming line 2 and the label", file)
	}
	if c := got.report.Counts; c.Queries != 2 || c.FileErrors != 1 {
		t.Errorf("counts %+v, want q1 and q2 evaluated (b.jsonl fails before emitting a row) and one file error", c)
	}
}

// TestRKM1 evaluates an RKM1 file, written here byte by byte from its
// definition, and checks the result against `rankmetrics eval` on the same
// file and the single-process reference.
func TestRKM1(t *testing.T) {
	const q, l = 200, 30
	rng := rand.New(rand.NewPCG(5, 6))
	labels := make([]byte, q*l)
	scores := make([]byte, 4*q*l)
	for i := range q * l {
		if rng.Float64() < 0.15 {
			labels[i] = byte(1 + rng.IntN(3))
		}
		s := float32(math.Round(rng.NormFloat64()*100) / 100) // ties
		binary.LittleEndian.PutUint32(scores[4*i:], math.Float32bits(s))
	}
	path := filepath.Join(t.TempDir(), "lists.rkm1")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := runio.WriteRKM1Header(f, q, l); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(append(labels, scores...)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	ms := measures(metric.Float32, metric.Expected, false, metric.NoTopN, 5)
	ref := reference(t, path, ms)
	ev := runEval(t, append(evalArgs(ms), path)...)
	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadRKM1(s, []string{path}, beamio.Options{})
	lists, err := rm.GroupChunks(s, rows.Output, rm.DedupeError)
	if err != nil {
		t.Fatal(err)
	}
	got := runAndRead(t, p, s, lists, ms, rows)
	checkAgainst(t, got, ref, ev, ms)
}
