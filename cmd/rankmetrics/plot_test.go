package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/runio"
)

// plotOf runs eval with args (which hold --plot) and returns what it
// plotted, computed again from the same command line.
func plotOf(t *testing.T, args ...string) plotData {
	t.Helper()
	o, _, err := parseEvalArgs(append([]string{"--quiet"}, args...), &bytes.Buffer{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := runio.Open(context.Background(), o.paths, o.read)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var sink bytes.Buffer
	res, err := evaluate.Run(context.Background(), r, o.engineOptions(newReporter(bufio.NewWriter(&sink), o), nil))
	if err != nil {
		t.Fatal(err)
	}
	return o.plot(res)
}

// decodePNG reads the PNG eval wrote and checks its size and that it is
// not blank.
func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pic, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := pic.Bounds(); b.Dx() != plotWidthPx || b.Dy() != plotHeightPx {
		t.Errorf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), plotWidthPx, plotHeightPx)
	}
	colours := map[[4]uint32]bool{}
	for y := 0; y < plotHeightPx; y += 5 {
		for x := 0; x < plotWidthPx; x += 5 {
			r, g, b, a := pic.At(x, y).RGBA()
			colours[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colours) < 4 {
		t.Errorf("PNG has %d colours; it looks blank", len(colours))
	}
	// The title: dark pixels in the middle of the top band, none at its
	// far left.
	dark := func(x0, x1 int) int {
		n := 0
		for y := 0; y < 30; y++ {
			for x := x0; x < x1; x++ {
				if r, g, b, _ := pic.At(x, y).RGBA(); r+g+b < 3*0x8000 {
					n++
				}
			}
		}
		return n
	}
	if dark(plotWidthPx/2-100, plotWidthPx/2+100) < 50 || dark(0, 100) != 0 {
		t.Errorf("no centred title in the top band of the PNG")
	}
	return pic
}

// perQueryValues returns the -q values of measure m, by qid, as eval
// prints them.
func perQueryValues(t *testing.T, m string, args ...string) map[string]float64 {
	t.Helper()
	r := evalJSONOf(t, append([]string{"-q", "-m", m}, args...)...)
	vs := map[string]float64{}
	for _, row := range r.PerQuery {
		vs[row["qid"].(string)] = row[m].(float64)
	}
	return vs
}

// TestEvalPlot: the plotted numbers are the ones eval reports: MAP@k from
// separate runs, the histogram from -q values, the title from the summary.
func TestEvalPlot(t *testing.T) {
	dir := t.TempDir()
	p := writeData(t, dir, "p.tsv", randomQueries(5, 400, false))
	img := filepath.Join(dir, "out.png")
	mustEval(t, "--ties", "stable", "--plot", img, "--plot-k", "6", p)
	decodePNG(t, img)

	d := plotOf(t, "--ties", "stable", "--plot", img, "--plot-k", "6", p)
	if !slices.Equal(d.K, []int{1, 2, 3, 4, 5, 6}) || d.KNote != "" {
		t.Fatalf("plot k %v %q", d.K, d.KNote)
	}
	for i, k := range d.K {
		m := fmt.Sprintf("map@%d", k)
		want := evalJSONOf(t, "--ties", "stable", "-m", m, p).Measures[m]
		// The report prints float32 values shortest; compare as float32.
		if float32(d.MAPAtK[i]) != float32(want) {
			t.Errorf("plotted MAP@%d = %v, eval -m %s gives %v", k, d.MAPAtK[i], m, want)
		}
	}
	values := perQueryValues(t, "map", "--ties", "stable", p)
	counts := make([]int64, evaluate.HistBins)
	for _, v := range values {
		b := int(math.Floor(float64(float32(v)) * evaluate.HistBins))
		counts[min(b, evaluate.HistBins-1)]++
	}
	if d.Lattice != 0 || len(d.Bins) != evaluate.HistBins {
		t.Fatalf("map of random lists: lattice %d, %d bins; want %d equal bins", d.Lattice, len(d.Bins), evaluate.HistBins)
	}
	for i, b := range d.Bins {
		if b.Count != counts[i] || b.Min != float64(i)/20 || b.Max != float64(i+1)/20 {
			t.Errorf("bin %d: %+v, want [%v, %v) with %d queries", i, b, float64(i)/20, float64(i+1)/20, counts[i])
		}
	}
	overall := evalJSONOf(t, "--ties", "stable", p).Measures["map"]
	if want := "p.tsv: map = " + strconv.FormatFloat(overall, 'g', -1, 32) + " over 400 queries"; d.Title != want {
		t.Errorf("title %q, want %q", d.Title, want)
	}
}

// TestEvalPlotDiscreteBins: a measure whose values are multiples of 1/D
// gets one bin per multiple, centred on it, min(1/D, 0.1) wide: P_10 over
// lists of at least 10 items has the 11 values 0, 0.1, ..., 1; hits@1 has
// 0 and 1.
func TestEvalPlotDiscreteBins(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(8, 8))
	var b strings.Builder
	b.WriteString("qid\tdoc\tlabel\tscore\n")
	for q := range 300 {
		rel := r.Float64() // each query its own share of relevant items
		for i := range 10 + r.IntN(15) {
			l := 0
			if r.Float64() < rel {
				l = 1
			}
			fmt.Fprintf(&b, "%04d\td%d\t%d\t%d\n", q, i, l, r.IntN(1000))
		}
	}
	in := writeTemp(t, dir, "d.tsv", b.String())
	img := filepath.Join(dir, "d.png")
	for _, tc := range []struct {
		measure string
		d       int
	}{{"P_10", 10}, {"precision@4", 4}, {"hits@1", 1}} {
		args := []string{"--ties", "stable", "--plot", img, "-m", tc.measure, in}
		mustEval(t, args...)
		decodePNG(t, img)
		d := plotOf(t, args...)
		if d.Lattice != tc.d || len(d.Bins) != tc.d+1 {
			t.Fatalf("%s: lattice %d, %d bins; want %d bins, one per multiple of 1/%d", tc.measure, d.Lattice, len(d.Bins), tc.d+1, tc.d)
		}
		want := make([]int64, tc.d+1)
		for qid, v := range perQueryValues(t, tc.measure, "--ties", "stable", in) {
			i := math.Round(v * float64(tc.d))
			if math.Abs(v-i/float64(tc.d)) > 1e-6 {
				t.Fatalf("%s: query %s has %v, not a multiple of 1/%d", tc.measure, qid, v, tc.d)
			}
			want[int(i)]++
		}
		distinct := 0
		for i, bin := range d.Bins {
			centre := float64(i) / float64(tc.d)
			if math.Abs((bin.Min+bin.Max)/2-centre) > 1e-12 || math.Abs(bin.Max-bin.Min-min(1/float64(tc.d), 0.1)) > 1e-12 || bin.Count != want[i] {
				t.Errorf("%s: bin %d %+v, want centred on %v, %d queries", tc.measure, i, bin, centre, want[i])
			}
			if bin.Count > 0 {
				distinct++
			}
		}
		if distinct < min(tc.d+1, 4) {
			t.Errorf("%s: only %d values occur: the case does not test the bins", tc.measure, distinct)
		}
	}
}

// TestEvalPlotCurveStops: the MAP@k curve ends at the longest list.
func TestEvalPlotCurveStops(t *testing.T) {
	dir := t.TempDir()
	in := writeTemp(t, dir, "s.tsv", "qid\tlabel\tscore\n1\t0\t3\n1\t1\t2\n1\t0\t1\n2\t1\t1\n")
	img := filepath.Join(dir, "s.png")
	mustEval(t, "--plot", img, "--plot-k", "10", in)
	decodePNG(t, img)
	d := plotOf(t, "--ties", "stable", "--plot", img, "--plot-k", "10", in)
	// q1: AP@1 0, AP@2 (1/2)/1, AP@3 the same; q2: 1 from k = 1.
	if !slices.Equal(d.K, []int{1, 2, 3}) || !slices.Equal(d.MAPAtK, []float64{0.5, 0.75, 0.75}) || d.KNote != " (the longest list has 3 items)" {
		t.Errorf("curve k %v, MAP@k %v, note %q; want k 1..3, 0.5 0.75 0.75", d.K, d.MAPAtK, d.KNote)
	}
}

// TestPlotTicks: k = 1 and every few k are labelled; query counts are
// whole numbers.
func TestPlotTicks(t *testing.T) {
	labels := func(ts []plot.Tick) []string {
		var ls []string
		for _, tk := range ts {
			if tk.Label != "" {
				ls = append(ls, tk.Label)
			}
		}
		return ls
	}
	tests := []struct {
		name string
		got  []plot.Tick
		want []string
	}{
		{"k 1..6", kTicks{}.Ticks(1, 6), []string{"1", "2", "3", "4", "5", "6"}},
		{"k 1..20", kTicks{}.Ticks(1, 20), []string{"1", "5", "10", "15", "20"}},
		{"k 1..1000", kTicks{}.Ticks(1, 1000), []string{"1", "200", "400", "600", "800", "1000"}},
		{"k 1..1", kTicks{}.Ticks(0.5, 1.5), []string{"1"}},
		{"counts to 1", countTicks{}.Ticks(0, 1), []string{"0", "1"}},
		{"counts to 3", countTicks{}.Ticks(0, 3), []string{"0", "1", "2", "3"}},
		{"counts to 15", countTicks{}.Ticks(0, 15), []string{"0", "5", "10", "15"}},
		{"counts to 800", countTicks{}.Ticks(0, 800), []string{"0", "200", "400", "600", "800"}},
		{"P_10", latticeTicks{10}.Ticks(-0.05, 1.05), []string{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"}},
		{"1/20", latticeTicks{20}.Ticks(0, 1), []string{"0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1"}},
		{"equal bins", unitTicks{}.Ticks(0, 1), []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
	}
	for _, tc := range tests {
		if got := labels(tc.got); !slices.Equal(got, tc.want) {
			t.Errorf("%s: labels %v, want %v", tc.name, got, tc.want)
		}
	}
	// Every k up to 50 has a tick.
	if n := len(kTicks{}.Ticks(1, 50)); n != 50 {
		t.Errorf("%d ticks for k 1..50, want 50", n)
	}
}

func TestStepTicks(t *testing.T) {
	// Steps worked by hand: the span over 8, rounded up to 1, 2 or 5 times
	// a power of ten; ticks at the multiples inside the axis.
	for _, c := range []struct {
		lo, hi float64
		want   []float64
	}{
		{-0.19, 0.45, []float64{-0.1, 0, 0.1, 0.2, 0.3, 0.4}},                           // span/8 = 0.08 -> 0.1
		{0, 30, []float64{0, 5, 10, 15, 20, 25, 30}},                                    // 3.75 -> 5
		{-0.004, 0.011, []float64{-0.004, -0.002, 0, 0.002, 0.004, 0.006, 0.008, 0.01}}, // 0.001875 -> 0.002
		{0.5, 0.5, []float64{0.5}},
	} {
		var got []float64
		for _, tk := range (stepTicks{}).Ticks(c.lo, c.hi) {
			got = append(got, math.Round(tk.Value*1e9)/1e9)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Ticks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
}
