package beam

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/rankmetrics/rankmetrics/metric"
)

func init() {
	register.Function1x2(formatReport)
	register.Function1x2(formatDeadLetter)
	register.DoFn2x0[QueryValue, func(string)](&formatPerQueryFn{})
	register.Emitter1[string]()
	register.Function1x1(toOutLine)
	register.DoFn4x1[context.Context, int, func(*outLine) bool, func(int), error](&writeFileFn{})
	register.Iter1[outLine]()
	register.Emitter1[int]()
	beam.RegisterType(reflect.TypeOf((*formatPerQueryFn)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf(outLine{}))
}

// Paths names the files Write writes; an empty path is not written. Any
// file system Beam knows works (local paths, gs://, ...). Each is written
// as one file.
type Paths struct {
	// Report receives the Report as one line of JSON.
	Report string
	// PerQuery receives one line per query and measure:
	// "measure<TAB>qid<TAB>value<TAB>weight", numbers in Go's shortest
	// round-trip form.
	PerQuery string
	// DeadLetters receives one DeadLetter per line, as JSON.
	DeadLetters string
}

// outLine is a line to write, or the marker that makes sure the file is
// written even when there is no line.
type outLine struct {
	Line   string
	Marker bool
}

func toOutLine(s string) outLine { return outLine{Line: s} }

// writeLines writes the strings of lines to one file, one per line, in no
// particular order. Unlike textio.Write it also writes an empty file for an
// empty collection, so a missing file always means a failed run.
func writeLines(s beam.Scope, path string, lines beam.PCollection) {
	filesystem.ValidateScheme(path)
	s = s.Scope("writeLines")
	marker := beam.Create(s, outLine{Marker: true})
	all := beam.Flatten(s, beam.ParDo(s, toOutLine, lines), marker)
	beam.ParDo(s, &writeFileFn{Path: path}, beam.GroupByKey(s, beam.AddFixedKey(s, all)))
}

type writeFileFn struct {
	Path string
}

// ProcessElement writes the file.
func (f *writeFileFn) ProcessElement(ctx context.Context, _ int, lines func(*outLine) bool, emit func(int)) error {
	fs, err := filesystem.New(ctx, f.Path)
	if err != nil {
		return err
	}
	defer fs.Close()
	w, err := fs.OpenWrite(ctx, f.Path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	n := 0
	var l outLine
	for lines(&l) {
		if l.Marker {
			continue
		}
		if _, err := bw.WriteString(l.Line); err != nil {
			w.Close()
			return err
		}
		if err := bw.WriteByte('\n'); err != nil {
			w.Close()
			return err
		}
		n++
	}
	if err := bw.Flush(); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	emit(n)
	return nil
}

// Write writes the outputs of Evaluate to the files of p.
func Write(s beam.Scope, out Outputs, measures []metric.Config, p Paths) error {
	cfgs, err := Normalize(measures)
	if err != nil {
		return err
	}
	s = s.Scope("rankmetrics.Write")
	if p.Report != "" {
		writeLines(s, p.Report, beam.ParDo(s, formatReport, out.Report))
	}
	if p.PerQuery != "" {
		names := make([]string, len(cfgs))
		for i, c := range cfgs {
			names[i] = c.Name
		}
		writeLines(s, p.PerQuery, beam.ParDo(s, &formatPerQueryFn{Names: names}, out.PerQuery))
	}
	if p.DeadLetters != "" {
		writeLines(s, p.DeadLetters, beam.ParDo(s, formatDeadLetter, out.DeadLetters))
	}
	return nil
}

func formatReport(r Report) (string, error) {
	b, err := json.Marshal(r)
	return string(b), err
}

func formatDeadLetter(d DeadLetter) (string, error) {
	b, err := json.Marshal(d)
	return string(b), err
}

type formatPerQueryFn struct {
	Names []string
}

// ProcessElement formats one query's values.
func (f *formatPerQueryFn) ProcessElement(v QueryValue, emit func(string)) {
	for i, n := range f.Names {
		emit(n + "\t" + v.QID + "\t" + strconv.FormatFloat(v.Value[i], 'g', -1, 64) + "\t" + strconv.FormatFloat(v.Weight[i], 'g', -1, 64))
	}
}

// readAll reads a file through Beam's file systems.
func readAll(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// WriteReport writes r to path, through Beam's file systems, as Write
// does: one line of JSON.
func WriteReport(ctx context.Context, path string, r Report) error {
	line, err := formatReport(r)
	if err != nil {
		return err
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	defer fs.Close()
	if err := filesystem.Write(ctx, fs, path, []byte(line+"\n")); err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	return nil
}

// ReadReport reads a Report written by Write or WriteReport.
func ReadReport(ctx context.Context, path string) (Report, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return Report{}, fmt.Errorf("report %s: %w", path, err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return Report{}, fmt.Errorf("report %s: %w", path, err)
	}
	return r, nil
}

// ReadDeadLetters reads the dead letters written by Write.
func ReadDeadLetters(ctx context.Context, path string) ([]DeadLetter, error) {
	b, err := readAll(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dead letters %s: %w", path, err)
	}
	var out []DeadLetter
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		var d DeadLetter
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			return nil, fmt.Errorf("dead letters %s: line %d: %w", path, i+1, err)
		}
		out = append(out, d)
	}
	return out, nil
}
