package treceval

import (
	"fmt"
	"math"
)

// Version selects which trec_eval release the computation follows.
type Version int

const (
	// V10 is trec_eval 10.0 (June 2026): scores are doubles, recall
	// cutoffs are rounded, judged topics missing from the run are an error
	// without -c and are scored as empty runs with it.
	V10 Version = iota
	// V908 is trec_eval 9.0.8 (September 2020): scores are C floats,
	// recall cutoffs are truncated after adding 0.9, topics missing from
	// the run are skipped.
	V908
)

// String returns the version as trec_eval numbers it ("10.0", "9.0.8").
func (v Version) String() string {
	if v == V908 {
		return "9.0.8"
	}
	return "10.0"
}

// ParseVersion parses "10.0" or "9.0.8" (also "10" and "9").
func ParseVersion(s string) (Version, error) {
	switch s {
	case "10.0", "10":
		return V10, nil
	case "9.0.8", "9":
		return V908, nil
	}
	return V10, fmt.Errorf("treceval: unknown compat version %q (want 10.0 or 9.0.8)", s)
}

// Config holds the evaluation parameters that trec_eval takes from its
// command line and that change per-topic values.
type Config struct {
	// Version is the trec_eval release to follow.
	Version Version
	// RelLevel is the smallest judgement that counts as relevant (-l,
	// default 1).
	RelLevel int64
	// NumDocsInColl is the collection size used by utility (-N, default 0).
	NumDocsInColl int64
	// MaxRet keeps only the first MaxRet ranked documents of each topic
	// (-M, default no limit).
	MaxRet int64
	// JudgedOnly drops unjudged documents before ranking (-J).
	JudgedOnly bool
	// Complete averages over every judged topic (-c).
	Complete bool
}

// DefaultConfig returns trec_eval's defaults for version v.
func DefaultConfig(v Version) Config {
	return Config{Version: v, RelLevel: 1, MaxRet: math.MaxInt64}
}

// Score converts a parsed score to the precision the version compares
// scores in: 9.0.8 stores scores in a C float, 10.0 in a double.
func (v Version) Score(x float64) float64 {
	if v == V908 {
		return float64(float32(x))
	}
	return x
}
