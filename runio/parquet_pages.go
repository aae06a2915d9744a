package runio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/format"
)

// checkPages walks the page headers of the column chunks the reader will
// read and checks each page's sizes against its chunk before parquet-go
// reads it: parquet-go allocates a page's compressed size as read from its
// header, so one corrupt byte in a 4 KB file made it allocate 2.7 GB.
// A page must lie inside its chunk and the chunk inside the file, and a
// page may not inflate beyond max(64 MiB, 1024 times its stored size).
//
// parquet-go offers no way to read page headers without reading the pages,
// hence this small Thrift compact-protocol scanner of our own.
func checkPages(r io.ReaderAt, size int64, name string, md *format.FileMetaData, columns []int) error {
	for g, rg := range md.RowGroups {
		for _, c := range columns {
			if c < 0 || c >= len(rg.Columns) {
				return &ParseError{File: name, Msg: fmt.Sprintf("corrupt Parquet file: row group %d has %d columns, want column %d", g+1, len(rg.Columns), c+1)}
			}
			m := &rg.Columns[c].MetaData
			start := m.DataPageOffset
			if m.DictionaryPageOffset > 0 && m.DictionaryPageOffset < start {
				start = m.DictionaryPageOffset
			}
			end := start + m.TotalCompressedSize
			if start < 4 || m.TotalCompressedSize < 0 || end < start || end > size-8 {
				return &ParseError{File: name, Msg: fmt.Sprintf("corrupt Parquet file: row group %d column %d: chunk at bytes %d-%d outside the %d-byte file", g+1, c+1, start, end, size)}
			}
			if err := walkPages(r, start, end); err != nil {
				return &ParseError{File: name, Msg: fmt.Sprintf("corrupt Parquet file: row group %d column %d", g+1, c+1), Err: err}
			}
		}
	}
	return nil
}

// maxPageInflation bounds a page's uncompressed size: max(64 MiB, 1024
// times its compressed size).
const (
	maxPageFloor     = 64 << 20
	maxPageInflation = 1024
)

// walkPages checks the pages between start and end. A header is read in a
// window of 512 bytes, or 64 KiB or 1 MiB when it does not fit (long
// statistics values).
func walkPages(r io.ReaderAt, start, end int64) error {
	buf := make([]byte, 512)
	for off := start; off < end; {
		var h pageSizes
		var hlen int64
		var err error
		for _, w := range []int64{512, 64 << 10, 1 << 20} {
			n := min(w, end-off)
			if int64(len(buf)) < n {
				buf = make([]byte, n)
			}
			if _, err := r.ReadAt(buf[:n], off); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			if h, hlen, err = scanPageHeader(buf[:n]); err == nil || n < w {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("page header at byte %d: %w", off, err)
		}
		if h.compressed < 0 || h.uncompressed < 0 || off+hlen+h.compressed > end {
			return fmt.Errorf("page at byte %d: %d bytes run past the chunk's end at byte %d", off, h.compressed, end)
		}
		if h.uncompressed > max(maxPageFloor, maxPageInflation*h.compressed) {
			return fmt.Errorf("page at byte %d: %d bytes inflating to %d", off, h.compressed, h.uncompressed)
		}
		off += hlen + h.compressed
	}
	return nil
}

type pageSizes struct{ uncompressed, compressed int64 }

var errThrift = errors.New("bad Thrift encoding")

// scanPageHeader reads a PageHeader struct in the Thrift compact protocol
// from b: its fields 2 and 3 (the sizes), skipping all others, and returns
// the header's length.
func scanPageHeader(b []byte) (pageSizes, int64, error) {
	t := thriftScan{b: b}
	var h pageSizes
	var seen2, seen3 bool
	last := int64(0)
	for {
		id, typ, err := t.fieldHeader(&last)
		if err != nil {
			return h, 0, err
		}
		if typ == 0 { // stop
			break
		}
		if (id == 2 || id == 3) && typ == 5 { // i32
			v, err := t.zigzag()
			if err != nil {
				return h, 0, err
			}
			if id == 2 {
				h.uncompressed, seen2 = v, true
			} else {
				h.compressed, seen3 = v, true
			}
			continue
		}
		if err := t.skip(typ, 0); err != nil {
			return h, 0, err
		}
	}
	if !seen2 || !seen3 {
		return h, 0, errors.New("page header without its sizes")
	}
	return h, int64(t.i), nil
}

// thriftScan reads Thrift compact-protocol values from a byte slice.
type thriftScan struct {
	b []byte
	i int
}

func (t *thriftScan) byte1() (byte, error) {
	if t.i >= len(t.b) {
		return 0, errThrift
	}
	c := t.b[t.i]
	t.i++
	return c, nil
}

func (t *thriftScan) uvarint() (uint64, error) {
	v, n := binary.Uvarint(t.b[t.i:])
	if n <= 0 {
		return 0, errThrift
	}
	t.i += n
	return v, nil
}

func (t *thriftScan) zigzag() (int64, error) {
	v, err := t.uvarint()
	return int64(v>>1) ^ -int64(v&1), err
}

// fieldHeader reads a field header: its id (delta-coded from *last) and
// type; type 0 is the end of the struct.
func (t *thriftScan) fieldHeader(last *int64) (int64, byte, error) {
	c, err := t.byte1()
	if err != nil {
		return 0, 0, err
	}
	typ := c & 0x0f
	if typ == 0 {
		return 0, 0, nil
	}
	if d := int64(c >> 4); d != 0 {
		*last += d
	} else if *last, err = t.zigzag(); err != nil {
		return 0, 0, err
	}
	return *last, typ, nil
}

// skip skips a value of the given compact type, at most 32 levels deep.
func (t *thriftScan) skip(typ byte, depth int) error {
	if depth > 32 {
		return errThrift
	}
	switch typ {
	case 1, 2: // bool true, false (in a field header)
		return nil
	case 3: // byte
		_, err := t.byte1()
		return err
	case 4, 5, 6: // i16, i32, i64
		_, err := t.uvarint()
		return err
	case 7: // double
		if t.i+8 > len(t.b) {
			return errThrift
		}
		t.i += 8
		return nil
	case 8: // binary
		n, err := t.uvarint()
		if err != nil || n > uint64(len(t.b)-t.i) {
			return errThrift
		}
		t.i += int(n)
		return nil
	case 9, 10: // list, set
		c, err := t.byte1()
		if err != nil {
			return err
		}
		n, et := uint64(c>>4), c&0x0f
		if n == 15 {
			if n, err = t.uvarint(); err != nil {
				return err
			}
		}
		if n > uint64(len(t.b)-t.i) {
			return errThrift
		}
		for range n {
			if et == 1 || et == 2 { // bools in a list take a byte each
				if _, err := t.byte1(); err != nil {
					return err
				}
				continue
			}
			if err := t.skip(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		n, err := t.uvarint()
		if err != nil || n > uint64(len(t.b)-t.i) {
			return errThrift
		}
		if n == 0 {
			return nil
		}
		kv, err := t.byte1()
		if err != nil {
			return err
		}
		for range n {
			if err := t.skip(kv>>4, depth+1); err != nil {
				return err
			}
			if err := t.skip(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case 12: // struct
		last := int64(0)
		for {
			_, ft, err := t.fieldHeader(&last)
			if err != nil {
				return err
			}
			if ft == 0 {
				return nil
			}
			if err := t.skip(ft, depth+1); err != nil {
				return err
			}
		}
	}
	return errThrift
}
