package significance

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// blockSize is the number of Monte Carlo samples drawn from one random
// stream. It is fixed, so the samples do not depend on the worker count.
const blockSize = 1024

// Stream kinds: a test's samples come from the stream of its kind, so the
// randomization test and the bootstrap of one comparison are independent.
const (
	kindRandomization uint64 = iota + 1
	kindBootstrap
	kindTukey
	kindBCa
)

// splitmix64 is the finaliser of SplitMix64: it maps counters to
// well-mixed 64-bit keys.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// blockRNG returns the random stream of Monte Carlo block b of a test of
// kind k under settings s: a PCG keyed by (seed, stream, kind) and b.
func blockRNG(s settings, kind uint64, b int) *rand.Rand {
	key := splitmix64(splitmix64(splitmix64(s.seed)^s.stream) ^ kind)
	return rand.New(rand.NewPCG(key, splitmix64(uint64(b))))
}

// forBlocks calls fn for every block [lo, hi) of samples samples, on
// s.workers goroutines, each block with its own stream. fn must write
// only to the slots of its block; callers reduce them in block order, so
// results do not depend on the worker count. It stops at the first error
// or when ctx is done.
func forBlocks(ctx context.Context, s settings, kind uint64, samples int, fn func(rng *rand.Rand, block, lo, hi int)) error {
	nb := (samples + blockSize - 1) / blockSize
	workers := min(s.workers, nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				b := int(next.Add(1) - 1)
				if b >= nb || ctx.Err() != nil {
					return
				}
				lo := b * blockSize
				fn(blockRNG(s, kind, b), b, lo, min(lo+blockSize, samples))
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
