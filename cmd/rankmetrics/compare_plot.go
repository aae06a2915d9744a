package main

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// maxPlotPanels bounds the panels of --plot (runs x measures).
const maxPlotPanels = 64

// plotPanels returns the comparisons drawn by --plot: those with the
// baseline (with --all-pairs, with the first run), by measure then run.
func (r *compareReport) plotPanels() [][]*comparison {
	ref := max(r.base, 0)
	grid := make([][]*comparison, len(r.o.measures))
	for _, c := range r.comps {
		if c.base == ref {
			grid[c.measure] = append(grid[c.measure], c)
		}
	}
	return grid
}

// writeComparePlot draws, for every run and measure, the per-query
// differences run - baseline sorted increasingly, with the zero line and
// the mean difference.
func writeComparePlot(path string, r *compareReport, values [][][]float64) error {
	grid := r.plotPanels()
	rows, cols := len(grid), len(grid[0])
	if rows*cols > maxPlotPanels {
		return fmt.Errorf("%d runs x %d measures = %d panels; at most %d (compare fewer runs or measures)", cols, rows, rows*cols, maxPlotPanels)
	}
	plots := make([][]*plot.Plot, rows)
	for m, line := range grid {
		for _, c := range line {
			base, run := values[c.base][m], values[c.run][m]
			d := make([]float64, len(run))
			for i := range run {
				d[i] = run[i] - base[i]
			}
			slices.Sort(d)
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s - %s, %s", textCell(r.runs[c.run].name), textCell(r.runs[c.base].name), textCell(r.o.measures[m].Name))
			p.X.Label.Text = "queries, sorted by difference"
			p.Y.Label.Text = "difference"
			// wins above the zero line in green, losses below in red
			up, down := plotter.XYs{{X: 0.5, Y: 0}}, plotter.XYs{{X: 0.5, Y: 0}}
			for i, v := range d {
				x := float64(i + 1)
				up = append(up, plotter.XY{X: x - 0.5, Y: max(v, 0)}, plotter.XY{X: x + 0.5, Y: max(v, 0)})
				down = append(down, plotter.XY{X: x - 0.5, Y: min(v, 0)}, plotter.XY{X: x + 0.5, Y: min(v, 0)})
			}
			up = append(up, plotter.XY{X: float64(len(d)) + 0.5, Y: 0})
			down = append(down, plotter.XY{X: float64(len(d)) + 0.5, Y: 0})
			wins, err := plotter.NewPolygon(up)
			if err != nil {
				return err
			}
			wins.Color = color.NRGBA{R: 44, G: 160, B: 44, A: 200}
			wins.LineStyle.Width = 0
			losses, err := plotter.NewPolygon(down)
			if err != nil {
				return err
			}
			losses.Color = color.NRGBA{R: 214, G: 39, B: 40, A: 200}
			losses.LineStyle.Width = 0
			zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: float64(len(d) + 1), Y: 0}})
			if err != nil {
				return err
			}
			zero.Color = color.Black
			mean, err := plotter.NewLine(plotter.XYs{{X: 0, Y: c.sum.Diff}, {X: float64(len(d) + 1), Y: c.sum.Diff}})
			if err != nil {
				return err
			}
			mean.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
			mean.Width = vg.Points(1.5)
			mean.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(plotter.NewGrid(), wins, losses, zero, mean)
			p.Legend.Add(fmt.Sprintf("mean %+.4f, W/T/L %d/%d/%d", c.sum.Diff, c.sum.Wins, c.sum.Ties, c.sum.Losses), mean)
			p.Legend.Top, p.Legend.Left = true, true
			p.X.Min, p.X.Max = 0, float64(len(d))+1
			if len(d) > 0 {
				lo, hi := min(d[0], 0), max(d[len(d)-1], 0)
				pad := max((hi-lo)*0.05, 1e-9)
				p.Y.Min, p.Y.Max = lo-pad, hi+pad
			}
			p.Y.Tick.Marker = stepTicks{}
			plots[m] = append(plots[m], p)
		}
	}
	const panelW, panelH = 500, 360
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols*panelW)/plotDPI*vg.Inch, vg.Length(rows*panelH)/plotDPI*vg.Inch), vgimg.UseDPI(plotDPI))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 6, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 4}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		for j := range plots[i] {
			plots[i][j].Draw(canvases[i][j])
		}
	}
	return writePNG(path, img)
}
