// Command trecgen writes the data sets of package trecgen for a seed:
// DIR/NAME.qrels and DIR/NAME.run for each named data set.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rankmetrics/rankmetrics/internal/trecgen"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	dir := flag.String("out", ".", "output directory")
	flag.Parse()
	for _, s := range trecgen.Sets {
		d := trecgen.Generate(*seed+s.SeedOffset, s.Options)
		for ext, b := range map[string][]byte{".qrels": d.Qrels, ".run": d.Run} {
			if err := os.WriteFile(filepath.Join(*dir, s.Name+ext), b, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "trecgen:", err)
				os.Exit(1)
			}
		}
	}
}
