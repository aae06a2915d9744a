package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	out := flag.String("out", "metric", "the directory of package metric")
	verify := flag.Bool("verify", false, "compare the generated files with those on disk instead of writing them")
	flag.Parse()
	if err := run(*out, *verify); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// errStale is returned by run in verify mode when a file differs.
var errStale = errors.New("generated files are stale; run go generate ./metric")

func run(dir string, verify bool) error {
	files, err := render()
	if err != nil {
		return err
	}
	var stale []string
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if verify {
			old, err := os.ReadFile(path)
			if err != nil || !bytes.Equal(old, f.body) {
				stale = append(stale, path)
			}
			continue
		}
		if err := os.WriteFile(path, f.body, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%v: %w", stale, errStale)
	}
	return nil
}
