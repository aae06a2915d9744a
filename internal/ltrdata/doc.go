// Package ltrdata provides learning-to-rank data for the rankmetrics examples
// and tests: a deterministic generator of a synthetic graded-relevance dataset
// and a reader and writer for the SVMlight/LETOR "qid:" text format used by
// MQ2007, MQ2008, MSLR-WEB10K/30K, Istella and the Yahoo! LTR challenge.
//
// # Data model
//
// A [Dataset] is a sequence of [Query] values. Each query holds the documents
// returned for one query id: one graded label, one dense feature vector of
// Dataset.NumFeatures values and an optional comment per document.
//
// # The SVMlight/LETOR format
//
// Each non-blank line is one document:
//
//	<label> qid:<id> <index>:<value> <index>:<value> ... [# comment]
//
// Feature indices start at 1. A feature that a line leaves out has the value
// 0, as the format defines. Lines of one query must be contiguous; a query id
// that comes back after another query is an error. Lines that start with '#'
// and blank lines are skipped. Errors are of type [*ParseError] and name the
// file, the line, the field (1-based, counting whitespace-separated fields)
// and the offending text.
//
// # The synthetic dataset
//
// [Generate] draws a dataset from a documented latent model (see [Config]):
//
//   - every document has k latent factors ε ~ N(0, I_k);
//   - its utility is u = β·ε + Interaction·ε₁·ε₂ + δ_q + LabelNoise·η, where β is a
//     random unit vector shared by all queries, δ_q ~ N(0, QueryShift²) makes some
//     queries richer in relevant documents than others, and η ~ N(0, 1);
//   - its graded label is the number of thresholds 0.6, 1.3, 1.9 and 2.5 that u
//     exceeds, so labels run from 0 to 4 and high grades are rare;
//   - the observed features are x = A(μ_q + ε) + FeatureNoise·ξ for the first
//     Features-NoiseFeatures columns, where A is a fixed random mixing matrix and
//     μ_q ~ N(0, TopicSpread² I_k) is a per-query offset (so raw feature values are
//     not comparable across queries, as in LETOR), and pure N(0, 1) noise for the
//     last NoiseFeatures columns;
//   - list lengths are uniform on [MinDocs, MaxDocs].
//
// A linear scorer can recover most of the ranking signal; the interaction term
// leaves a little that only a non-linear model captures. All randomness comes
// from one seeded generator, so the same Config gives the same data, bit for
// bit, on a given platform (math.Log, math.Sin and fused multiply-add may differ
// in the last bit between CPU architectures).
package ltrdata
