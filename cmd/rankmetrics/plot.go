package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric"
)

// plotData is what --plot draws: a title, MAP@k for k = 1 .. K, and the
// histogram of the per-query values of one measure.
type plotData struct {
	// Title names the run and gives the overall value of the histogram's
	// measure.
	Title string
	// K holds 1 .. min(--plot-k, the longest list): MAP@k does not change
	// past the longest list. MAPAtK holds MAP@k for each.
	K      []int
	MAPAtK []float64
	// KNote, when set, says why the curve stops before --plot-k.
	KNote string
	// Measure is the histogram's measure.
	Measure string
	// Bins are the histogram's bins. For a measure whose values are all
	// multiples of 1/D (D <= evaluate.HistBins; P_10 has D = 10) there is
	// one bin per multiple, centred on it, min(1/D, 0.1) wide; otherwise
	// evaluate.HistBins equal bins over [0, 1].
	Bins []plotBin
	// Lattice is D, or 0 for equal bins.
	Lattice int
	// Above1 is the largest value when it is above 1 (arp, dcg): those
	// values are counted in the last equal bin.
	Above1 float64
}

// plotBin is one bar of the histogram.
type plotBin struct {
	Min, Max float64
	Count    int64
}

// runName is the name of the run in the plot's title: the run file of a
// TREC pair, or the input file, as textCell writes it.
func (o *evalOptions) runName() string {
	p := o.paths[len(o.paths)-1]
	if p == "-" {
		return "standard input"
	}
	return textCell(filepath.Base(p))
}

// plot returns what --plot draws of res.
func (o *evalOptions) plot(res *evaluate.Result) plotData {
	m := o.measures[res.HistMeasure]
	p := plotData{
		Measure: textCell(m.Name),
		Title: fmt.Sprintf("%s: %s = %s over %d queries", o.runName(), textCell(m.Name),
			evaluate.FormatValue(res.Values[res.HistMeasure], m.ValueDType(o.cfg.DType)), res.Evaluated),
	}
	n := min(len(res.Curve), res.Longest)
	if n < len(res.Curve) {
		p.KNote = fmt.Sprintf(" (the longest list has %d %s)", n, plural(int64(n), "item", "items"))
	}
	p.MAPAtK = res.Curve[:n]
	for k := range n {
		p.K = append(p.K, k+1)
	}
	prefer := 0
	if m.Family != nil && m.Family.Kind == metric.KindPrecision {
		prefer = m.TopN
	}
	if d := lattice(res.HistValues, prefer); d > 0 {
		p.Lattice = d
		counts := make([]int64, d+1)
		for v, c := range res.HistValues {
			counts[int(math.Round(v*float64(d)))] += c
		}
		// Bars as wide as the step, but no wider than a tenth: the two
		// bars of hits@1 stand at 0 and 1, not over the whole axis.
		half := min(1/float64(d), 0.1) / 2
		for i, c := range counts {
			x := float64(i) / float64(d)
			p.Bins = append(p.Bins, plotBin{Min: x - half, Max: x + half, Count: c})
		}
		return p
	}
	for i, c := range res.Hist {
		p.Bins = append(p.Bins, plotBin{Min: float64(i) / evaluate.HistBins, Max: float64(i+1) / evaluate.HistBins, Count: c})
	}
	if res.HistMax > 1 {
		p.Above1 = res.HistMax
	}
	return p
}

// lattice returns the D of plotData.Bins for the distinct values of a
// measure (nil when there are too many): prefer (a precision's cutoff)
// when every value is a multiple of 1/prefer, else the smallest D <=
// evaluate.HistBins for which every value is; 0 when there is none. Values
// may be float32 results, so "a multiple" allows a float32 rounding.
func lattice(values map[float64]int64, prefer int) int {
	if len(values) == 0 {
		return 0
	}
	fits := func(d int) bool {
		for v := range values {
			i := math.Round(v * float64(d))
			if i < 0 || i > float64(d) || math.Abs(v-i/float64(d)) > 1e-6 {
				return false
			}
		}
		return true
	}
	if prefer >= 1 && prefer <= evaluate.HistBins && fits(prefer) {
		return prefer
	}
	for d := 1; d <= evaluate.HistBins; d++ {
		if fits(d) {
			return d
		}
	}
	return 0
}

// niceStep returns the smallest of 1, 2, 5, 10, 20, 50... that is >= x.
func niceStep(x float64) float64 { return niceStep10(1, x) }

// kTicks marks k = 1 and every few k up to its maximum with labels, and
// every k with unlabelled ticks while they are not too dense.
type kTicks struct{}

// Ticks implements plot.Ticker.
func (kTicks) Ticks(lo, hi float64) []plot.Tick {
	n := int(math.Floor(hi))
	step := int(niceStep(float64(n) / 8))
	var ts []plot.Tick
	for k := 1; k <= n; k++ {
		switch {
		case k == 1 || k%step == 0:
			ts = append(ts, plot.Tick{Value: float64(k), Label: strconv.Itoa(k)})
		case n <= 50:
			ts = append(ts, plot.Tick{Value: float64(k)})
		}
	}
	return ts
}

// countTicks marks whole numbers of queries, from 0 to the axis maximum.
type countTicks struct{}

// Ticks implements plot.Ticker.
func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep(hi / 5)
	var ts []plot.Tick
	for v := 0.0; v <= hi+step/2; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return ts
}

// stepTicks labels the multiples of a round step (1, 2 or 5 times a power
// of ten) inside the axis, so that 0 is a tick whenever the axis spans it.
type stepTicks struct{}

// Ticks implements plot.Ticker.
func (stepTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 3, 64)}}
	}
	x := (hi - lo) / 8
	step := niceStep10(math.Pow(10, math.Floor(math.Log10(x))), x)
	var ts []plot.Tick
	for i := math.Ceil(lo / step); i*step <= hi; i++ {
		v := i * step
		if v == 0 {
			v = 0 // no "-0" label
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 3, 64)})
	}
	return ts
}

// niceStep10 returns the least of 1, 2 or 5 times a power of ten, from
// unit upwards, that is at least x.
func niceStep10(unit, x float64) float64 {
	for {
		for _, m := range []float64{1, 2, 5} {
			if m*unit >= x {
				return m * unit
			}
		}
		unit *= 10
	}
}

// latticeTicks labels the multiples of 1/d, or every few of them.
type latticeTicks struct{ d int }

// Ticks implements plot.Ticker.
func (t latticeTicks) Ticks(lo, hi float64) []plot.Tick {
	every := (t.d + 9) / 10
	var ts []plot.Tick
	for i := 0; i <= t.d; i++ {
		tk := plot.Tick{Value: float64(i) / float64(t.d)}
		if i%every == 0 || i == t.d {
			tk.Label = strconv.FormatFloat(tk.Value, 'g', 3, 64)
		}
		ts = append(ts, tk)
	}
	return ts
}

// unitTicks labels 0, 0.2, ..., 1 and marks the edges of the equal bins.
type unitTicks struct{}

// Ticks implements plot.Ticker.
func (unitTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for i := 0; i <= evaluate.HistBins; i++ {
		tk := plot.Tick{Value: float64(i) / evaluate.HistBins}
		if i%4 == 0 {
			tk.Label = strconv.FormatFloat(tk.Value, 'g', 3, 64)
		}
		ts = append(ts, tk)
	}
	return ts
}

// plot size in pixels, and the height of the title band.
const (
	plotWidthPx  = 1200
	plotHeightPx = 500
	plotDPI      = 100
	titleHeight  = 9 * vg.Millimeter
)

// writePlot draws the title, then the MAP@k curve and the histogram side
// by side.
func writePlot(path string, d plotData) error {
	curve := plot.New()
	curve.Title.Text = "MAP@k"
	curve.X.Label.Text = "k" + d.KNote
	curve.Y.Label.Text = "MAP@k"
	curve.X.Tick.Marker = kTicks{}
	pts := make(plotter.XYs, len(d.K))
	for i := range d.K {
		pts[i].X, pts[i].Y = float64(d.K[i]), d.MAPAtK[i]
	}
	line, dots, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	line.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	dots.Color = line.Color
	curve.Add(line, dots, plotter.NewGrid())
	curve.Y.Min = 0
	curve.X.Min, curve.X.Max = 1, float64(max(len(d.K), 1))
	if len(d.K) <= 1 {
		curve.X.Min, curve.X.Max = 0.5, 1.5
	}

	hist := plot.New()
	hist.Title.Text = "per-query " + d.Measure
	hist.X.Label.Text = d.Measure
	hist.Y.Label.Text = "queries"
	h := &plotter.Histogram{FillColor: color.RGBA{R: 255, G: 127, B: 14, A: 255}}
	h.LineStyle.Width = vg.Points(0.5)
	h.LineStyle.Color = color.Black
	var most int64
	for _, b := range d.Bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: b.Min, Max: b.Max, Weight: float64(b.Count)})
		most = max(most, b.Count)
	}
	h.Width = d.Bins[0].Max - d.Bins[0].Min
	hist.Add(h)
	hist.X.Min, hist.X.Max = min(d.Bins[0].Min, 0), max(d.Bins[len(d.Bins)-1].Max, 1)
	hist.X.Tick.Marker = unitTicks{}
	if d.Lattice > 0 {
		hist.X.Tick.Marker = latticeTicks{d.Lattice}
		hist.X.Label.Text += fmt.Sprintf(" (one bar per multiple of 1/%d)", d.Lattice)
	}
	if d.Above1 > 0 {
		hist.X.Label.Text += fmt.Sprintf(" (the last bar also counts the values above 1, up to %.4g)", d.Above1)
	}
	step := niceStep(float64(max(most, 1)) / 5)
	hist.Y.Min, hist.Y.Max = 0, step*math.Ceil(float64(max(most, 1))/step)
	hist.Y.Tick.Marker = countTicks{}

	img := vgimg.NewWith(vgimg.UseWH(vg.Length(plotWidthPx)/plotDPI*vg.Inch, vg.Length(plotHeightPx)/plotDPI*vg.Inch), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	dc.FillText(text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, 14),
		XAlign:  draw.XCenter,
		YAlign:  draw.YTop,
		Handler: plot.DefaultTextHandler,
	}, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - 2*vg.Millimeter}, d.Title)
	body := draw.Crop(dc, 0, 0, 0, -titleHeight)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Millimeter * 8, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	canvases := plot.Align([][]*plot.Plot{{curve, hist}}, tiles, body)
	curve.Draw(canvases[0][0])
	hist.Draw(canvases[0][1])
	return writePNG(path, img)
}

// writePNG writes img to the file path as a PNG.
func writePNG(path string, img *vgimg.Canvas) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
