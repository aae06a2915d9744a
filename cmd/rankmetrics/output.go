package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// pngSignature is the first eight bytes of every PNG file.
var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// plotPathHelp is what -h says of the file of --plot.
const plotPathHelp = `The file of --plot is checked before the first input line is read: it must
not be one of the inputs (by path or by identity, through symbolic and hard
links), its folder must exist, and an existing file is replaced only when it
is a PNG (it starts with the PNG signature) or empty; remove any other file
first, or name another.`

// checkPlotPath returns an error, naming --plot, when the PNG of --plot
// could not, or must not, be written to path: path is "-", one of inputs
// (the same path once cleaned and made absolute, or the same file through
// any link), a folder or another non-regular file, an existing file that
// is neither empty nor a PNG, or a file in a folder that does not exist or
// cannot be written. It creates and removes a probe file in the folder of
// a path that does not exist yet.
func checkPlotPath(path string, inputs []string) error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("--plot %q: %s", path, fmt.Sprintf(format, a...))
	}
	if path == "-" {
		return bad("the plot is a PNG file, not standard output; name a file")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return bad("%v", err)
	}
	st, statErr := os.Stat(path)
	for _, in := range inputs {
		if in == "-" {
			continue
		}
		same := false
		if a, err := filepath.Abs(in); err == nil && a == abs {
			same = true
		} else if statErr == nil {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				same = true
			}
		}
		if same {
			return bad("this is the input %q: the plot would overwrite it; name another file", in)
		}
	}
	switch {
	case errors.Is(statErr, fs.ErrNotExist):
		dir := filepath.Dir(path)
		dst, err := os.Stat(dir)
		if err != nil || !dst.IsDir() {
			return bad("the folder %q does not exist; create it first, or name a file in an existing folder", dir)
		}
		probe, err := os.CreateTemp(dir, ".rankmetrics-plot-*")
		if err != nil {
			return bad("cannot create a file in the folder %q: %v", dir, err)
		}
		probe.Close()
		os.Remove(probe.Name())
		return nil
	case statErr != nil:
		return bad("%v", statErr)
	case st.IsDir():
		return bad("this is a folder; name a file in it, e.g. %q", filepath.Join(path, "plot.png"))
	case !st.Mode().IsRegular():
		return bad("this is not a regular file (%s); name a file", st.Mode().Type())
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return bad("cannot write this file: %v", err)
	}
	defer f.Close()
	head := make([]byte, len(pngSignature))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil // empty: nothing is lost
	}
	if !bytes.Equal(head[:n], pngSignature) {
		return bad("this file exists and is not a PNG image; rankmetrics replaces only PNG files: remove it first, or name another file")
	}
	return nil
}
