package beamio_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	rm "github.com/rankmetrics/rankmetrics/adapters/beam"
	"github.com/rankmetrics/rankmetrics/adapters/beam/beamio"
	"github.com/rankmetrics/rankmetrics/adapters/beam/internal/beamtest"
	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/runio"
	"github.com/rankmetrics/rankmetrics/tensor"
)

func TestMain(m *testing.M) {
	os.Exit(beamtest.Main(m, func() {
		if evalDir != "" {
			os.RemoveAll(evalDir)
		}
	}))
}

// evalDir holds the rankmetrics binary built for the comparisons; set once.
var (
	evalOnce sync.Once
	evalDir  string
	evalErr  error
)

// evalBinary builds `rankmetrics` from the enclosing repository (the
// module this one replaces rankmetrics with), once per test binary.
func evalBinary(t testing.TB) string {
	t.Helper()
	evalOnce.Do(func() {
		root, err := filepath.Abs(filepath.Join("..", "..", ".."))
		if err != nil {
			evalErr = err
			return
		}
		if evalDir, evalErr = os.MkdirTemp("", "rankmetrics-eval-"); evalErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(evalDir, "rankmetrics"), "./cmd/rankmetrics")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			evalErr = fmt.Errorf("building rankmetrics in %s: %v\n%s", root, err, out)
		}
	})
	if evalErr != nil {
		t.Fatal(evalErr)
	}
	return filepath.Join(evalDir, "rankmetrics")
}

// evalOut is what `rankmetrics eval --format json -q` printed.
type evalOut struct {
	measures map[string]string            // name -> value as printed
	perQ     map[string]map[string]string // qid -> name -> value
	counts   map[string]int64
}

// runEval runs `rankmetrics eval --format json -q` with args.
func runEval(t testing.TB, args ...string) evalOut {
	t.Helper()
	cmd := exec.Command(evalBinary(t), append([]string{"eval", "--format", "json", "-q", "--quiet"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rankmetrics eval %v: %v\n%s", args, err, stderr.String())
	}
	var j struct {
		PerQuery []map[string]json.RawMessage `json:"per_query"`
		Counts   map[string]int64             `json:"counts"`
		Measures map[string]json.RawMessage   `json:"measures"`
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatalf("rankmetrics eval output: %v\n%s", err, out)
	}
	res := evalOut{measures: map[string]string{}, perQ: map[string]map[string]string{}, counts: j.Counts}
	for k, v := range j.Measures {
		res.measures[k] = string(v)
	}
	for _, q := range j.PerQuery {
		var qid string
		if err := json.Unmarshal(q["qid"], &qid); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for k, v := range q {
			if k != "qid" {
				m[k] = string(v)
			}
		}
		res.perQ[qid] = m
	}
	return res
}

// item is one generated row.
type item struct {
	qid    string
	doc    string
	label  int
	score  float64
	weight float64
}

// genData generates q queries of about n items each (between n/2 and 3n/2),
// with graded labels, about 10% relevant (the rate of each query drawn in
// [0, 0.2], so some have none), scores label*0.6 plus Gaussian noise
// rounded to 3 decimals, 2% of the scores copied from another item of the
// query (real ties), and weights in [0.25, 4) in quarter steps when
// weighted.
func genData(seed uint64, q, n int) []item {
	rng := rand.New(rand.NewPCG(seed, 0))
	var out []item
	for i := range q {
		qid := fmt.Sprintf("%d", 1000+i)
		m := n/2 + rng.IntN(n+1)
		rate := 0.2 * rng.Float64()
		start := len(out)
		for j := range m {
			lab := 0
			if rng.Float64() < rate {
				lab = 1 + rng.IntN(4)
			}
			s := math.Round((float64(lab)*0.6+rng.NormFloat64())*1000) / 1000
			out = append(out, item{qid: qid, doc: fmt.Sprintf("d%d", j), label: lab, score: s, weight: float64(1+rng.IntN(16)) / 4})
		}
		for j := start; j < len(out); j++ {
			if rng.Float64() < 0.02 {
				out[j].score = out[start+rng.IntN(len(out)-start)].score
			}
		}
	}
	return out
}

func shuffled(seed uint64, items []item) []item {
	out := append([]item(nil), items...)
	rng := rand.New(rand.NewPCG(seed, 1))
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// writeTSV writes items as TSV files: the whole set to all.tsv, and the
// same lines cut into k consecutive shards part-00-of-k.tsv..., each with
// the header, whose sorted names follow the concatenation order. It
// returns the path of all.tsv and the shards' glob.
func writeTSV(t testing.TB, dir string, items []item, k int, weighted bool) (string, string) {
	t.Helper()
	header := "qid\tdoc\tlabel\tscore"
	if weighted {
		header += "\tweight"
	}
	line := func(it item) string {
		s := fmt.Sprintf("%s\t%s\t%d\t%v", it.qid, it.doc, it.label, it.score)
		if weighted {
			s += fmt.Sprintf("\t%v", it.weight)
		}
		return s
	}
	write := func(path string, its []item) {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		fmt.Fprintln(w, header)
		for _, it := range its {
			fmt.Fprintln(w, line(it))
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	all := filepath.Join(dir, "all.tsv")
	write(all, items)
	sdir := filepath.Join(dir, fmt.Sprintf("shards%d", k))
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range k {
		lo, hi := i*len(items)/k, (i+1)*len(items)/k
		write(filepath.Join(sdir, fmt.Sprintf("part-%02d-of-%02d.tsv", i, k)), items[lo:hi])
	}
	return all, filepath.Join(sdir, "part-*.tsv")
}

// refResult is the single-process reference: the metric itself, fed one
// Update per query with Exact accumulation, from runio's reader.
type refResult struct {
	values  []float64
	perQ    map[string][]float64 // qid -> AP per measure
	queries int
	items   int
}

// reference evaluates a file in one process, independently of Beam and of
// this module's readers: runio reads it, and each query is one Update of
// metric.MeanAveragePrecision with Exact accumulation.
func reference(t testing.TB, path string, measures []metric.Config) refResult {
	t.Helper()
	ctx := context.Background()
	rd, err := runio.Open(ctx, []string{path}, runio.Options{Unsorted: runio.UnsortedGroup})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	ms := make([]*metric.MeanAveragePrecision, len(measures))
	for i, c := range measures {
		c.Accumulation = metric.Exact
		m, err := metric.New(c)
		if err != nil {
			t.Fatal(err)
		}
		ms[i] = m.(*metric.MeanAveragePrecision)
	}
	res := refResult{perQ: map[string][]float64{}}
	var q runio.Query
	var pl metric.PerList
	for {
		err := rd.Next(&q)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n := len(q.Scores)
		aps := make([]float64, len(ms))
		for i, m := range ms {
			labels, scores, w := oneList(t, q.Labels, q.Scores, q.Weights, measures[i].Ragged)
			if err := m.UpdatePerList(&pl, labels, scores, w); err != nil {
				t.Fatalf("qid %s: %v", q.QID, err)
			}
			aps[i] = pl.Values[0]
		}
		res.perQ[q.QID] = aps
		res.queries++
		res.items += n
	}
	for _, m := range ms {
		res.values = append(res.values, m.Result())
	}
	return res
}

// oneList makes a batch of one list, ragged or dense.
func oneList(t testing.TB, lab, sc, w []float64, ragged bool) (labels, scores tensor.Lists, weights tensor.Weights) {
	t.Helper()
	n := len(sc)
	mk := func(v []float64) tensor.Lists {
		v = append(make([]float64, 0, n), v...)
		var l tensor.Lists
		var err error
		if ragged {
			l, err = tensor.Ragged(v, []int{0, n})
		} else {
			l, err = tensor.Dense(v, 1, n)
		}
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	labels, scores = mk(lab), mk(sc)
	if w != nil {
		weights = tensor.PerItem(mk(w))
	}
	return labels, scores, weights
}

// pipelineOut holds what a pipeline run wrote.
type pipelineOut struct {
	report rm.Report
	perQ   map[string][]float64 // qid -> AP per measure
	dead   []rm.DeadLetter
}

// runTSV evaluates TSV files matched by glob on prism and reads back the
// outputs.
func runTSV(t testing.TB, glob string, measures []metric.Config, opts beamio.Options, dedupe rm.Dedupe) pipelineOut {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	rows := beamio.ReadDelimited(s, []string{glob}, '\t', opts)
	lists, err := rm.GroupChunks(s, rows.Output, dedupe)
	if err != nil {
		t.Fatal(err)
	}
	return runAndRead(t, p, s, lists, measures, rows)
}

func runAndRead(t testing.TB, p *beam.Pipeline, s beam.Scope, lists rm.Step, measures []metric.Config, upstream ...rm.Step) pipelineOut {
	t.Helper()
	out, err := rm.Evaluate(s, lists, measures, rm.EvalOptions{}, upstream...)
	if err != nil {
		t.Fatal(err)
	}
	return writeRunRead(t, p, s, out, measures)
}

// writeRunRead writes the outputs, runs the pipeline on prism and reads
// the files back.
func writeRunRead(t testing.TB, p *beam.Pipeline, s beam.Scope, out rm.Outputs, measures []metric.Config) pipelineOut {
	t.Helper()
	var err error
	dir := t.TempDir()
	paths := rm.Paths{Report: filepath.Join(dir, "report.json"), PerQuery: filepath.Join(dir, "perq.tsv"), DeadLetters: filepath.Join(dir, "dead.jsonl")}
	if err := rm.Write(s, out, measures, paths); err != nil {
		t.Fatal(err)
	}
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var res pipelineOut
	if res.report, err = rm.ReadReport(ctx, paths.Report); err != nil {
		t.Fatal(err)
	}
	if res.dead, err = rm.ReadDeadLetters(ctx, paths.DeadLetters); err != nil {
		t.Fatal(err)
	}
	res.perQ = readPerQuery(t, paths.PerQuery, measures)
	return res
}

func readPerQuery(t testing.TB, path string, measures []metric.Config) map[string][]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, c := range measures {
		idx[c.Name] = i
	}
	out := map[string][]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("per-query line %q", line)
		}
		v, ok := out[f[1]]
		if !ok {
			v = make([]float64, len(measures))
			for i := range v {
				v[i] = math.NaN()
			}
			out[f[1]] = v
		}
		var ap float64
		if _, err := fmt.Sscan(f[2], &ap); err != nil {
			t.Fatal(err)
		}
		v[idx[f[0]]] = ap
	}
	return out
}
