package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"text/template"
)

// profileTmpl is the source of the keras-rs and torchmetrics profile
// kernels, one template for both dtypes: what the libraries define (which
// items count, the gains and discounts, the list weights, the tie rules,
// the empty-query rules). What it calls for the libraries' machine
// arithmetic (the order of torch's CPU sum, of XLA's reductions, XLA's
// float32 log, JAX's random bits) is hand-written in metric/profile_xla.go
// and metric/profile_torch.go, since it follows another program's code
// paths rather than a definition.
//
//go:embed profile.tmpl
var profileTmpl string

// profVariant names one dtype's profile kernel.
type profVariant struct {
	T      string // float32 or float64
	Name   string // Float32 or Float64
	Bits   string // 32 or 64: the suffix of meanAcc's fields
	Is32   bool
	WS     string // the workspace type
	Out    string // the per-metric output type
	Fam    string // the engine workspace whose outputs the kernel fills
	FamOut string // its output type
	Disc   string // keras-rs' rank discount in the dtype
}

func newProfVariant(v variant) profVariant {
	bits := v.T[len("float"):]
	return profVariant{T: v.T, Name: v.Name, Bits: bits, Is32: v.T == "float32",
		WS: "profWS" + v.Name, Out: "profOut" + v.Name, Fam: "fam" + v.Name, FamOut: "famOut" + v.Name,
		Disc: "kerasDiscount" + bits}
}

// profileFiles returns the profile kernels of variant v
// (profile_T.go) and their tests (profile_T_test.go).
func profileFiles(v variant) ([]file, error) {
	pv := newProfVariant(v)
	var files []file
	for _, f := range []struct {
		name, src, imports string
	}{
		{"profile_" + v.T + ".go", profileTmpl, `import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rankmetrics/rankmetrics/tensor"
)
`},
		{"profile_" + v.T + "_test.go", profileTestTmpl, `import "testing"
`},
	} {
		t, err := template.New(f.name).Parse(f.src)
		if err != nil {
			return nil, fmt.Errorf("parse the template of %s: %w", f.name, err)
		}
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "// %s\n\npackage metric\n\n%s\n", header, f.imports)
		if err := t.Execute(&buf, pv); err != nil {
			return nil, fmt.Errorf("render %s: %w", f.name, err)
		}
		body, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("format %s: %w", f.name, err)
		}
		files = append(files, file{f.name, body})
	}
	return files, nil
}

// profileTestTmpl is the source of the tests of one dtype's profile
// kernels: against what the libraries computed (the golden cases of the
// dtype, every value to the bit), and a steady-state update allocating
// nothing.
const profileTestTmpl = `
// TestProfile{{.Name}}Golden checks the {{.T}} profile kernels against what
// keras-rs and torchmetrics computed in {{.T}} (the golden cases of
// testdata/profiles of that dtype), every value to the bit.
func TestProfile{{.Name}}Golden(t *testing.T) {
	checkProfileGolden(t, {{.Name}})
}

// TestProfile{{.Name}}AllocatesNothing checks that a steady-state {{.T}}
// update of every profile metric allocates nothing.
func TestProfile{{.Name}}AllocatesNothing(t *testing.T) {
	checkProfileAllocs(t, {{.Name}})
}
`
