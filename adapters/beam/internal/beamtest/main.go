package beamtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

// LoopbackLeak is the name prefix of the empty file Beam's universal runner
// creates in os.TempDir for every pipeline run in loopback mode (prism, in
// process) and never removes (runnerlib/execute.go, Beam 2.77).
const LoopbackLeak = "beamloopbackworker-"

// Main runs the tests of m on prism (unless --runner says otherwise) with
// TMPDIR pointing at a new temporary folder, then the cleanup functions,
// removes that folder, and returns the exit code for os.Exit. Files Beam leaks on every run
// (LoopbackLeak) are removed; anything else the tests leave in the folder
// is listed on stderr and fails the run, so a test or a pipeline that does
// not clean up after itself is caught.
func Main(m *testing.M, cleanup ...func()) int {
	old, had := os.LookupEnv("TMPDIR")
	dir, err := os.MkdirTemp("", "rankmetrics-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	os.Setenv("TMPDIR", dir)
	code := ptest.MainRetWithDefault(m, "prism")
	for _, f := range cleanup {
		f()
	}
	if had {
		os.Setenv("TMPDIR", old)
	} else {
		os.Unsetenv("TMPDIR")
	}
	left, err := Leftovers(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if len(left) > 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the tests left %d temporary files or folders behind: %s\n", len(left), strings.Join(left, " "))
		code = 1
	}
	return code
}

// Leftovers removes Beam's own leaked files (LoopbackLeak) from dir and
// returns the names of the other entries left in it.
func Leftovers(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var left []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), LoopbackLeak) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return nil, err
			}
			continue
		}
		left = append(left, e.Name())
	}
	return left, nil
}
