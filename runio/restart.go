package runio

import (
	"context"
	"errors"
)

// ErrRestart is wrapped by the error of a Reader's Next when the reader was
// opened with [Options.Restartable] and its input is not the sorted,
// well-formed pair it streamed it as: the caller drops what it computed
// from the queries so far and reads the input again with Restartable off
// ([Restarting] does this).
var ErrRestart = errors.New("input not streamable as sorted; read it again")

// Restarting opens paths with opts and calls run with the reader, which it
// closes after (unless ctx is done: a reader interrupted in a read is left
// to the end of the process). When opts.Restartable is set and run's error
// wraps [ErrRestart], it calls run once more, on a reader opened with
// Restartable off: run must start from a clean state on every call, as
// nothing it computed from the first reader is valid.
func Restarting(ctx context.Context, paths []string, opts Options, run func(Reader) error) error {
	err := runOnce(ctx, paths, opts, run)
	if opts.Restartable && errors.Is(err, ErrRestart) && ctx.Err() == nil {
		opts.Restartable = false
		opts.restarted = true
		if opts.BytesRead != nil {
			opts.BytesRead.Store(0)
		}
		err = runOnce(ctx, paths, opts, run)
	}
	return err
}

func runOnce(ctx context.Context, paths []string, opts Options, run func(Reader) error) error {
	r, err := Open(ctx, paths, opts)
	if err != nil {
		return err
	}
	err = run(r)
	if ctx.Err() == nil {
		r.Close()
	}
	return err
}

// MayRestart reports whether r's Next may fail with an error wrapping
// [ErrRestart]: r streams a pair opened with [Options.Restartable] as if it
// were sorted. A caller that writes as it reads holds its output back
// from such a reader only.
func MayRestart(r Reader) bool {
	t, ok := r.(*trecReader)
	return ok && t.optimistic
}
