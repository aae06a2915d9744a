//go:build !amd64 || purego

package lineidx

// Fast is false: this build has no kernels, and Index runs indexGo.
const Fast = false

// indexStrictAVX2 stands in for the assembly kernel, which this build lacks.
func indexStrictAVX2(data []byte, recs []Rec) int { return indexGo(data, recs, false) }

// indexCAVX2 stands in for the assembly kernel, which this build lacks.
func indexCAVX2(data []byte, recs []Rec) int { return indexGo(data, recs, true) }
