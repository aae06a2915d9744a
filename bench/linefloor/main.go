// Command linefloor measures the I/O floor of bench/run.sh: the time one
// core takes to read the given files and find every line end in them
// (read calls into a 1 MiB buffer, bytes.Count of '\n', which runs at
// memchr speed), with the page cache warm. It prints one JSON line for
// bench/py/table.py: the median of -reps runs after one warm-up run, the
// runs, the bytes and the lines.
//
//	linefloor -what "floor trec pair" -reps 5 qrels.txt run.txt
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

func main() {
	what := flag.String("what", "floor read + line ends", "the row's name")
	reps := flag.Int("reps", 5, "timed runs (after one warm-up run)")
	flag.Parse()
	if flag.NArg() == 0 || *reps < 1 {
		fmt.Fprintln(os.Stderr, "usage: linefloor [-what NAME] [-reps N] FILE...")
		os.Exit(2)
	}
	buf := make([]byte, 1<<20)
	var size, lines int64
	var runs []float64
	for r := -1; r < *reps; r++ {
		start := time.Now()
		size, lines = 0, 0
		for _, path := range flag.Args() {
			n, l, err := scan(path, buf)
			if err != nil {
				fmt.Fprintln(os.Stderr, "linefloor:", err)
				os.Exit(1)
			}
			size += n
			lines += l
		}
		if r >= 0 {
			runs = append(runs, time.Since(start).Seconds())
		}
	}
	sorted := slices.Clone(runs)
	slices.Sort(sorted)
	out, _ := json.Marshal(map[string]any{
		"peer": "floor-io", "what": *what, "seconds": sorted[len(sorted)/2], "runs": runs,
		"bytes": size, "lines": lines,
	})
	fmt.Println(string(out))
}

// scan reads the file at path through buf and counts its '\n' bytes.
func scan(path string, buf []byte) (size, lines int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	for {
		n, err := f.Read(buf)
		size += int64(n)
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		if err == io.EOF {
			return size, lines, nil
		}
		if err != nil {
			return size, lines, err
		}
	}
}
