package metric

import "fmt"

// APK returns the average precision at k of a ranked list of predicted ids
// against the relevant ids, as the apk function of the ml_metrics package
// (Kaggle's MAP@k) computes it: over the first k predictions, precision at
// each one that is relevant and not predicted earlier, summed and divided
// by min(len(actual), k). A prediction repeated later in the list counts
// once; actual is taken as a list, so a repeated relevant id counts twice
// in its length, as in ml_metrics. An empty actual gives 0. This is the
// MinRK convention for lists of ids rather than labels and scores.
func APK[T comparable](actual, predicted []T, k int) (float64, error) {
	if k < 1 {
		return 0, fmt.Errorf("metric: APK: k is %d; it must be >= 1: %w", k, ErrConfig)
	}
	if len(actual) == 0 {
		return 0, nil
	}
	relevant := make(map[T]bool, len(actual))
	for _, a := range actual {
		relevant[a] = true
	}
	seen := make(map[T]bool, min(k, len(predicted)))
	hits, score := 0, 0.0
	for i, p := range predicted[:min(k, len(predicted))] {
		if relevant[p] && !seen[p] {
			hits++
			score += float64(hits) / float64(i+1)
		}
		seen[p] = true
	}
	return score / float64(min(len(actual), k)), nil
}

// MAPK returns the mean of APK over lists: actual[i] against predicted[i].
func MAPK[T comparable](actual, predicted [][]T, k int) (float64, error) {
	if len(actual) != len(predicted) {
		return 0, fmt.Errorf("metric: MAPK: %d lists of actual ids but %d of predictions: %w", len(actual), len(predicted), ErrInput)
	}
	if len(actual) == 0 {
		return 0, nil
	}
	var sum float64
	for i := range actual {
		ap, err := APK(actual[i], predicted[i], k)
		if err != nil {
			return 0, err
		}
		sum += ap
	}
	return sum / float64(len(actual)), nil
}
