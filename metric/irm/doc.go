// Package irm computes the measures of ir_measures 0.4.3 whose default
// provider is not pytrec_eval (those are metric/treceval's): the judged,
// msmarco, gdeval, compat and accuracy providers' here, and the others'
// (cwl_eval, pyndeval) beside them, each following its provider's rules
// for which documents count and in which order ties are ranked.
//
// # The interface
//
// A provider measure is a Measure: given one query as ir_measures reads
// it (a Query: its judgments and its run lines in file order, scores as
// float64), it returns the query's value as ir_measures reports it
// (ir_measures gives a judged query its provider yields nothing for the
// measure's default, 0, and so does Value), or ok == false when
// ir_measures reports nothing for the query (the accuracy provider skips
// the default): the query is then left out of the measure's queries and
// summary. The engine (package evaluate) calls
// Value for every query the qrels judge, with an empty Run for a judged
// query the run lacks; queries found only in the run are never passed,
// since no provider here gives them a value. Each Measure ranks the run
// its own way (Query.Ranked, computed once per query and order, SortRun):
// the judged and msmarco providers rank by score,
// ties by docno ascending; gdeval by score, ties by docno descending;
// accuracy by score, ties in file order.
//
// A measure's summary is the mean of its per-query values unless its
// registry record says otherwise (measure.Def.Summary).
//
// # Adding a provider measure
//
//  1. Write the per-query function here (or in a package of its own): a
//     type implementing Measure, made by a constructor that takes the
//     measure's parameters (cutoff, rel, p...) already checked.
//  2. Add one record to the ir_measures table of package measure
//     (measure/irmeasures.go, irDefList): the key, its parameters with
//     ir_measures' defaults (irParam: name, kind, default), the @
//     parameter, a one-line doc, and provs, the providers that compute
//     it in ir_measures' order of preference, each {name, calc}: calc
//     returns the Measure for the parsed parameters (absent ones hold
//     their defaults), errNotProvided for parameter values the provider
//     does not take, or another error for values none takes. A measure
//     pytrec_eval computes for some parameters has a trec function too.
//     Mark sum: true for a measure whose summary is a sum.
//
// The engine then computes the name through this interface, and eval,
// compare and the library accept it. `rankmetrics ir_measures` prints
// each provider's rows in that provider's order (irmRows in
// cmd/rankmetrics/irmeasures.go: by default measure by measure, queries
// in run order); a provider that yields otherwise (cwl_eval: query by
// query) gets a case there.
package irm
