package metric

// meanAcc is the Keras Mean accumulator of one metric, MAP's as every
// other's: the totals of its dtype under Sequential accumulation (both
// dtypes are kept so that one type serves either), the exact sums under
// Exact accumulation.
type meanAcc struct {
	total32, count32 float32
	total64, count64 float64
	ex               ExactTotals
	// prev holds the Sequential totals before the last add, for restore.
	prev struct {
		total32, count32 float32
		total64, count64 float64
	}
}

// save records the Sequential totals, which restore puts back.
func (a *meanAcc) save() {
	a.prev.total32, a.prev.count32, a.prev.total64, a.prev.count64 = a.total32, a.count32, a.total64, a.count64
}

// restore puts back the Sequential totals of the last save.
func (a *meanAcc) restore() {
	a.total32, a.count32, a.total64, a.count64 = a.prev.total32, a.prev.count32, a.prev.total64, a.prev.count64
}

// sums returns the Sequential total and count of dtype d.
func (a *meanAcc) sums(d DType) (total, count float64) {
	if d == Float32 {
		return float64(a.total32), float64(a.count32)
	}
	return a.total64, a.count64
}

// reset empties the accumulator.
func (a *meanAcc) reset() { *a = meanAcc{} }

// state returns the accumulator as a State: the exact sums under Exact
// accumulation, else the totals of dtype d. The caller sets its Config.
func (a *meanAcc) state(d DType, exactly bool, rng []byte) State {
	var s State
	switch {
	case exactly:
		s = a.ex.State(Config{})
	case d == Float32:
		s = State{Total: float64(a.total32), Count: float64(a.count32)}
	default:
		s = State{Total: a.total64, Count: a.count64}
	}
	s.RNG = rng
	return s
}

// add32 adds the per-list products v of value and list weight, and the
// list weights lw, of one float32 batch, as Keras Mean.update_state adds
// reduce_sum(values*weights) and reduce_sum(weights); exactly under Exact
// accumulation.
func (a *meanAcc) add32(v, lw []float32, exactly bool) {
	if exactly {
		for b := range v {
			a.ex.addProduct(float64(v[b]), float64(lw[b]))
		}
		return
	}
	a.total32 = ftzFloat32(a.total32 + sumFloat32(v, 0))
	a.count32 = ftzFloat32(a.count32 + sumFloat32(lw, 0))
}

// add64 is add32 for a float64 batch.
func (a *meanAcc) add64(v, lw []float64, exactly bool) {
	if exactly {
		for b := range v {
			a.ex.addProduct(v[b], lw[b])
		}
		return
	}
	a.total64 = ftzFloat64(a.total64 + sumFloat64(v, 0))
	a.count64 = ftzFloat64(a.count64 + sumFloat64(lw, 0))
}

// add adds the totals of a state already checked by checkTotals.
func (a *meanAcc) add(exactly bool, exactTotal, exactCount string, total, count float64) {
	if exactly {
		var ex ExactTotals
		_ = ex.SetState(State{ExactTotal: exactTotal, ExactCount: exactCount}) // checked
		a.ex.Merge(&ex)
		return
	}
	a.total32 += float32(total)
	a.count32 += float32(count)
	a.total64 += total
	a.count64 += count
}

// result returns total / count, or 0 when count is 0 (TF's
// divide_no_nan), in dtype d; under Exact accumulation the exact quotient
// rounded once to d. flush says a float32 quotient is flushed to zero when
// subnormal, as MAP has always done.
func (a *meanAcc) result(d DType, exactly, flush bool) float64 {
	switch {
	case exactly:
		return a.ex.ResultIn(d)
	case d == Float64:
		if a.count64 == 0 {
			return 0
		}
		return a.total64 / a.count64
	case a.count32 == 0:
		return 0
	case flush:
		return float64(ftzFloat32(a.total32 / a.count32))
	}
	return float64(a.total32 / a.count32)
}
