package enum

import (
	"fmt"
	"strings"
	"testing"
)

type color uint8

const (
	red color = iota
	green
	blue
	colorCount
)

var colors = New[color]("color", 0, "red", "green", "blue").Alias(green, "vert")

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		v    color
		name string
	}{{red, "red"}, {green, "green"}, {blue, "blue"}, {colorCount, "color(3)"}} {
		if got := colors.String(tc.v); got != tc.name {
			t.Errorf("String(%d) = %q, want %q", tc.v, got, tc.name)
		}
	}
	for _, tc := range []struct {
		in   string
		want color
		ok   bool
	}{{"red", red, true}, {"vert", green, true}, {"blue", blue, true}, {"Blue", 0, false}, {"", 0, false}} {
		got, err := colors.Parse(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("Parse(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	if _, err := colors.Parse("pink"); err == nil || !strings.Contains(err.Error(), "red, green or blue") {
		t.Errorf("Parse(pink) error %v: want the choices", err)
	}
	if got := colors.Values(); len(got) != 3 || got[2] != blue {
		t.Errorf("Values() = %v", got)
	}
	if _, err := colors.MarshalText(colorCount); err == nil {
		t.Error("MarshalText of the sentinel: no error")
	}
}

func TestOffsetAndSentinel(t *testing.T) {
	type level int
	levels := New[level]("level", 1, "low", "", "high").FoldCase()
	if got := levels.String(1); got != "low" {
		t.Errorf("String(1) = %q", got)
	}
	if got := levels.String(2); got != "level(2)" {
		t.Errorf("String(2) = %q, want level(2)", got)
	}
	if v, err := levels.Parse("HIGH"); err != nil || v != 3 {
		t.Errorf("Parse(HIGH) = %v, %v", v, err)
	}
	if levels.Valid(0) || levels.Valid(4) || levels.Valid(2) {
		t.Error("Valid accepts a value without a name")
	}
	if got := levels.Choices(); got != "low or high" {
		t.Errorf("Choices() = %q", got)
	}
}

func ExampleNames() {
	type shape uint8
	shapes := New[shape]("shape", 0, "circle", "square").Alias(1, "box")
	v, _ := shapes.Parse("box")
	fmt.Println(shapes.String(v), shapes.Choices())
	// Output: square circle or square
}
