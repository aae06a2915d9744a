// Package golden reads the golden files that the scripts of parity/ record
// from the real references (TF-Ranking, keras-rs, torchmetrics,
// ir_measures and its providers): gzipped JSON Lines, one case a line. It
// serves the tests of every package that checks itself against them.
package golden
