package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// Config sizes the data set.
type Config struct {
	Queries int
	Items   int
	Seed    uint64
}

func (c Config) validate() error {
	if c.Queries < 1 || c.Items < 1 {
		return fmt.Errorf("need at least one query and one item, got %d x %d", c.Queries, c.Items)
	}
	if int64(c.Queries)*int64(c.Items) > math.MaxUint32 {
		return fmt.Errorf("%d x %d items do not fit the RKM1 format", c.Queries, c.Items)
	}
	return nil
}

// Files are the outputs; a nil writer skips that format.
type Files struct {
	Qrels, Run, TSV, Parquet, RKM1 io.Writer
}

// Summary describes the generated data.
type Summary struct {
	Items      int64
	Relevant   int64 // label >= 1
	NoRelevant int64 // queries without a relevant item
	TiedItems  int64 // items whose score equals another's in the same query
}

// List is one generated query: labels 0..4 and scores in thousandths.
type List struct {
	Labels []int8
	Milli  []int64 // score = Milli/1000
}

// Generator draws the lists one after another from one seeded stream.
type Generator struct {
	rng  *rand.Rand
	orig []int64
	cfg  Config
}

// NewGenerator returns a generator for cfg.
func NewGenerator(cfg Config) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(cfg.Seed, 0x9e3779b97f4a7c15)), cfg: cfg, orig: make([]int64, cfg.Items)}
}

// Next fills l with the next query's items.
func (g *Generator) Next(l *List) {
	n := g.cfg.Items
	l.Labels = l.Labels[:0]
	l.Milli = l.Milli[:0]
	rate := 0.2 * g.rng.Float64()
	for range n {
		var lab int8
		if g.rng.Float64() < rate {
			lab = int8(1 + g.rng.IntN(4))
		}
		s := 0.6*float64(lab) + g.rng.NormFloat64()
		l.Labels = append(l.Labels, lab)
		l.Milli = append(l.Milli, int64(math.Round(s*1000)))
	}
	copy(g.orig, l.Milli)
	if n > 1 {
		for i := range n {
			if g.rng.Float64() < 0.02 {
				j := g.rng.IntN(n - 1)
				if j >= i {
					j++
				}
				l.Milli[i] = g.orig[j]
			}
		}
	}
}

// Score returns the float64 score of milli (the nearest double to milli/1000,
// which is also what parsing its 3-decimal text gives).
func Score(milli int64) float64 { return float64(milli) / 1000 }

// appendMilli writes milli/1000 with exactly three decimals.
func appendMilli(b []byte, milli int64) []byte {
	if milli < 0 {
		b = append(b, '-')
		milli = -milli
	}
	b = strconv.AppendInt(b, milli/1000, 10)
	f := milli % 1000
	return append(b, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
}

// DocID names item i of a list of n items so that names sort in the
// reverse of item order: trec_eval breaks score ties by document id,
// descending, which then equals item order.
func DocID(b []byte, i, n int) []byte {
	width := len(strconv.Itoa(n - 1))
	b = append(b, 'D')
	s := strconv.Itoa(n - 1 - i)
	for range width - len(s) {
		b = append(b, '0')
	}
	return append(b, s...)
}

type parquetRow struct {
	QID   int64   `parquet:"qid"`
	Label int32   `parquet:"label"`
	Score float64 `parquet:"score"`
}

// Generate writes every requested format and returns a summary.
func Generate(ctx context.Context, cfg Config, f Files) (Summary, error) {
	if err := cfg.validate(); err != nil {
		return Summary{}, err
	}
	var sum Summary
	g := NewGenerator(cfg)
	var l List
	n := cfg.Items
	var pw *parquet.GenericWriter[parquetRow]
	var prow []parquetRow
	if f.Parquet != nil {
		pw = parquet.NewGenericWriter[parquetRow](f.Parquet, parquet.MaxRowsPerRowGroup(1<<20), parquet.Compression(&parquet.Snappy))
		prow = make([]parquetRow, n)
	}
	var binLabels []byte
	var binScores []byte
	if f.RKM1 != nil {
		total := cfg.Queries * n
		binLabels = make([]byte, 0, total)
		binScores = make([]byte, 0, 4*total)
	}
	if f.TSV != nil {
		if _, err := io.WriteString(f.TSV, "qid\tlabel\tscore\n"); err != nil {
			return sum, err
		}
	}
	order := make([]int, n)
	seen := make(map[int64]int, n)
	var buf, qid []byte
	for q := 1; q <= cfg.Queries; q++ {
		if q&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return sum, err
			}
		}
		g.Next(&l)
		qid = strconv.AppendInt(qid[:0], int64(q), 10)
		rel := 0
		clear(seen)
		for i := range n {
			if l.Labels[i] >= 1 {
				rel++
			}
			seen[l.Milli[i]]++
		}
		for _, m := range l.Milli {
			if seen[m] > 1 {
				sum.TiedItems++
			}
		}
		sum.Items += int64(n)
		sum.Relevant += int64(rel)
		if rel == 0 {
			sum.NoRelevant++
		}
		if f.TSV != nil {
			buf = buf[:0]
			for i := range n {
				buf = append(buf, qid...)
				buf = append(buf, '\t')
				buf = strconv.AppendInt(buf, int64(l.Labels[i]), 10)
				buf = append(buf, '\t')
				buf = appendMilli(buf, l.Milli[i])
				buf = append(buf, '\n')
			}
			if _, err := f.TSV.Write(buf); err != nil {
				return sum, err
			}
		}
		if f.Qrels != nil {
			buf = buf[:0]
			for i := range n {
				buf = append(buf, qid...)
				buf = append(buf, " 0 "...)
				buf = DocID(buf, i, n)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(l.Labels[i]), 10)
				buf = append(buf, '\n')
			}
			if _, err := f.Qrels.Write(buf); err != nil {
				return sum, err
			}
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(a, b int) int {
				switch {
				case l.Milli[a] > l.Milli[b]:
					return -1
				case l.Milli[a] < l.Milli[b]:
					return 1
				}
				return 0
			})
			buf = buf[:0]
			for rank, i := range order {
				buf = append(buf, qid...)
				buf = append(buf, " Q0 "...)
				buf = DocID(buf, i, n)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(rank+1), 10)
				buf = append(buf, ' ')
				buf = appendMilli(buf, l.Milli[i])
				buf = append(buf, " gen\n"...)
			}
			if _, err := f.Run.Write(buf); err != nil {
				return sum, err
			}
		}
		if pw != nil {
			for i := range n {
				prow[i] = parquetRow{QID: int64(q), Label: int32(l.Labels[i]), Score: Score(l.Milli[i])}
			}
			if _, err := pw.Write(prow); err != nil {
				return sum, err
			}
		}
		if f.RKM1 != nil {
			for i := range n {
				binLabels = append(binLabels, byte(l.Labels[i]))
				binScores = binary.LittleEndian.AppendUint32(binScores, math.Float32bits(float32(Score(l.Milli[i]))))
			}
		}
	}
	var err error
	if pw != nil {
		err = pw.Close()
	}
	if f.RKM1 != nil {
		var hdr [12]byte
		copy(hdr[:], "RKM1")
		binary.LittleEndian.PutUint32(hdr[4:], uint32(cfg.Queries))
		binary.LittleEndian.PutUint32(hdr[8:], uint32(n))
		for _, b := range [][]byte{hdr[:], binLabels, binScores} {
			if _, werr := f.RKM1.Write(b); werr != nil {
				err = errors.Join(err, werr)
				break
			}
		}
	}
	return sum, err
}
