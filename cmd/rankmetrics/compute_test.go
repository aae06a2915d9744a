package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// computeChildEnv makes the test binary run main, as the child process of
// TestComputeInterrupt.
const computeChildEnv = "RANKMETRICS_COMPUTE_CHILD"

// TestHelperProcessCompute is not a test: it is the rankmetrics process
// TestComputeInterrupt starts, running "rankmetrics compute".
func TestHelperProcessCompute(t *testing.T) {
	if os.Getenv(computeChildEnv) != "1" {
		t.Skip("not a test: the child process of TestComputeInterrupt")
	}
	os.Args = []string{"rankmetrics", "compute"}
	main()
	os.Exit(0)
}

// TestComputeInterrupt runs rankmetrics compute as a process fed through a
// pipe: it answers a case while stdin stays open, and ends promptly on
// SIGINT while it waits for the next line, with exit status 1 and a message
// that says how many answers were written.
func TestComputeInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("os.Interrupt cannot be sent to a process on Windows")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessCompute$")
	cmd.Env = append(os.Environ(), computeChildEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// Labels {0, 1, 1} scored {3, 2, 1} with topn 2: one relevant item at
	// rank 2 of two relevant, AP (1/2)/2.
	if _, err := io.WriteString(stdin, `{"id":"x","topn":2,"ties":"stable","updates":[{"labels":[[0,1,1]],"predictions":[[3,2,1]]}]}`+"\n"); err != nil {
		t.Fatal(err)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if want := `{"id":"x","result":0.25,"per_list":[[0.25]],"list_weights":[[1]]}` + "\n"; s != want {
			t.Fatalf("answer %q, want %q", s, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no answer 20 s after the case while stdin is open; stderr %q", stderr.String())
	}
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("exit %v, want status 1", err)
		}
		if got, want := stderr.String(), "rankmetrics: compute: interrupted after 1 answers, each written: interrupt signal received\n"; got != want {
			t.Fatalf("stderr %q, want %q", got, want)
		}
		t.Logf("ended %v after SIGINT", time.Since(start))
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGINT while waiting on stdin")
	}
}

// TestComputeReadmeExample pastes the compute example of README.md into
// compute and checks the answer README.md gives, worked out by hand in
// TestComputeInterrupt.
func TestComputeReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## The `compute` interface")
	if start < 0 {
		t.Fatal("README.md has no compute section")
	}
	section := text[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	m := regexp.MustCompile("(?s)```(?:json|sh|text)\n(.*?)```").FindAllStringSubmatch(section, -1)
	if len(m) == 0 {
		t.Fatal("no code block in README's compute section")
	}
	var in, wantOut string
	for _, block := range m {
		for _, l := range strings.Split(strings.TrimSpace(block[1]), "\n") {
			switch {
			case strings.HasPrefix(l, "echo '"):
				in = strings.TrimSuffix(strings.TrimPrefix(l, "echo '"), "' | rankmetrics compute")
			case strings.HasPrefix(l, `{"id"`) && strings.Contains(l, `"result"`):
				wantOut = l
			}
		}
	}
	if in == "" || wantOut != `{"id":"a","result":0.25,"per_list":[[0.25]],"list_weights":[[1]]}` {
		t.Fatalf("README's example is not an echo line and its answer: input %q, answer %q", in, wantOut)
	}
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"compute"}, strings.NewReader(in+"\n"), &out, &errOut); err != nil {
		t.Fatal(err, errOut.String())
	}
	if got := strings.TrimSpace(out.String()); got != wantOut {
		t.Fatalf("README example answers %s; README says %s", got, wantOut)
	}
	// compute -h shows the same example.
	out.Reset()
	errOut.Reset()
	if err := run(context.Background(), []string{"compute", "-h"}, nil, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), in) || !strings.Contains(out.String(), wantOut) {
		t.Fatalf("compute -h does not show README's example:\n%s", out.String())
	}
}

// TestComputeErrorsReadable: an answer writes <, > and & as they are, not
// as \u003c, \u003e, \u0026, and stays one valid JSON object per line that
// decodes to the id sent, whatever the bytes of the id.
func TestComputeErrorsReadable(t *testing.T) {
	cases := []struct {
		in, want, id string
	}{
		{`{"id":"a<b>&c","topn":-1,"updates":[]}`, `{"id":"a<b>&c","error":`, "a<b>&c"},
		{`{"id":"x","metric":"x>y","updates":[]}`, `\"x>y\": not a TF-Ranking metric key`, "x"},
		{`{"id":"\u2028<\t\"\\","metric":"&","updates":[]}`, `\"&\": not a TF-Ranking metric key`, "\u2028<\t\"\\"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		if err := runCompute(context.Background(), nil, strings.NewReader(c.in+"\n"), &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		line := strings.TrimSuffix(out.String(), "\n")
		if !strings.Contains(line, c.want) || strings.Contains(line, `\u003`) || strings.Contains(line, `\u0026`) {
			t.Errorf("%s: answer %s, want %s and no \\u003c, \\u003e, \\u0026", c.in, line, c.want)
		}
		var a struct{ ID, Error string }
		if err := json.Unmarshal([]byte(line), &a); err != nil || a.ID != c.id || a.Error == "" || strings.Contains(line, "\n") {
			t.Errorf("%s: answer %q is not one JSON object with id %q and an error: %v", c.in, line, c.id, err)
		}
	}
}
