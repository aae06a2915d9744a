package treceval

// msort sorts s with the top-down merge sort that glibc's qsort uses
// (split n into n/2 and n-n/2, merge taking the left element while
// cmp(left, right) <= 0). For a total order any sort gives the same
// result; trec_eval's orders are not total for NaN scores and for
// truncated gain differences, and there only this exact algorithm gives
// trec_eval's order. tmp must have at least len(s) elements.
func msort[T any](s, tmp []T, cmp func(a, b *T) int) {
	_ = msortCheck(s, tmp, cmp, nil)
}

// msortCheck is msort calling check, if not nil, before each merge of
// more than checkEvery elements, and stopping with its error.
func msortCheck[T any](s, tmp []T, cmp func(a, b *T) int, check func() error) error {
	n := len(s)
	if n <= 1 {
		return nil
	}
	n1 := n / 2
	if err := msortCheck(s[:n1], tmp, cmp, check); err != nil {
		return err
	}
	if err := msortCheck(s[n1:], tmp, cmp, check); err != nil {
		return err
	}
	if check != nil && n > checkEvery {
		if err := check(); err != nil {
			return err
		}
	}
	i, j, k := 0, n1, 0
	for i < n1 && j < n {
		if cmp(&s[i], &s[j]) <= 0 {
			tmp[k] = s[i]
			i++
		} else {
			tmp[k] = s[j]
			j++
		}
		k++
	}
	for i < n1 {
		tmp[k] = s[i]
		i++
		k++
	}
	copy(s[:k], tmp[:k])
	return nil
}
