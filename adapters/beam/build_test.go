package beam

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func row(qid, doc string, label, score float64, file string, off int64) Row {
	return Row{QID: qid, Doc: doc, Label: label, Score: score, Pos: Pos{File: file, Offset: off}}
}

// buildList and joinTREC run the builder on single-file rows, or on TREC
// qrels and run lines.
func buildList(qid string, rows []Row, d Dedupe, rejected string) (List, []DeadLetter, Counts) {
	b := builder{qid: qid, rows: rows}
	return b.build(d, rejected)
}

func joinTREC(qid string, qrels []Judgment, run []Row, d Dedupe, rejected string) (List, []DeadLetter, Counts) {
	b := builder{qid: qid, rows: run, trec: true}
	for _, j := range qrels {
		b.qrels = append(b.qrels, Row{QID: j.QID, Doc: j.Doc, Label: j.Label, Pos: j.Pos})
	}
	return b.build(d, rejected)
}

func TestBuildListOrdersByPos(t *testing.T) {
	// Two files; the rows arrive in a scrambled order.
	rows := []Row{
		row("q", "c", 0, 3, "b.tsv", 10),
		row("q", "a", 1, 5, "a.tsv", 30),
		row("q", "d", 1, 2, "b.tsv", 0),
		row("q", "b", 0, 4, "a.tsv", 7),
	}
	for trial := range 5 {
		rng := rand.New(rand.NewPCG(uint64(trial), 0))
		in := append([]Row(nil), rows...)
		rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
		l, dead, _ := buildList("q", in, DedupeError, "")
		if dead != nil {
			t.Fatalf("dead letters %v", dead)
		}
		// a.tsv@7 (b), a.tsv@30 (a), b.tsv@0 (d), b.tsv@10 (c).
		if want := []float64{4, 5, 2, 3}; !reflect.DeepEqual(l.Scores, want) {
			t.Fatalf("scores %v, want %v", l.Scores, want)
		}
		if want := []float64{0, 1, 1, 0}; !reflect.DeepEqual(l.Labels, want) {
			t.Fatalf("labels %v, want %v", l.Labels, want)
		}
		if l.Weights != nil {
			t.Fatalf("weights %v, want none", l.Weights)
		}
	}
}

func TestBuildListDedupe(t *testing.T) {
	// d1 appears at offsets 0 (score 1), 20 (score 5) and 40 (score 5).
	rows := []Row{
		row("q", "d1", 0, 1, "f", 0),
		row("q", "d2", 1, 2, "f", 10),
		row("q", "d1", 1, 5, "f", 20),
		row("q", "d3", 0, 3, "f", 30),
		row("q", "d1", 2, 5, "f", 40),
	}
	tests := []struct {
		d       Dedupe
		labels  []float64
		scores  []float64
		dropped int64
	}{
		{DedupeFirst, []float64{0, 1, 0}, []float64{1, 2, 3}, 2},
		// Max keeps the first occurrence's place, with the fields of the
		// first row holding the largest score (offset 20).
		{DedupeMax, []float64{1, 1, 0}, []float64{5, 2, 3}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.d.String(), func(t *testing.T) {
			l, dead, _ := buildList("q", append([]Row(nil), rows...), tc.d, "")
			if dead != nil {
				t.Fatalf("dead letters %v", dead)
			}
			if !reflect.DeepEqual(l.Labels, tc.labels) || !reflect.DeepEqual(l.Scores, tc.scores) {
				t.Errorf("labels %v scores %v, want %v %v", l.Labels, l.Scores, tc.labels, tc.scores)
			}
			if l.Counts.DuplicatesDropped != tc.dropped {
				t.Errorf("dropped %d, want %d", l.Counts.DuplicatesDropped, tc.dropped)
			}
		})
	}
	t.Run("error", func(t *testing.T) {
		_, dead, c := buildList("q", append([]Row(nil), rows...), DedupeError, "")
		if len(dead) != len(rows) {
			t.Fatalf("%d dead letters, want one per row (%d)", len(dead), len(rows))
		}
		for _, d := range dead {
			if d.Stage != StageGroup || d.QID != "q" || !strings.Contains(d.Reason, `document "d1" appears twice (first at f@0, again at f@20)`) {
				t.Errorf("dead letter %+v", d)
			}
		}
		if c.DeadGroupRows != 5 || c.DeadLetters != 5 {
			t.Errorf("counts %+v", c)
		}
	})
}

func TestBuildListMixedWeights(t *testing.T) {
	a := row("q", "a", 1, 1, "f", 0)
	a.HasWeight, a.Weight = true, 2
	b := row("q", "b", 0, 2, "g", 0)
	_, dead, c := buildList("q", []Row{a, b}, DedupeError, "")
	if len(dead) != 2 || !strings.Contains(dead[0].Reason, "mixes 1 rows with a weight and 1 without") {
		t.Fatalf("dead letters %+v", dead)
	}
	if c.DeadGroupRows != 2 || c.DeadLetters != 2 {
		t.Errorf("counts %+v", c)
	}
	b.HasWeight, b.Weight = true, 0.5
	l, dead, _ := buildList("q", []Row{b, a}, DedupeError, "")
	if dead != nil || !reflect.DeepEqual(l.Weights, []float64{2, 0.5}) {
		t.Errorf("weights %v, dead %v", l.Weights, dead)
	}
}

func judgment(qid, doc string, label float64, off int64) Judgment {
	return Judgment{QID: qid, Doc: doc, Label: label, Pos: Pos{File: "qrels", Offset: off}}
}

func TestJoinTREC(t *testing.T) {
	qrels := []Judgment{
		judgment("q", "d3", 2, 30),
		judgment("q", "d1", 1, 0),
		judgment("q", "d9", 1, 10), // relevant, not ranked
		judgment("q", "d8", 0, 20), // judged, not relevant, not ranked
	}
	run := []Row{
		row("q", "d5", 0, 0.5, "run", 20), // unjudged
		row("q", "d1", 0, 0.9, "run", 0),
		row("q", "d3", 0, 0.7, "run", 10),
	}
	l, dead, _ := joinTREC("q", qrels, run, DedupeError, "")
	if dead != nil {
		t.Fatal(dead)
	}
	if want := []float64{1, 2, 0}; !reflect.DeepEqual(l.Labels, want) {
		t.Errorf("labels %v, want %v", l.Labels, want)
	}
	if want := []float64{0.9, 0.7, 0.5}; !reflect.DeepEqual(l.Scores, want) {
		t.Errorf("scores %v, want %v", l.Scores, want)
	}
	if want := []float64{1, 0}; !reflect.DeepEqual(l.UnrankedLabels, want) {
		t.Errorf("unranked %v, want %v (qrels order)", l.UnrankedLabels, want)
	}
	want := Counts{UnjudgedItems: 1, UnrankedJudged: 2, UnrankedRelevant: 1}
	if want := []string{"d9", "d8"}; !reflect.DeepEqual(l.UnrankedDocs, want) {
		t.Errorf("unranked docs %v, want %v (qrels order)", l.UnrankedDocs, want)
	}
	if want := []bool{false, false, true}; !reflect.DeepEqual(l.Unjudged, want) {
		t.Errorf("unjudged %v, want %v", l.Unjudged, want)
	}
	if l.Counts != want || l.Match != MatchBoth {
		t.Errorf("counts %+v match %v, want %+v both", l.Counts, l.Match, want)
	}

	l, _, _ = joinTREC("q", nil, run[:1], DedupeError, "")
	if l.Match != MatchRunOnly || l.Counts.RunOnlyQueries != 1 || l.Counts.UnjudgedItems != 1 {
		t.Errorf("run-only: %+v", l)
	}
	l, _, _ = joinTREC("q", []Judgment{judgment("q", "d3", 2, 30)}, nil, DedupeError, "")
	if l.Match != MatchQrelsOnly || l.Counts.QrelsOnlyQueries != 1 || len(l.Scores) != 0 || !reflect.DeepEqual(l.UnrankedLabels, []float64{2}) {
		t.Errorf("qrels-only: %+v", l)
	}

	dupQrels := append([]Judgment{judgment("q", "d1", 3, 40)}, qrels...)
	_, dead, c := joinTREC("q", dupQrels, run, DedupeError, "")
	if len(dead) != len(dupQrels)+len(run) || !strings.HasPrefix(dead[0].Reason, "qrels: document \"d1\" appears twice") {
		t.Fatalf("dead %+v", dead)
	}
	if c.DeadGroupQrelsRows != 5 || c.DeadGroupRows != 3 || c.DeadLetters != 8 {
		t.Errorf("counts %+v", c)
	}
	// DedupeMax on qrels keeps the largest label.
	l, _, _ = joinTREC("q", dupQrels, run, DedupeMax, "")
	if l.Labels[0] != 3 || l.Counts.QrelsDuplicatesDropped != 1 {
		t.Errorf("max: labels %v counts %+v", l.Labels, l.Counts)
	}
}

func TestParseDedupe(t *testing.T) {
	for _, d := range []Dedupe{DedupeError, DedupeFirst, DedupeMax} {
		got, err := ParseDedupe(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDedupe(%q) = %v, %v", d, got, err)
		}
	}
	if _, err := ParseDedupe("last"); err == nil {
		t.Error("ParseDedupe(last): no error")
	}
}
