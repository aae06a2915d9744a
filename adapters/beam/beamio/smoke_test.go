package beamio_test

import (
	"testing"
	"time"

	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/metric"
)

func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	items := genData(1, 200, 50)
	all, glob := writeTSV(t, dir, items, 3, true)
	ms := []metric.Config{{Name: "map", TopN: metric.NoTopN, DType: metric.Float64, Ties: metric.Stable}}
	ref := reference(t, all, ms)
	start := time.Now()
	got := runTSV(t, glob, ms, beamio.Options{BlockSize: 4096}, rm.DedupeError)
	t.Logf("%v rows %d: %v", time.Since(start), len(items), got.report)
	t.Logf("ref %v got %v", ref.values, got.report.Measures[0].Value)
}
