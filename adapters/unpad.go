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
	lw32   []float32
	lw64   []float64
}

// unpad keeps the nReal items of the first numLists rows (all rows when
// numLists is 0) of a padded dense batch (given by lengths, by a nonzero mask
// or, with neither, whole rows) and returns ragged labels, predictions and
// weights. Per-item weights are compacted like the labels, per-list weights
// are cut to the nReal lists, and no weights pass through.
func (u *unpadder) unpad(labels, preds tensor.Lists, w tensor.Weights, lengths []int, mask tensor.Lists, numLists int) (tensor.Lists, tensor.Lists, tensor.Weights, error) {
	none := tensor.Lists{}
	if labels.IsRagged() {
		return none, none, w, fmt.Errorf("labels are %s; Lengths, Mask and NumLists describe padding of dense batches", labels.Shape())
	}
	if lengths != nil && mask.Len() > 0 {
		return none, none, w, fmt.Errorf("both Lengths and Mask are set; give one")
	}
	if err := w.Check(labels); err != nil {
		return none, none, w, err
	}
	B, L := labels.Len(), labels.Width()
	if numLists < 0 || numLists > B {
		return none, none, w, fmt.Errorf("field NumLists = %d is outside [0, %d] for labels of shape %s", numLists, B, labels.Shape())
	}
	nReal := B
	if numLists > 0 {
		nReal = numLists
	}
	u.splits = append(u.splits[:0], 0)
	u.cols = u.cols[:0]
	switch {
	case lengths != nil:
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
			if b < nReal {
				u.splits = append(u.splits, len(u.cols))
			} else {
				u.cols = u.cols[:u.splits[nReal]]
			}
		}
	case mask.Len() > 0:
		if err := labels.SameShape(mask, "labels", "Mask"); err != nil {
			return none, none, w, err
		}
		for b := range B {
			u.row = mask.Row64(b, u.row)
			for i, m := range u.row {
				if math.IsNaN(m) {
					return none, none, w, fmt.Errorf("field Mask[%d][%d] is NaN", b, i)
				}
				if m != 0 && b < nReal {
					u.cols = append(u.cols, int32(i))
				}
			}
			if b < nReal {
				u.splits = append(u.splits, len(u.cols))
			}
		}
	default:
		for range nReal {
			for i := range L {
				u.cols = append(u.cols, int32(i))
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
	if w.Kind() == tensor.ListWeights && nReal < B {
		if w.Values().IsFloat32() {
			u.lw32 = u.lw32[:0]
			for b := range nReal {
				u.lw32 = append(u.lw32, float32(w.Values().At(b, 0)))
			}
			w = tensor.PerList(u.lw32)
		} else {
			u.lw64 = u.lw64[:0]
			for b := range nReal {
				u.lw64 = append(u.lw64, w.Values().At(b, 0))
			}
			w = tensor.PerList(u.lw64)
		}
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
