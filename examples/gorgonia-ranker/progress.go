package main

import (
	"fmt"
	"io"
	"strings"
)

// progressBar draws a one-line progress bar, redrawn in place with '\r'.
type progressBar struct {
	w      io.Writer
	prefix string
	width  int
	drawn  int // length of the last line drawn
}

// newProgressBar returns a bar that writes to w; a nil w draws nothing.
func newProgressBar(w io.Writer, prefix string) *progressBar {
	return &progressBar{w: w, prefix: prefix, width: 30}
}

// update redraws the bar for done of total steps.
func (p *progressBar) update(done, total int, loss float64) {
	if p.w == nil || total <= 0 {
		return
	}
	fill := p.width * done / total
	head := ""
	if fill < p.width {
		head = ">"
	}
	line := fmt.Sprintf("%s [%s%s%s] %d/%d loss %.4f", p.prefix,
		strings.Repeat("=", fill), head, strings.Repeat(" ", max(p.width-fill-len(head), 0)), done, total, loss)
	fmt.Fprintf(p.w, "\r%s", line)
	p.drawn = len(line)
}

// done erases the bar.
func (p *progressBar) done() {
	if p.w == nil || p.drawn == 0 {
		return
	}
	fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.drawn))
	p.drawn = 0
}
