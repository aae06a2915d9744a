package runio

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// TestAheadReader reads inputs of sizes around the piece size through an
// aheadReader: iotest.TestReader checks that it gives the same bytes as
// the input, and a read error comes after the bytes before it.
func TestAheadReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, n := range []int{0, 1, aheadPieceSize - 1, aheadPieceSize, aheadPieceSize + 1, 5*aheadPieceSize + 123} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		a := newAheadReader(bytes.NewReader(data))
		if err := iotest.TestReader(a, data); err != nil {
			t.Errorf("%d bytes: %v", n, err)
		}
		a.close()

		bad := errors.New("disk error")
		a = newAheadReader(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(bad)))
		got, err := io.ReadAll(iotest.OneByteReader(a))
		if !bytes.Equal(got, data) || !errors.Is(err, bad) {
			t.Errorf("%d bytes, then an error: read %d bytes (equal: %v), error %v", n, len(got), bytes.Equal(got, data), err)
		}
		a.close()
	}
}

// TestAheadReaderClose stops an aheadReader whose goroutine waits to hand
// over a piece nobody reads: close returns (the test would hang).
func TestAheadReaderClose(t *testing.T) {
	a := newAheadReader(bytes.NewReader(make([]byte, 20*aheadPieceSize)))
	var b [10]byte
	if _, err := a.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	a.close()
}

// TestReadAheadBuffered reads a gzipped TREC file through readAhead after
// bytes were peeked into its stream's buffer: the blocks are those of the
// plain file, read without it.
func TestReadAheadBuffered(t *testing.T) {
	var sb strings.Builder
	for q := 1; q <= 300; q++ {
		for d := range 7 {
			sb.WriteString(strings.Join([]string{strconv.Itoa(q), "Q0", "doc" + strconv.Itoa(d*q), strconv.Itoa(d + 1), strconv.Itoa(100 - d), "run"}, " ") + "\n")
		}
	}
	dir := t.TempDir()
	plain := writeFile(t, dir, "run", []byte(sb.String()), false)
	gz := writeFile(t, dir, "run", []byte(sb.String()), true)
	blocks := func(path string, ahead bool) string {
		t.Helper()
		st, err := openStream(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := newTRECParser(st, path, true, &Options{})
		defer p.close()
		if ahead {
			if _, err := st.Peek(100); err != nil {
				t.Fatal(err)
			}
			p.readAhead(st)
		}
		var out strings.Builder
		var b trecBlock
		for {
			b.reset()
			err := p.nextBlock(&b)
			for i := range b.vals {
				out.WriteString(string(b.qid) + " " + string(b.doc(i)) + " " + strconv.Itoa(int(b.vals[i])) + " " + strconv.Itoa(int(b.lines[i])) + "\n")
			}
			if err == io.EOF {
				return out.String()
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	want := blocks(plain, false)
	if got := blocks(gz, true); got != want || len(want) == 0 {
		t.Fatalf("read ahead after a peek:\n%.300s\nwant\n%.300s", got, want)
	}
}
