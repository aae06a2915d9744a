package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/rankmetrics/rankmetrics/measure"
)

// writeMeasures prints the measure registry: every name form, the
// reference it follows, how its overall value is formed and its
// definition, for "rankmetrics help measures".
func writeMeasures(w io.Writer) error {
	fmt.Fprintln(w, `Measure names of eval, compare and Beam (-m), one definition each. Names are
case-sensitive; K is a cutoff. An unknown name is answered with the nearest
names of every family. compute's "metric" key takes TF-Ranking's keys.`)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "names\tfamily\tsummary\tdefinition")
	for _, d := range measure.Defs() {
		fam := d.Family.String()
		if d.V10Only {
			fam += " 10.0"
		}
		forms := strings.Join(d.Forms, " ")
		if d.TrecEvalOnly {
			forms = "(trec_eval -m " + d.Key + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", forms, fam, d.Summary, d.Doc)
	}
	return tw.Flush()
}
