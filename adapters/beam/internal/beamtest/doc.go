// Package beamtest holds what the tests of this module share: a TestMain
// that runs the tests on prism inside a temporary folder of their own and
// fails when they leave anything behind in it.
package beamtest
