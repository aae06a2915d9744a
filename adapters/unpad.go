package adapters

import (
	"fmt"
	"math"

	"github.com/rankmetrics/rankmetrics/tensor"
)

// unpadder turns padded dense batches into ragged ones, reusing its buffers
// from batch to batch.
type unpadder struct {
	splits []int
	cols   []int32 // kept column of each ragged value
	f32    [3][]float32
	f64    [3][]float64
	row    []float64
}

// unpad keeps the real items of a padded dense batch (given by lengths or by
// a nonzero mask) and returns ragged labels, predictions and weights. Per-item
// weights are compacted like the labels; per-list weights and no weights pass
// through.
func (u *unpadder) unpad(labels, preds tensor.Lists, w tensor.Weights, lengths []int, mask tensor.Lists) (tensor.Lists, tensor.Lists, tensor.Weights, error) {
	none := tensor.Lists{}
	if labels.IsRagged() {
		return none, none, w, fmt.Errorf("labels are ragged %s; Lengths and Mask describe padding of dense batches", labels.Shape())
	}
	if lengths != nil && mask.Len() > 0 {
		return none, none, w, fmt.Errorf("both Lengths and Mask are set; give one")
	}
	if err := w.Check(labels); err != nil {
		return none, none, w, err
	}
	B, L := labels.Len(), labels.Width()
	u.splits = append(u.splits[:0], 0)
	u.cols = u.cols[:0]
	if lengths != nil {
		if len(lengths) != B {
			return none, none, w, fmt.Errorf("field Lengths has %d entries but labels have %d lists (shape %s)", len(lengths), B, labels.Shape())
		}
		for b, n := range lengths {
			if n < 0 || n > L {
				return none, none, w, fmt.Errorf("field Lengths[%d] = %d is outside [0, %d] for labels of shape %s", b, n, L, labels.Shape())
			}
			for i := range n {
				u.cols = append(u.cols, int32(i))
			}
			u.splits = append(u.splits, len(u.cols))
		}
	} else {
		if err := labels.SameShape(mask, "labels", "Mask"); err != nil {
			return none, none, w, err
		}
		for b := range B {
			u.row = mask.Row64(b, u.row)
			for i, m := range u.row {
				if math.IsNaN(m) {
					return none, none, w, fmt.Errorf("field Mask[%d][%d] is NaN", b, i)
				}
				if m != 0 {
					u.cols = append(u.cols, int32(i))
				}
			}
			u.splits = append(u.splits, len(u.cols))
		}
	}
	var err error
	if labels, err = u.gather(0, labels); err != nil {
		return none, none, w, err
	}
	if preds, err = u.gather(1, preds); err != nil {
		return none, none, w, err
	}
	if w.Kind() == tensor.ItemWeights {
		wl, err := u.gather(2, w.Values())
		if err != nil {
			return none, none, w, err
		}
		w = tensor.PerItem(wl)
	}
	return labels, preds, w, nil
}

// gather copies the kept items of src into buffer slot, keeping the storage
// type, and views them as a ragged batch.
func (u *unpadder) gather(slot int, src tensor.Lists) (tensor.Lists, error) {
	n := len(u.cols)
	if src.IsFloat32() {
		dst := grow(u.f32[slot], n)
		u.f32[slot] = dst
		var row []float32
		for b := range len(u.splits) - 1 {
			row = src.Row32(b, row)
			for k := u.splits[b]; k < u.splits[b+1]; k++ {
				dst[k] = row[u.cols[k]]
			}
		}
		return tensor.Ragged(dst, u.splits)
	}
	dst := grow(u.f64[slot], n)
	u.f64[slot] = dst
	var row []float64
	for b := range len(u.splits) - 1 {
		row = src.Row64(b, row)
		for k := u.splits[b]; k < u.splits[b+1]; k++ {
			dst[k] = row[u.cols[k]]
		}
	}
	return tensor.Ragged(dst, u.splits)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
