package tensor

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
	gt "gorgonia.org/tensor"
)

// FromGorgonia views a gorgonia.org/tensor Dense of dtype Float32 or
// Float64 and shape [B, L] as a dense batch, without copying. A tensor of
// shape [B] is taken as [B, 1], which suits per-list weights.
func FromGorgonia(t *gt.Dense) (Lists, error) {
	if t == nil {
		return Lists{}, fmt.Errorf("tensor: gorgonia tensor is nil: %w", ErrShape)
	}
	shape := t.Shape()
	rows, cols := 0, 0
	switch len(shape) {
	case 1:
		rows, cols = shape[0], 1
	case 2:
		rows, cols = shape[0], shape[1]
	default:
		return Lists{}, fmt.Errorf("tensor: gorgonia tensor has shape %v, want [B, L]: %w", shape, ErrShape)
	}
	if !t.IsNativelyAccessible() || !t.DataOrder().IsRowMajor() {
		return Lists{}, fmt.Errorf("tensor: gorgonia tensor of shape %v is not a row-major tensor in Go memory: %w", shape, ErrShape)
	}
	strides := t.Strides()
	stride := cols
	if len(shape) == 2 && len(strides) == 2 && rows > 1 {
		if strides[1] != 1 {
			return Lists{}, fmt.Errorf("tensor: gorgonia tensor of shape %v has column stride %d, want 1: %w", shape, strides[1], ErrShape)
		}
		stride = strides[0]
	}
	switch t.Dtype() {
	case gt.Float32:
		return DenseStride(t.Float32s(), rows, cols, stride)
	case gt.Float64:
		return DenseStride(t.Float64s(), rows, cols, stride)
	}
	return Lists{}, fmt.Errorf("tensor: gorgonia tensor has dtype %v, want float32 or float64: %w", t.Dtype(), ErrShape)
}

// FromGonum views a gonum mat.Dense as a dense float64 batch, honouring its
// stride, without copying. A nil or empty matrix gives an empty batch.
func FromGonum(m *mat.Dense) (Lists, error) {
	if m == nil || m.IsEmpty() {
		return Lists{}, nil
	}
	raw := m.RawMatrix()
	return DenseStride(raw.Data, raw.Rows, raw.Cols, raw.Stride)
}
