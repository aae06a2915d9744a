package ltrdata

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Query is the ranked list of one query: its documents' graded labels, their
// dense feature vectors and their comments.
type Query struct {
	// ID is the query id (the text after "qid:").
	ID string
	// Labels holds one graded relevance label per document.
	Labels []float64
	// Features holds the documents' feature vectors row-major: document i
	// occupies Features[i*n : (i+1)*n] where n is the dataset's NumFeatures.
	Features []float64
	// Comments holds one comment per document ("" when the line has none), or
	// is nil when no document has a comment.
	Comments []string
}

// Len returns the number of documents of the query.
func (q *Query) Len() int { return len(q.Labels) }

// Doc returns the feature vector of document i, a view into q.Features.
func (q *Query) Doc(i, numFeatures int) []float64 {
	return q.Features[i*numFeatures : (i+1)*numFeatures]
}

// Dataset is a list of queries whose documents share one feature space.
type Dataset struct {
	// NumFeatures is the number of features of every document. Feature index
	// j (1-based in the file format) is stored at column j-1.
	NumFeatures int
	// Queries are the ranked lists in file order.
	Queries []Query
}

// NumDocs returns the total number of documents over all queries.
func (d *Dataset) NumDocs() int {
	n := 0
	for i := range d.Queries {
		n += d.Queries[i].Len()
	}
	return n
}

// MaxLen returns the length of the longest list (0 for an empty dataset).
func (d *Dataset) MaxLen() int {
	m := 0
	for i := range d.Queries {
		m = max(m, d.Queries[i].Len())
	}
	return m
}

// LabelCounts returns how many documents carry each label value.
func (d *Dataset) LabelCounts() map[float64]int {
	c := make(map[float64]int)
	for i := range d.Queries {
		for _, l := range d.Queries[i].Labels {
			c[l]++
		}
	}
	return c
}

// Validate checks the internal consistency of d: feature slices of the right
// length, finite values, comment counts, and ids and comments that the text
// format can represent. The error names the query and document.
func (d *Dataset) Validate() error {
	if d.NumFeatures < 0 {
		return fmt.Errorf("ltrdata: NumFeatures is %d, want >= 0", d.NumFeatures)
	}
	seen := make(map[string]int, len(d.Queries))
	for qi := range d.Queries {
		q := &d.Queries[qi]
		if q.ID == "" || strings.IndexFunc(q.ID, unicode.IsSpace) >= 0 || strings.Contains(q.ID, "#") {
			return fmt.Errorf("ltrdata: query %d: id %q is empty or contains whitespace or '#'", qi, q.ID)
		}
		if prev, ok := seen[q.ID]; ok {
			return fmt.Errorf("ltrdata: query %d: id %q already used by query %d", qi, q.ID, prev)
		}
		seen[q.ID] = qi
		if len(q.Features) != len(q.Labels)*d.NumFeatures {
			return fmt.Errorf("ltrdata: query %d (qid %s): %d feature values for %d documents of %d features, want %d",
				qi, q.ID, len(q.Features), len(q.Labels), d.NumFeatures, len(q.Labels)*d.NumFeatures)
		}
		if q.Comments != nil && len(q.Comments) != len(q.Labels) {
			return fmt.Errorf("ltrdata: query %d (qid %s): %d comments for %d documents", qi, q.ID, len(q.Comments), len(q.Labels))
		}
		for i, l := range q.Labels {
			if math.IsNaN(l) || math.IsInf(l, 0) {
				return fmt.Errorf("ltrdata: query %d (qid %s) document %d: label %v is not finite", qi, q.ID, i, l)
			}
		}
		for k, v := range q.Features {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("ltrdata: query %d (qid %s) document %d feature %d: value %v is not finite",
					qi, q.ID, k/max(d.NumFeatures, 1), k%max(d.NumFeatures, 1)+1, v)
			}
		}
		for i, c := range q.Comments {
			if c != strings.TrimSpace(c) || strings.Contains(c, "\n") {
				return fmt.Errorf("ltrdata: query %d (qid %s) document %d: comment %q has surrounding whitespace or a line break", qi, q.ID, i, c)
			}
		}
	}
	return nil
}

// Widen grows the feature space of d to n features, filling the new columns
// with 0 (the value the SVMlight format gives to absent features). It is used
// to align a training and a validation file whose highest feature indices
// differ. Shrinking is an error, since it would drop data.
func (d *Dataset) Widen(n int) error {
	if n < d.NumFeatures {
		return fmt.Errorf("ltrdata: cannot narrow dataset from %d to %d features", d.NumFeatures, n)
	}
	if n == d.NumFeatures {
		return nil
	}
	old := d.NumFeatures
	for qi := range d.Queries {
		q := &d.Queries[qi]
		f := make([]float64, q.Len()*n)
		for i := range q.Len() {
			copy(f[i*n:i*n+old], q.Features[i*old:(i+1)*old])
		}
		q.Features = f
	}
	d.NumFeatures = n
	return nil
}

// Align widens every dataset to the largest NumFeatures among them.
func Align(ds ...*Dataset) error {
	n := 0
	for _, d := range ds {
		n = max(n, d.NumFeatures)
	}
	for _, d := range ds {
		if err := d.Widen(n); err != nil {
			return err
		}
	}
	return nil
}
