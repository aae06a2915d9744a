package runio

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestJoinerHandWorked: one query joined by hand. Judged d1 (2), d2 (0),
// d9 (1); ranked d2, d5, d1: labels 0 (judged), 0 (unjudged), 2; d9 is
// judged, relevant and not ranked.
func TestJoinerHandWorked(t *testing.T) {
	j := NewJoiner(Options{KeepDocs: true})
	var q Query
	st, err := j.Join(&q, "7", []string{"d1", "d2", "d9"}, []float64{2, 0, 1}, []string{"d2", "d5", "d1"}, []float64{3, 2, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := Query{QID: "7", Line: 1, Labels: []float64{0, 0, 2}, Scores: []float64{3, 2, 1}, Docs: []string{"d2", "d5", "d1"},
		Unjudged: []bool{false, true, false}, UnrankedLabels: []float64{1}, UnrankedDocs: []string{"d9"}}
	if !reflect.DeepEqual(q.Labels, want.Labels) || !reflect.DeepEqual(q.Scores, want.Scores) || !reflect.DeepEqual(q.Docs, want.Docs) ||
		!reflect.DeepEqual(q.Unjudged, want.Unjudged) || !reflect.DeepEqual(q.UnrankedLabels, want.UnrankedLabels) ||
		!reflect.DeepEqual(q.UnrankedDocs, want.UnrankedDocs) || q.QID != "7" || q.Match != MatchBoth {
		t.Errorf("joined %+v, want %+v", q, want)
	}
	if st.UnjudgedItems != 1 || st.UnrankedJudged != 1 || st.UnrankedRelevant != 1 || st.Items != 3 || st.Queries != 1 {
		t.Errorf("stats %+v", st)
	}
	// One side only.
	if _, err := j.Join(&q, "8", []string{"a"}, []float64{1}, nil, nil); err != nil || q.Match != MatchQrelsOnly || len(q.Scores) != 0 || len(q.UnrankedLabels) != 1 {
		t.Errorf("qrels only: %+v, %v", q, err)
	}
	if st, err := j.Join(&q, "9", nil, nil, []string{"a", "a"}, []float64{1, 2}); err == nil || !strings.Contains(err.Error(), "docno") {
		t.Errorf("a repeated document under DedupeError: %+v, %v", st, err)
	}
}

// TestJoinerIsTheReadersJoin: on random queries, Join gives what the TREC
// reader gives for the same lines.
func TestJoinerIsTheReadersJoin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	j := NewJoiner(Options{KeepDocs: true, Dedupe: DedupeMax})
	for trial := range 300 {
		var qrels, run strings.Builder
		var jd, rd []string
		var jl, rs []float64
		for range rng.IntN(6) {
			d, l := fmt.Sprintf("d%d", rng.IntN(8)), float64(rng.IntN(4)-1)
			jd, jl = append(jd, d), append(jl, l)
			fmt.Fprintf(&qrels, "5 0 %s %v\n", d, l)
		}
		for i := range 1 + rng.IntN(6) {
			d, s := fmt.Sprintf("d%d", rng.IntN(8)), float64(rng.IntN(5))
			rd, rs = append(rd, d), append(rs, s)
			fmt.Fprintf(&run, "5 Q0 %s %d %v r\n", d, i+1, s)
		}
		r, err := NewTRECReader(context.Background(), strings.NewReader(qrels.String()), strings.NewReader(run.String()), "q", "r", Options{KeepDocs: true, Dedupe: DedupeMax})
		if err != nil {
			t.Fatal(err)
		}
		var want, got Query
		if err := r.Next(&want); err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := j.Join(&got, "5", jd, jl, rd, rs); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Labels, want.Labels) || !reflect.DeepEqual(got.Scores, want.Scores) || !reflect.DeepEqual(got.Docs, want.Docs) ||
			!reflect.DeepEqual(got.Unjudged, want.Unjudged) || !reflect.DeepEqual(got.UnrankedLabels, want.UnrankedLabels) ||
			!reflect.DeepEqual(got.UnrankedDocs, want.UnrankedDocs) || got.Match != want.Match {
			t.Fatalf("trial %d: joined %+v, the reader read %+v", trial, got, want)
		}
	}
}

// naiveJoin joins one query as the TREC reader's join is specified, with
// maps and linear scans: the judgment kept of a repeated judged document
// is its first under DedupeFirst and its first largest label under
// DedupeMax, the ranked document kept is the first (its score the
// largest under DedupeMax), and a repeat is an error under DedupeError.
func naiveJoin(qid string, jd []string, jl []float64, rd []string, rs []float64, dd DedupePolicy) (Query, Stats, error) {
	q := Query{QID: qid, Line: 1}
	var st Stats
	switch {
	case len(rd) == 0:
		q.Match = MatchQrelsOnly
		st.QrelsOnlyQueries++
	case len(jd) == 0:
		q.Match = MatchRunOnly
		st.RunOnlyQueries++
	}
	kept := map[string]int{} // judged document -> index of its judgment
	for j, d := range jd {
		k, seen := kept[d]
		switch {
		case !seen:
			kept[d] = j
		case dd == DedupeError:
			return q, st, &ParseError{File: "qrels", Line: int64(j + 1), Field: "docno", Value: d,
				Msg: fmt.Sprintf("duplicate judgment for qid %q (first at line %d; --dedupe first or --dedupe max keeps one)", qid, k+1)}
		default:
			st.DuplicatesDropped++
			if dd == DedupeMax && jl[j] > jl[k] {
				kept[d] = j
			}
		}
	}
	ranked := map[string]int{} // ranked document -> its item
	for i, d := range rd {
		if k, seen := ranked[d]; seen {
			if dd == DedupeError {
				first := slices.Index(rd, d)
				return q, st, &ParseError{File: "run", Line: int64(i + 1), Field: "docno", Value: d,
					Msg: fmt.Sprintf("duplicate document for qid %q (first at line %d; --dedupe first or --dedupe max keeps one)", qid, first+1)}
			}
			st.DuplicatesDropped++
			if dd == DedupeMax {
				if rs[i] > q.Scores[k] {
					q.Scores[k] = rs[i]
				}
			}
			continue
		}
		ranked[d] = len(q.Scores)
		j, judged := kept[d]
		l, pos := 0.0, int32(-1)
		if judged {
			l, pos = jl[j], int32(j)
		} else {
			st.UnjudgedItems++
		}
		q.Labels, q.Scores = append(q.Labels, l), append(q.Scores, rs[i])
		q.Docs, q.Unjudged, q.QrelsPos = append(q.Docs, d), append(q.Unjudged, !judged), append(q.QrelsPos, pos)
	}
	for j, d := range jd {
		if _, r := ranked[d]; r || kept[d] != j {
			continue
		}
		q.UnrankedLabels, q.UnrankedDocs, q.QrelsPos = append(q.UnrankedLabels, jl[j]), append(q.UnrankedDocs, d), append(q.QrelsPos, int32(j))
		st.UnrankedJudged++
		if jl[j] >= 1 {
			st.UnrankedRelevant++
		}
	}
	st.Queries++
	st.Items = int64(len(q.Scores))
	return q, st, nil
}

// TestJoinNaive: Join against naiveJoin on random queries full of
// repeats, under every Dedupe policy, with and without document ids: ids
// of 0 to 8 bytes (the table's short ids, some alike but for their length
// or a trailing NUL byte) and longer ones, labels and scores with ties
// (scores -0 and 0 among them).
func TestJoinNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 13))
	ids := []string{"", "a", "a\x00", "ab", "b", "D07", "D070", "12345678", "12345678\x00", "123456789", "a-very-long-document-id", "a-very-long-document-iD", "\x00"}
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("D%0*d", rng.IntN(12), i))
	}
	// -0 and 0 tie: the first kept under DedupeMax.
	scores := []float64{math.Copysign(0, -1), 0, 0.5, 1, 1.5, -2}
	for _, dd := range []DedupePolicy{DedupeError, DedupeFirst, DedupeMax} {
		for _, keep := range []bool{false, true} {
			j := NewJoiner(Options{KeepDocs: keep, Dedupe: dd})
			var q Query // reused, as readers do
			for trial := range 3000 {
				pool := ids[:1+rng.IntN(len(ids))]
				var jd, rd []string
				var jl, rs []float64
				for range rng.IntN(3 * len(pool) / 2) {
					jd, jl = append(jd, pool[rng.IntN(len(pool))]), append(jl, float64(rng.IntN(4)-1))
				}
				for range rng.IntN(3 * len(pool) / 2) {
					rd, rs = append(rd, pool[rng.IntN(len(pool))]), append(rs, scores[rng.IntN(len(scores))])
				}
				if trial%4 == 0 {
					// Few repeats: distinct ids, as most inputs have.
					jd, rd = dedupeStrings(jd), dedupeStrings(rd)
					jl, rs = jl[:len(jd)], rs[:len(rd)]
				}
				if len(jd) == 0 && len(rd) == 0 {
					continue
				}
				want, wantSt, wantErr := naiveJoin("q7", jd, jl, rd, rs, dd)
				st, err := j.Join(&q, "q7", jd, jl, rd, rs)
				got := cloneQuery(&q)
				name := fmt.Sprintf("%v, ids %v, trial %d (%q %v / %q %v)", dd, keep, trial, jd, jl, rd, rs)
				if wantErr != nil || err != nil {
					if fmt.Sprint(err) != fmt.Sprint(wantErr) {
						t.Fatalf("%s: error %v, want %v", name, err, wantErr)
					}
					continue
				}
				if !keep {
					want.Docs, want.Unjudged, want.QrelsPos, want.UnrankedDocs = nil, nil, nil, nil
				}
				want = cloneQuery(&want)
				if d := diffQuery(got, want); d != "" || got.Match != want.Match || got.Line != want.Line ||
					!slices.Equal(got.Unjudged, want.Unjudged) || !slices.Equal(got.QrelsPos, want.QrelsPos) || st != wantSt {
					t.Fatalf("%s:\n%s\ngot  %+v %+v\nwant %+v %+v", name, d, got, st, want, wantSt)
				}
			}
		}
	}
}

// dedupeStrings keeps the first of each string.
func dedupeStrings(s []string) []string {
	var out []string
	for _, x := range s {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}
