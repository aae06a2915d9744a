package prefixkey

import (
	"encoding/binary"
	"unsafe"
)

// Of packs the first 8 bytes of b big-endian, zero padded: comparing
// keys orders ids as their bytes do when they hold no NUL byte.
func Of(b []byte) uint64 {
	if len(b) >= 8 {
		return binary.BigEndian.Uint64(b)
	}
	// Unrolled: constant shifts, no loop (an id such as "D69" is short).
	var k uint64
	switch len(b) {
	case 7:
		k |= uint64(b[6]) << 8
		fallthrough
	case 6:
		k |= uint64(b[5]) << 16
		fallthrough
	case 5:
		k |= uint64(b[4]) << 24
		fallthrough
	case 4:
		k |= uint64(b[3]) << 32
		fallthrough
	case 3:
		k |= uint64(b[2]) << 40
		fallthrough
	case 2:
		k |= uint64(b[1]) << 48
		fallthrough
	case 1:
		k |= uint64(b[0]) << 56
	}
	return k
}

// OfString is Of for a string, without copying it.
func OfString(s string) uint64 {
	return Of(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// Short hashes an id of at most 8 bytes from its key and length, keyed by
// seed: splitmix64's finaliser, a bijection whose every output bit
// depends on every input bit, so two ids of one length and seed hash
// alike only if they are equal.
func Short(key uint64, n int, seed uint64) uint64 {
	x := key ^ seed ^ uint64(n)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
