package treceval

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strings"

	"github.com/rankmetrics/rankmetrics/internal/prefixkey"
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

// ErrJudgmentTooLarge reports a judgement above the supported maximum,
// 2^24.
var ErrJudgmentTooLarge = errors.New("judgement above the supported maximum")

// ErrNegativeFirst reports a first topic whose judgements are all
// negative, where trec_eval fails.
var ErrNegativeFirst = errors.New("the first topic evaluated has only negative judgements (trec_eval fails here too)")

// ErrCrashLevels reports a topic (not the first) whose judgements are all
// -2 or lower, where trec_eval crashes.
var ErrCrashLevels = errors.New("every judgement of the topic is -2 or lower: trec_eval crashes here (it clears a negative number of level counters)")

// JudgmentError is an error about a topic's judgements rather than its
// retrieved documents: a document judged twice, a judgement above the
// supported maximum, or a first topic whose judgements are all negative.
type JudgmentError struct {
	// Qid is the topic (set by Evaluate).
	Qid string
	// Index is the judgement at fault, counted from 0 in the order given.
	Index int
	// Err describes the fault.
	Err error
}

func (e *JudgmentError) Error() string { return e.Err.Error() }
func (e *JudgmentError) Unwrap() error { return e.Err }

// rdoc is a retrieved document being ranked.
type rdoc struct {
	docno string
	key   uint64 // the first 8 bytes of docno, big-endian, zero padded
	score float64
	rel   int64
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
	keys   []simKey
	ranked Ranked
	// tab is an open-addressing hash table of docnos; a slot is in use
	// when its gen is the current gen, so it is cleared only when it
	// grows or gen wraps.
	tab  []slot
	gen  uint32
	seed maphash.Seed
	// mixSeed keys the hash of the docnos of at most 8 bytes.
	mixSeed uint64
	// levelBound mirrors trec_eval's rel_levels allocation: it only grows.
	levelBound int64
}

// NewRanker returns a Ranker for cfg.
func NewRanker(cfg Config) *Ranker {
	seed := maphash.MakeSeed()
	return &Ranker{cfg: cfg, seed: seed, mixSeed: maphash.String(seed, "docno")}
}

// slot is one entry of the Ranker's docno table. It names its docno by
// index, not by string, to take 16 bytes rather than 32.
type slot struct {
	gen    uint32
	hash   uint32 // the docno's hash's top bits, compared before the docno
	doc    int32  // its index in Ranker.docs, or -1
	judged int32  // its index among the judgements, or -1
}

// resetTable empties the table and makes room for n docnos at a load of
// at most one half.
func (k *Ranker) resetTable(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	k.gen++
	if size > len(k.tab) || k.gen == 0 {
		k.tab = make([]slot, max(size, len(k.tab)))
		k.gen = 1
	}
}

// hashDocno hashes docno, whose prefix key (prefixkey.OfString) is key:
// a docno of at most 8 bytes by its key and length with the Ranker's seed
// (prefixkey.Short), a longer one through maphash.
func (k *Ranker) hashDocno(docno string, key uint64) uint64 {
	if len(docno) > 8 {
		return maphash.String(k.seed, docno)
	}
	return prefixkey.Short(key, len(docno), k.mixSeed)
}

// slot returns docno's slot (key is its prefix key), with its hash set:
// in use (gen current) if docno is in the table, else the free slot where
// it belongs. A slot's docno is k.docs[doc].docno, or
// judged[judged].Docno when doc is -1; a ranked document's is compared by
// its key and length first, which are the whole docno when it has at
// most 8 bytes.
func (k *Ranker) slot(docno string, key uint64, judged []Judgment) *slot {
	mask := uint64(len(k.tab) - 1)
	full := k.hashDocno(docno, key)
	hash := uint32(full >> 32)
	for h := full & mask; ; h = (h + 1) & mask {
		s := &k.tab[h]
		if s.gen != k.gen {
			s.hash = hash
			return s
		}
		if s.hash != hash {
			continue
		}
		if s.doc >= 0 {
			d := &k.docs[s.doc]
			if d.key == key && len(d.docno) == len(docno) && (len(docno) <= 8 || d.docno == docno) {
				return s
			}
		} else if judged[s.judged].Docno == docno {
			return s
		}
	}
}

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

// Rank ranks docs against judged (in any order). The result is valid
// until the next call.
func (k *Ranker) Rank(judged []Judgment, docs []Doc) (*Ranked, error) {
	n := len(docs)
	k.docs = slices.Grow(k.docs[:0], n)[:n]
	nan := false
	for i, d := range docs {
		k.docs[i] = rdoc{docno: d.Docno, key: prefixkey.OfString(d.Docno), score: k.cfg.Version.Score(d.Score)}
		if d.Score != d.Score {
			nan = true
		}
	}
	// k.keys[p].i is the document at rank p (from 0).
	k.keys = slices.Grow(k.keys[:0], n)[:n]
	if nan {
		// trec_eval's order depends on the sort algorithm when NaN
		// breaks transitivity: replay it from its starting order
		// (documents sorted by docno, stably).
		k.tmp = slices.Grow(k.tmp[:0], n)[:n]
		msort(k.docs, k.tmp, cmpDocno)
		msort(k.docs, k.tmp, cmpSim)
		for i := range k.keys {
			k.keys[i].i = int32(i)
		}
	} else {
		// Sort small (score, key, index) records rather than the
		// documents: fewer bytes to move; the documents stay where
		// they are, reached through the records.
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
	}
	if int64(n) > k.cfg.MaxRet {
		n = int(max(k.cfg.MaxRet, 0))
	}
	top := k.keys[:n]
	rd := k.docs

	// A hash table of the ranked documents and the judgements finds
	// duplicates and each document's judgement in linear time.
	k.resetTable(n + len(judged))
	for _, t := range top {
		d := &rd[t.i]
		d.rel = RelNonpool
		s := k.slot(d.docno, d.key, judged)
		if s.gen == k.gen {
			return nil, fmt.Errorf("%w %q in the run", ErrDuplicate, d.docno)
		}
		s.gen, s.doc, s.judged = k.gen, t.i, -1
	}
	r := &k.ranked
	maxRel, maxAt := int64(math.MinInt64), 0
	for i, j := range judged {
		if j.Rel > maxRel {
			maxRel, maxAt = j.Rel, i
		}
		s := k.slot(j.Docno, prefixkey.OfString(j.Docno), judged)
		if s.gen != k.gen {
			s.gen, s.doc = k.gen, -1
		} else if s.judged >= 0 {
			return nil, &JudgmentError{Index: i, Err: fmt.Errorf("%w %q in the judgements", ErrDuplicate, j.Docno)}
		}
		s.judged = int32(i)
		if s.doc >= 0 {
			if j.Rel < 0 {
				rd[s.doc].rel = RelUnjudged
			} else {
				rd[s.doc].rel = j.Rel
			}
		}
	}
	if len(judged) == 0 {
		return nil, errors.New("treceval: topic without judgements")
	}
	if maxRel > maxRelLevel {
		return nil, &JudgmentError{Index: maxAt, Err: fmt.Errorf("%w: judgement %d, maximum %d", ErrJudgmentTooLarge, maxRel, maxRelLevel)}
	}
	need := maxRel + 1
	if need > k.levelBound {
		k.levelBound += need
		r.levels = make([]int64, k.levelBound)
	} else if k.levelBound == 0 {
		// trec_eval's allocation fails when the first topic has only
		// negative judgements.
		return nil, &JudgmentError{Err: ErrNegativeFirst}
	}
	if need < 0 {
		// trec_eval clears max_rel+1 level counters, a negative size
		// that crashes it.
		return nil, &JudgmentError{Index: maxAt, Err: ErrCrashLevels}
	}
	if need > 0 {
		clear(r.levels[:need])
	}
	for _, j := range judged {
		if j.Rel >= 0 {
			r.levels[j.Rel]++
		}
	}

	r.Rels = slices.Grow(r.Rels[:0], n)
	r.NumRelRet, r.NumNonpool, r.NumUnjudged = 0, 0, 0
	level := k.cfg.RelLevel
	for _, t := range top {
		rel := rd[t.i].rel
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
