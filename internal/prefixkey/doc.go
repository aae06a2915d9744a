// Package prefixkey packs the first 8 bytes of a document id into a word
// and hashes short ids from it: the one definition that the TREC join of
// runio and the ranking of metric/treceval share. A key with the id's
// length is the whole id when it has at most 8 bytes, so such ids compare
// and hash without touching their bytes again.
package prefixkey
