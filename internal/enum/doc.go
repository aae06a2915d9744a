// Package enum lists the names of an enumeration once: a [Names] table
// gives each value its String form, parses it back (with aliases), and
// encodes it as text, so that an enum's String, Parse and
// MarshalText/UnmarshalText methods are one-line calls to the same table
// instead of a switch each.
//
// It imports only the standard library, so the module's lightest
// packages (tensor, metric) can use it.
package enum
