package treceval

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Relevance values trec_eval gives retrieved documents that have no usable
// judgement.
const (
	// RelNonpool marks a retrieved document absent from the judgements.
	RelNonpool = -1
	// RelUnjudged marks a retrieved document judged with a negative value
	// (in the pool but not judged, as TREC Web's -2 junk label is read).
	RelUnjudged = -2
)

// maxRelLevel bounds judgement values: trec_eval keeps one counter per
// level from 0 to the largest judgement, so a huge label would need a huge
// array. Larger labels are refused with an error.
const maxRelLevel = 1 << 24

// Judgment is one judged document of a topic.
type Judgment struct {
	Docno string
	Rel   int64
}

// Doc is one retrieved document of a topic with its score.
type Doc struct {
	Docno string
	Score float64
}

// Ranked is a topic's retrieved documents in trec_eval's rank order,
// reduced to their judgements (trec_eval's RES_RELS).
type Ranked struct {
	// Rels holds the judgement of each ranked document, RelNonpool or
	// RelUnjudged for documents without a usable judgement.
	Rels []int64
	// NumRet is len(Rels).
	NumRet int64
	// NumRel counts the judged documents at or above the relevance level.
	NumRel int64
	// NumRelRet counts the ranked documents at or above the level.
	NumRelRet int64
	// NumNonpool counts the ranked documents absent from the judgements
	// (always 0 with JudgedOnly).
	NumNonpool int64
	// NumUnjudged counts the ranked documents judged negative (always 0
	// with JudgedOnly).
	NumUnjudged int64
	// NumRelLevels is one more than the largest judgement level that has a
	// document. trec_eval keeps the previous topic's value when a topic has
	// no judgement of 0 or more, and so does Ranked.
	NumRelLevels int64
	// levels counts the judged documents per level; like trec_eval's
	// buffer it is reused from topic to topic and only cleared up to the
	// topic's largest judgement.
	levels []int64
}

// Level returns the number of judged documents at judgement level i.
func (r *Ranked) Level(i int64) int64 {
	if i < 0 || i >= int64(len(r.levels)) {
		return 0
	}
	return r.levels[i]
}

// ErrDuplicate reports a document retrieved or judged twice for a topic,
// which trec_eval refuses.
var ErrDuplicate = errors.New("duplicate document")

// rdoc is a retrieved document being ranked.
type rdoc struct {
	docno string
	key   uint64 // the first 8 bytes of docno, big-endian, zero padded
	score float64
	rel   int64
}

// prefixKey packs the first 8 bytes of s so that comparing keys orders
// strings as their bytes do (docnos contain no NUL byte, which the readers
// refuse, so the zero padding sorts a prefix first).
func prefixKey(s string) uint64 {
	var k uint64
	n := min(len(s), 8)
	for i := 0; i < n; i++ {
		k |= uint64(s[i]) << (56 - 8*i)
	}
	return k
}

// cmpDocKey compares two docnos by their keys first.
func cmpDocKey(a string, ka uint64, b string, kb uint64) int {
	switch {
	case ka < kb:
		return -1
	case ka > kb:
		return 1
	case len(a) <= 8 && len(b) <= 8:
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// simKey is what the score order compares, with the document's index.
type simKey struct {
	score float64
	key   uint64
	i     int32
}

// Ranker turns a topic's judgements and retrieved documents into a Ranked
// list. It reuses its buffers, so ranking allocates nothing once they have
// grown to the largest topic.
type Ranker struct {
	cfg    Config
	docs   []rdoc
	tmp    []rdoc
	byDoc  []int32
	keys   []simKey
	ranked Ranked
	// levelBound mirrors trec_eval's rel_levels allocation: it only grows.
	levelBound int64
}

// NewRanker returns a Ranker for cfg.
func NewRanker(cfg Config) *Ranker { return &Ranker{cfg: cfg} }

// cmpSim orders by score descending, then docno descending (trec_eval's
// tie break). NaN scores compare equal to everything, as in C.
func cmpSim(a, b *rdoc) int {
	if a.score > b.score {
		return -1
	}
	if a.score < b.score {
		return 1
	}
	return cmpDocKey(b.docno, b.key, a.docno, a.key)
}

func cmpDocno(a, b *rdoc) int { return cmpDocKey(a.docno, a.key, b.docno, b.key) }

// Rank ranks docs against judged (sorted by docno, as ReadQrels returns
// them). The result is valid until the next call.
func (k *Ranker) Rank(judged []Judgment, docs []Doc) (*Ranked, error) {
	n := len(docs)
	k.docs = slices.Grow(k.docs[:0], n)[:n]
	nan := false
	for i, d := range docs {
		k.docs[i] = rdoc{docno: d.Docno, key: prefixKey(d.Docno), score: k.cfg.Version.Score(d.Score)}
		if d.Score != d.Score {
			nan = true
		}
	}
	if nan {
		// trec_eval's order depends on the sort algorithm when NaN
		// breaks transitivity: replay it from its starting order
		// (documents sorted by docno, stably).
		k.tmp = slices.Grow(k.tmp[:0], n)[:n]
		msort(k.docs, k.tmp, cmpDocno)
		msort(k.docs, k.tmp, cmpSim)
	} else {
		// Sort small (score, key, index) records rather than the
		// documents: fewer bytes to move.
		k.keys = slices.Grow(k.keys[:0], n)[:n]
		for i := range k.docs {
			k.keys[i] = simKey{score: k.docs[i].score, key: k.docs[i].key, i: int32(i)}
		}
		docs := k.docs
		slices.SortFunc(k.keys, func(a, b simKey) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			case a.key > b.key:
				return -1
			case a.key < b.key:
				return 1
			}
			return cmpDocKey(docs[b.i].docno, b.key, docs[a.i].docno, a.key)
		})
		k.tmp = slices.Grow(k.tmp[:0], n)[:n]
		for i, sk := range k.keys {
			k.tmp[i] = docs[sk.i]
		}
		k.docs, k.tmp = k.tmp, k.docs
	}
	if int64(n) > k.cfg.MaxRet {
		n = int(max(k.cfg.MaxRet, 0))
	}
	top := k.docs[:n]

	// Documents in docno order, to find duplicates and merge with the
	// judgements.
	k.byDoc = slices.Grow(k.byDoc[:0], n)[:n]
	for i := range k.byDoc {
		k.byDoc[i] = int32(i)
	}
	slices.SortFunc(k.byDoc, func(a, b int32) int { return cmpDocno(&top[a], &top[b]) })
	for i := 1; i < n; i++ {
		if a, b := &top[k.byDoc[i]], &top[k.byDoc[i-1]]; a.key == b.key && a.docno == b.docno {
			return nil, fmt.Errorf("%w %q in the run", ErrDuplicate, top[k.byDoc[i]].docno)
		}
	}
	r := &k.ranked
	maxRel := int64(math.MinInt64)
	for i, j := range judged {
		maxRel = max(maxRel, j.Rel)
		if i > 0 && judged[i-1].Docno == j.Docno {
			return nil, fmt.Errorf("%w %q in the judgements", ErrDuplicate, j.Docno)
		}
	}
	if len(judged) == 0 {
		return nil, errors.New("treceval: topic without judgements")
	}
	if maxRel > maxRelLevel {
		return nil, fmt.Errorf("treceval: judgement %d is above the supported maximum %d", maxRel, maxRelLevel)
	}
	need := maxRel + 1
	if need > k.levelBound {
		k.levelBound += need
		r.levels = make([]int64, k.levelBound)
	} else if k.levelBound == 0 {
		// trec_eval's allocation fails when the first topic has only
		// negative judgements.
		return nil, errors.New("treceval: first topic has only negative judgements (trec_eval fails here too)")
	}
	if need > 0 {
		clear(r.levels[:need])
	}
	q := 0
	for _, bi := range k.byDoc {
		d := &top[bi]
		for q < len(judged) && cmpDocKey(judged[q].Docno, prefixKey(judged[q].Docno), d.docno, d.key) < 0 {
			if judged[q].Rel >= 0 {
				r.levels[judged[q].Rel]++
			}
			q++
		}
		if q >= len(judged) || judged[q].Docno > d.docno {
			d.rel = RelNonpool
			continue
		}
		if judged[q].Rel < 0 {
			d.rel = RelUnjudged
		} else {
			d.rel = judged[q].Rel
			r.levels[judged[q].Rel]++
		}
		q++
	}
	for ; q < len(judged); q++ {
		if judged[q].Rel >= 0 {
			r.levels[judged[q].Rel]++
		}
	}

	r.Rels = slices.Grow(r.Rels[:0], n)
	r.NumRelRet, r.NumNonpool, r.NumUnjudged = 0, 0, 0
	level := k.cfg.RelLevel
	for i := range top {
		rel := top[i].rel
		if k.cfg.JudgedOnly {
			if rel < 0 {
				continue
			}
		} else if rel == RelNonpool {
			r.NumNonpool++
		} else if rel == RelUnjudged {
			r.NumUnjudged++
		}
		if rel >= 0 && rel >= level {
			r.NumRelRet++
		}
		r.Rels = append(r.Rels, rel)
	}
	r.NumRet = int64(len(r.Rels))
	r.NumRel = 0
	for i := int64(0); i < need; i++ {
		if r.levels[i] != 0 {
			r.NumRelLevels = i + 1
			if i >= level {
				r.NumRel += r.levels[i]
			}
		}
	}
	return r, nil
}
