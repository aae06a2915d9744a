package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/rankmetrics/rankmetrics/metric"
	"github.com/rankmetrics/rankmetrics/tensor"
)

// ErrCase is wrapped by every error about the content of a case.
var ErrCase = errors.New("bad case")

// Num is a JSON number that may also be written "NaN", "Infinity" or
// "-Infinity".
type Num float64

// errNull is the error of a null Num.
var errNull = errors.New("null is not a number")

// UnmarshalJSON reads a number or one of the three strings. null is an
// error: it is neither 0 nor NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return errNull
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "NaN":
			*n = Num(math.NaN())
		case "Infinity", "inf", "+Infinity":
			*n = Num(math.Inf(1))
		case "-Infinity", "-inf":
			*n = Num(math.Inf(-1))
		default:
			return fmt.Errorf("%q is not a number, \"NaN\", \"Infinity\" or \"-Infinity\"", s)
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// Update is one Update call of a case.
type Update struct {
	Labels      Rows `json:"labels"`
	Predictions Rows `json:"predictions"`
	// Weights is null for none; rows as long as the label rows for per-item
	// weights; rows of length 1 for per-list weights, TF's dense [B, 1].
	Weights Rows `json:"weights"`
}

// Case is one input line.
type Case struct {
	ID      string   `json:"id"`
	Metric  string   `json:"metric"`
	TopN    *int     `json:"topn"`
	Ragged  bool     `json:"ragged"`
	DType   string   `json:"dtype"`
	Ties    string   `json:"ties"`
	Seed    *uint64  `json:"seed"`
	Updates []Update `json:"updates"`
	// Expect is what a golden file expects of the case; compute ignores it,
	// so a golden file can be fed to compute as it is.
	Expect json.RawMessage `json:"expect,omitempty"`
}

// Answer is one output line.
type Answer struct {
	ID string `json:"id"`
	// Result is the metric after every update.
	Result float64 `json:"result"`
	// PerList and ListWeights hold the per-list values and list weights of
	// each update.
	PerList     [][]float64 `json:"per_list"`
	ListWeights [][]float64 `json:"list_weights"`
	// Error is the reason the case failed; the other fields are then empty.
	Error string `json:"error,omitempty"`
	// Float32 says the values are float32s.
	Float32 bool `json:"-"`
}

// Config returns the metric configuration the case asks for.
func (c *Case) Config() (metric.Config, error) {
	if c.Metric != "map" && c.Metric != "" {
		return metric.Config{}, fmt.Errorf("metric %q is not supported; use \"map\": %w", c.Metric, ErrCase)
	}
	cfg := metric.DefaultConfig(metric.KindMAP)
	if c.TopN != nil {
		if *c.TopN < 0 {
			return cfg, fmt.Errorf("topn is %d; it must be >= 0 or null: %w", *c.TopN, ErrCase)
		}
		cfg.TopN = *c.TopN
	}
	cfg.Ragged = c.Ragged
	if c.DType != "" {
		d, err := metric.ParseDType(c.DType)
		if err != nil {
			return cfg, err
		}
		cfg.DType = d
	}
	if c.Ties != "" {
		p, err := metric.ParseTiePolicy(c.Ties)
		if err != nil {
			return cfg, err
		}
		cfg.Ties = p
	}
	if c.Seed != nil {
		cfg.Seed = *c.Seed
	}
	return cfg, nil
}

// Inputs returns the tensors of update u of a case with raggedness ragged,
// which share the update's values. Weights go with the predictions, one
// per item or one per list: the label rows of a case with subtopics hold
// several labels per item.
func (u *Update) Inputs(ragged bool) (labels, predictions tensor.Lists, weights tensor.Weights, err error) {
	for _, f := range []struct {
		key  string
		rows *Rows
	}{{"labels", &u.Labels}, {"predictions", &u.Predictions}, {"weights", &u.Weights}} {
		if err := f.rows.check(f.key, f.key == "weights"); err != nil {
			return labels, predictions, weights, fmt.Errorf("%w: %w", ErrCase, err)
		}
	}
	if labels, err = u.Labels.lists(ragged); err != nil {
		return labels, predictions, weights, fmt.Errorf("labels: %w", err)
	}
	if predictions, err = u.Predictions.lists(ragged); err != nil {
		return labels, predictions, weights, fmt.Errorf("predictions: %w", err)
	}
	if u.Weights.IsNull() {
		return labels, predictions, weights, nil
	}
	wr, pr := &u.Weights, &u.Predictions
	if wr.Len() != pr.Len() {
		return labels, predictions, weights, fmt.Errorf("weights have %d rows, predictions have %d: %w", wr.Len(), pr.Len(), ErrCase)
	}
	perItem, perList := true, true
	for b := range wr.Len() {
		perItem = perItem && len(wr.Row(b)) == len(pr.Row(b))
		perList = perList && len(wr.Row(b)) == 1
	}
	switch {
	case perItem:
		wl, err := wr.lists(ragged)
		if err != nil {
			return labels, predictions, weights, fmt.Errorf("weights: %w", err)
		}
		return labels, predictions, tensor.PerItem(wl), nil
	case perList:
		col := make([]float64, wr.Len())
		for b := range col {
			col[b] = wr.Row(b)[0]
		}
		return labels, predictions, tensor.PerList(col), nil
	}
	for b := range wr.Len() {
		if len(wr.Row(b)) != len(pr.Row(b)) && len(wr.Row(b)) != 1 {
			return labels, predictions, weights, fmt.Errorf("weights row %d has %d values; it needs %d (per item) or 1 (per list): %w",
				b, len(wr.Row(b)), len(pr.Row(b)), ErrCase)
		}
	}
	return labels, predictions, weights, fmt.Errorf("weights mix per-item and per-list rows: %w", ErrCase)
}

// Run evaluates one case.
func Run(c *Case) Answer {
	cfg, err := c.Config()
	if err != nil {
		return Answer{ID: c.ID, Error: err.Error()}
	}
	m, err := metric.New(cfg)
	if err != nil {
		return Answer{ID: c.ID, Error: err.Error()}
	}
	return runUpdates(c, m, cfg.DType == metric.Float32)
}

// updater is what runUpdates needs of a metric.
type updater interface {
	UpdatePerList(dst *metric.PerList, labels, predictions tensor.Lists, weights tensor.Weights) error
	Result() float64
}

// runUpdates feeds each update of case c to the fresh metric m and answers
// with the per-list values of each and the result after all.
func runUpdates(c *Case, m updater, float32s bool) Answer {
	a := Answer{ID: c.ID, PerList: [][]float64{}, ListWeights: [][]float64{}, Float32: float32s}
	for i := range c.Updates {
		labels, preds, w, err := c.Updates[i].Inputs(c.Ragged)
		if err == nil {
			var pl metric.PerList
			if err = m.UpdatePerList(&pl, labels, preds, w); err == nil {
				a.PerList = append(a.PerList, pl.Values)
				a.ListWeights = append(a.ListWeights, pl.Weights)
				continue
			}
		}
		return Answer{ID: c.ID, Error: fmt.Errorf("update %d: %w", i, err).Error()}
	}
	a.Result = m.Result()
	return a
}

// jsonString encodes s as a JSON string, with <, > and & as they are:
// json.Marshal would write them \u003c, \u003e and \u0026, which only
// matters inside HTML, and made error messages ("want topn >= 0") hard to
// read.
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Marshal encodes the answer as one JSON object, without a newline.
func (a Answer) Marshal() []byte {
	var b bytes.Buffer
	a.encode(&b)
	return b.Bytes()
}

// answerWriter is where an answer is encoded: a *bytes.Buffer or a
// *bufio.Writer. Their write errors are reported by Flush or not at all.
type answerWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
	// AvailableBuffer returns an empty buffer to append to and Write.
	AvailableBuffer() []byte
}

// encode writes the answer as one JSON object, without a newline, to b a
// number at a time, so that a large answer is not held twice.
func (a Answer) encode(b answerWriter) {
	b.WriteString(`{"id":`)
	b.Write(jsonString(a.ID))
	if a.Error != "" {
		b.WriteString(`,"error":`)
		b.Write(jsonString(a.Error))
		b.WriteByte('}')
		return
	}
	b.WriteString(`,"result":`)
	a.num(b, a.Result)
	for _, part := range []struct {
		key  string
		vals [][]float64
	}{{"per_list", a.PerList}, {"list_weights", a.ListWeights}} {
		b.WriteString(`,"` + part.key + `":[`)
		for i, row := range part.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for j, x := range row {
				if j > 0 {
					b.WriteByte(',')
				}
				a.num(b, x)
			}
			b.WriteByte(']')
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
}

// num writes x as the shortest decimal that gives back its bits, as a
// float32 when the answer is float32.
func (a Answer) num(b answerWriter, x float64) {
	switch {
	case math.IsNaN(x):
		b.WriteString(`"NaN"`)
	case math.IsInf(x, 1):
		b.WriteString(`"Infinity"`)
	case math.IsInf(x, -1):
		b.WriteString(`"-Infinity"`)
	case a.Float32:
		b.Write(strconv.AppendFloat(b.AvailableBuffer(), x, 'g', -1, 32))
	default:
		b.Write(strconv.AppendFloat(b.AvailableBuffer(), x, 'g', -1, 64))
	}
}
