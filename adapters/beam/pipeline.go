package beam

import (
	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/rankmetrics/rankmetrics/metric"
)

// Outputs are the results of Evaluate.
type Outputs struct {
	// PerQuery holds one QueryValue per query evaluated.
	PerQuery beam.PCollection
	// Report holds exactly one Report: the overall value of every measure
	// and the counts of every step.
	Report beam.PCollection
	// DeadLetters holds every DeadLetter of every step.
	DeadLetters beam.PCollection
}

// Evaluate evaluates lists (the Step of GroupLists or JoinTREC) on the
// measures and summarises them, gathering the dead letters and counts of
// the lists' step, of the evaluation and of any upstream steps (the
// readers) into Outputs. The measures are normalised by Normalize.
func Evaluate(s beam.Scope, lists Step, measures []metric.Config, opts EvalOptions, upstream ...Step) (Outputs, error) {
	s = s.Scope("rankmetrics.Evaluate")
	ev, err := EvaluateLists(s, lists.Output, measures, opts)
	if err != nil {
		return Outputs{}, err
	}
	steps := append([]Step{lists, ev}, upstream...)
	var dead, counts []beam.PCollection
	for _, st := range steps {
		if st.DeadLetters.IsValid() {
			dead = append(dead, st.DeadLetters)
		}
		if st.Counts.IsValid() {
			counts = append(counts, st.Counts)
		}
	}
	report, err := SummarizeAlpha(s, ev.Output, measures, opts.Alpha, counts...)
	if err != nil {
		return Outputs{}, err
	}
	return Outputs{PerQuery: ev.Output, Report: report, DeadLetters: beam.Flatten(s, dead...)}, nil
}
