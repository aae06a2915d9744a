package runio

import "fmt"

// DedupeIndex applies policy p to n rows already in input order, for a
// reader that holds a query's rows at once (the Beam adapter groups them
// by qid) rather than streaming them. key returns row i's document id (""
// for none: never a duplicate), better whether row i beats row j for
// DedupeMax (a larger score, or for qrels a larger label), and where
// names row i in a message. It returns the indexes of the rows to keep,
// in the order of their first occurrence; under DedupeMax each kept slot
// holds the index of the row whose fields it takes (the first with the
// largest value). dropped counts the rows dropped. Under DedupeError a
// repeated document makes it return an error naming both places and the
// flag values that keep one.
func DedupeIndex(n int, p DedupePolicy, key func(i int) string, better func(i, j int) bool, where func(i int) string) (keep []int, dropped int64, err error) {
	first := make(map[string]int, n) // doc -> index into keep
	keep = make([]int, 0, n)
	for i := range n {
		k := key(i)
		if k == "" {
			keep = append(keep, i)
			continue
		}
		slot, dup := first[k]
		if !dup {
			first[k] = len(keep)
			keep = append(keep, i)
			continue
		}
		switch p {
		case DedupeFirst:
			dropped++
		case DedupeMax:
			dropped++
			if better(i, keep[slot]) {
				keep[slot] = i
			}
		default:
			return nil, 0, fmt.Errorf("document %q appears twice (first at %s, again at %s); the dedupe policy is error (use first or max to keep one)",
				k, where(keep[slot]), where(i))
		}
	}
	return keep, dropped, nil
}

// Check returns an error for a value that is none of the policies.
func (p DedupePolicy) Check() error {
	if p > DedupeMax {
		return fmt.Errorf("unknown dedupe policy %d (want error, first or max)", uint8(p))
	}
	return nil
}
