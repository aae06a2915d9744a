package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// spool holds the bytes written to it until they are copied out: in
// memory up to limit bytes, the rest in a temporary file, removed as soon
// as it is made (or, where an open file cannot be removed, on Close).
type spool struct {
	limit int
	mem   []byte
	f     *os.File
	name  string // the file to remove on Close, when it could not be before
}

func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil && len(s.mem)+len(p) <= s.limit {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "rankmetrics-spool-*")
		if err != nil {
			return 0, fmt.Errorf("holding the per-query records until the input is read: %w (TMPDIR names the folder)", err)
		}
		s.f = f
		if os.Remove(f.Name()) != nil {
			s.name = f.Name()
		}
	}
	return s.f.Write(p)
}

// WriteTo copies the bytes written so far to w: those in memory, then
// those in the file.
func (s *spool) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(s.mem)
	total := int64(n)
	if err != nil || s.f == nil {
		return total, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return total, err
	}
	m, err := io.Copy(w, s.f)
	return total + m, err
}

// Close drops the bytes and the file.
func (s *spool) Close() error {
	s.mem = nil
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if s.name != "" {
		err = errors.Join(err, os.Remove(s.name))
	}
	s.f, s.name = nil, ""
	return err
}
