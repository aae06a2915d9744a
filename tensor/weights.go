package tensor

import "fmt"

// WeightKind says how sample weights are given.
type WeightKind int

const (
	// NoWeights means every slot has weight 1, ragged padding included.
	NoWeights WeightKind = iota
	// ItemWeights gives one weight per item, shaped like the labels.
	ItemWeights
	// ListWeights gives one weight per list, which reaches every slot of
	// the list, ragged padding included, like TF-Ranking's dense [B, 1].
	ListWeights
)

// String returns "none", "per-item" or "per-list".
func (k WeightKind) String() string {
	switch k {
	case NoWeights:
		return "none"
	case ItemWeights:
		return "per-item"
	case ListWeights:
		return "per-list"
	}
	return fmt.Sprintf("WeightKind(%d)", int(k))
}

// Weights holds the sample weights of a batch. The zero value means no
// weights.
type Weights struct {
	kind   WeightKind
	values Lists
}

// PerItem returns per-item weights with the shape of the labels they go
// with. A ragged w pads with weight 0, as TF-Ranking pads ragged weights.
func PerItem(w Lists) Weights { return Weights{kind: ItemWeights, values: w} }

// PerList returns one weight per list, given as a [B] slice (TF's [B, 1]).
func PerList[T Float](w []T) Weights {
	l, _ := Dense(w, len(w), 1) // cannot fail: len(w) values for [len(w), 1]
	return Weights{kind: ListWeights, values: l}
}

// PerListColumn returns per-list weights from a [B, 1] dense batch, such
// as a gorgonia or gonum column.
func PerListColumn(w Lists) (Weights, error) {
	if w.IsRagged() || w.Width() != 1 {
		return Weights{}, fmt.Errorf("tensor: per-list weights must have shape [B, 1], got %s: %w", w.Shape(), ErrShape)
	}
	return Weights{kind: ListWeights, values: w}, nil
}

// Kind returns how the weights are given.
func (w Weights) Kind() WeightKind { return w.kind }

// Values returns the weights as a batch: shaped like the labels for
// per-item weights, [B, 1] for per-list weights, and empty for none.
func (w Weights) Values() Lists { return w.values }

// Check returns nil when w fits labels, and otherwise an error that names
// the mismatch.
func (w Weights) Check(labels Lists) error {
	switch w.kind {
	case NoWeights:
		return nil
	case ItemWeights:
		return labels.SameShape(w.values, "labels", "weights")
	case ListWeights:
		if w.values.Len() != labels.Len() {
			return fmt.Errorf("tensor: per-list weights have %d values but labels have %d lists: %w",
				w.values.Len(), labels.Len(), ErrShape)
		}
		return nil
	}
	return fmt.Errorf("tensor: unknown weight kind %d", int(w.kind))
}
