package main

import (
	"context"
	"fmt"

	"github.com/rankmetrics/rankmetrics/evaluate"
	"github.com/rankmetrics/rankmetrics/metric/irm"
	"github.com/rankmetrics/rankmetrics/runio"
)

// subtopicQrels reads the qrels file qrelsPath a second time as ndeval's
// subtopic qrels (qid subtopic docno rel) when one of measures reads them
// (ir_measures' diversity measures: alpha_nDCG@K, ERR_IA@K...); nil when
// none does. trec says whether the input is a TREC qrels/run pair.
func subtopicQrels(ctx context.Context, measures []evaluate.Measure, trec bool, qrelsPath string) (*runio.SubtopicQrels, error) {
	for _, m := range measures {
		if m.IR == nil || m.IR.Calc == nil {
			continue
		}
		if r, ok := m.IR.Calc.(irm.SubtopicReader); !ok || !r.ReadsSubtopics() {
			continue
		}
		if !trec {
			return nil, fmt.Errorf("measure %s reads subtopic qrels (qid subtopic docno rel): give a TREC pair, QRELS RUN", m.Name)
		}
		q, err := runio.ReadSubtopicQrelsFile(ctx, qrelsPath)
		if err != nil {
			return nil, fmt.Errorf("measure %s: %w", m.Name, err)
		}
		return q, nil
	}
	return nil, nil
}
