package beamio_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/runio"
)

// TestReadSubtopicQrels: qrels cut into shards (one gzipped, matched by
// two globs, one file matched twice) read as subtopic qrels are those
// runio reads from the whole file, the shards one after the other in path
// order: topics and subtopic ids keep the numbers of their first
// appearance there, also when a topic and a subtopic id span shards and
// a shard sees its subtopic ids in another order.
func TestReadSubtopicQrels(t *testing.T) {
	dir := t.TempDir()
	shards := []string{
		"1 x d1 1\n1 y d2 1\n3 x d9 0\n",
		"\n1 z d3 1\n2 y d1 0\n1 x d4 2\n",
		"2 w d5 1\n3 z d9 1\n",
	}
	names := []string{"q-a.txt", "q-b.txt.gz", "q-c.txt"}
	for i, s := range shards {
		b := []byte(s)
		if strings.HasSuffix(names[i], ".gz") {
			var z bytes.Buffer
			w := gzip.NewWriter(&z)
			w.Write(b)
			w.Close()
			b = z.Bytes()
		}
		if err := os.WriteFile(filepath.Join(dir, names[i]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	want, err := runio.ReadSubtopicQrels(ctx, strings.NewReader(strings.Join(shards, "")), "whole")
	if err != nil {
		t.Fatal(err)
	}
	got, err := beamio.ReadSubtopicQrels(ctx, []string{filepath.Join(dir, "q-c.txt"), filepath.Join(dir, "q-*")})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// Worked by hand: subtopics x y z w; topic 1 is x y z x.
	if strings.Join(got.Subtopics, " ") != "x y z w" || len(got.Topics["1"]) != 4 || got.Topics["1"][2].Subtopic != 2 || got.Topics["1"][3].Subtopic != 0 {
		t.Errorf("subtopics %v, topic 1 %+v", got.Subtopics, got.Topics["1"])
	}

	for _, tc := range []struct {
		glob, data, want string
	}{
		{filepath.Join(dir, "none-*"), "", "none-*: no file matches"},
		{filepath.Join(dir, "bad.txt"), "1 x d1 1\n1 x d2\n", "bad.txt:2"},
		{filepath.Join(dir, "label.txt"), "1 x d1 high\n", "rel"},
	} {
		if tc.data != "" {
			os.WriteFile(tc.glob, []byte(tc.data), 0o644)
		}
		_, err := beamio.ReadSubtopicQrels(ctx, []string{tc.glob})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.glob, err, tc.want)
		}
	}
}
