package enum

import (
	"fmt"
	"strings"
)

// Integer is the underlying type an enumeration may have.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Names is the table of an enumeration E whose values are 0 to len-1 (or
// start at Offset): the name of each value, in order, and the other
// spellings Parse accepts. Make it once, in a package-level variable, with
// New; it is read-only afterwards.
type Names[E Integer] struct {
	// Type names the enumeration in messages ("tie policy").
	Type   string
	offset E
	names  []string
	parse  map[string]E
	fold   bool
}

// New returns the table of an enumeration named typ whose value offset+i
// is called names[i]. An empty name leaves a value without a spelling (a
// sentinel): String prints it as typ(N) and Parse does not read it.
func New[E Integer](typ string, offset E, names ...string) *Names[E] {
	t := &Names[E]{Type: typ, offset: offset, names: names, parse: make(map[string]E, len(names))}
	for i, n := range names {
		if n != "" {
			t.parse[n] = offset + E(i)
		}
	}
	return t
}

// Alias makes Parse read each of spellings as v. It returns t.
func (t *Names[E]) Alias(v E, spellings ...string) *Names[E] {
	for _, s := range spellings {
		t.parse[s] = v
	}
	return t
}

// FoldCase makes Parse ignore the case of its input (names and aliases
// must then be lower case). It returns t.
func (t *Names[E]) FoldCase() *Names[E] {
	t.fold = true
	return t
}

// Valid reports whether v has a name.
func (t *Names[E]) Valid(v E) bool {
	i := int64(v) - int64(t.offset)
	return i >= 0 && i < int64(len(t.names)) && t.names[i] != ""
}

// String returns v's name, or Type(N) for a value without one.
func (t *Names[E]) String(v E) string {
	if t.Valid(v) {
		return t.names[int64(v)-int64(t.offset)]
	}
	return fmt.Sprintf("%s(%d)", strings.ReplaceAll(t.Type, " ", "_"), int64(v))
}

// Values returns every named value, in order.
func (t *Names[E]) Values() []E {
	out := make([]E, 0, len(t.names))
	for i, n := range t.names {
		if n != "" {
			out = append(out, t.offset+E(i))
		}
	}
	return out
}

// List returns the names joined with sep ("a, b or c" reads better with
// Choices).
func (t *Names[E]) List(sep string) string {
	var out []string
	for _, n := range t.names {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, sep)
}

// Choices returns the names as a phrase: "a, b or c".
func (t *Names[E]) Choices() string {
	var out []string
	for _, n := range t.names {
		if n != "" {
			out = append(out, n)
		}
	}
	switch len(out) {
	case 0:
		return ""
	case 1:
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// Lookup returns the value named s (a name or an alias).
func (t *Names[E]) Lookup(s string) (E, bool) {
	if t.fold {
		s = strings.ToLower(s)
	}
	v, ok := t.parse[s]
	return v, ok
}

// Parse returns the value named s, or an error that lists the names.
func (t *Names[E]) Parse(s string) (E, error) {
	if v, ok := t.Lookup(s); ok {
		return v, nil
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", t.Type, s, t.Choices())
}

// MarshalText returns v's name, or an error for a value without one.
func (t *Names[E]) MarshalText(v E) ([]byte, error) {
	if !t.Valid(v) {
		return nil, fmt.Errorf("unknown %s %d", t.Type, int64(v))
	}
	return []byte(t.String(v)), nil
}
