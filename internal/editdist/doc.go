// Package editdist measures how far apart two names are, for the "did you
// mean" of an unknown flag (cliflags) or measure name (package
// measure).
package editdist
