package metric

import (
	"fmt"
	"strings"
)

// Kind names a metric of the TF-Ranking family. Its String form is the key
// tfr.keras.metrics.get takes, or the lower-case class name for the metrics
// get does not know.
type Kind int

const (
	// KindMAP is mean average precision (MeanAveragePrecisionMetric, "map").
	KindMAP Kind = iota
	// KindMRR is mean reciprocal rank (MRRMetric, "mrr").
	KindMRR
	// KindHits is hits@k (HitsMetric, "hits").
	KindHits
	// KindARP is average relevance position (ARPMetric, "arp").
	KindARP
	// KindPrecision is precision@k (PrecisionMetric, "precision").
	KindPrecision
	// KindRecall is recall@k (RecallMetric, "recall").
	KindRecall
	// KindNDCG is normalized discounted cumulative gain (NDCGMetric, "ndcg").
	KindNDCG
	// KindDCG is discounted cumulative gain (DCGMetric, "dcg").
	KindDCG
	// KindOPA is ordered pair accuracy (OPAMetric, "ordered_pair_accuracy").
	KindOPA
	// KindPrecisionIA is intent-aware precision (PrecisionIAMetric,
	// "precision_ia"), over labels with subtopics.
	KindPrecisionIA
	// KindAlphaDCG is alpha-DCG (AlphaDCGMetric, "alpha_dcg"), over labels
	// with subtopics.
	KindAlphaDCG
	kindCount
)

// The kinds below are not TF-Ranking's: a profile of another library has
// them (Profile.Kinds).
const (
	// KindRPrecision is R-precision (torchmetrics' RetrievalRPrecision,
	// "rprecision"): the relevant items among the first R, R the number of
	// relevant items, over R.
	KindRPrecision Kind = kindCount + iota
	// KindFallOut is fall-out (torchmetrics' RetrievalFallOut, "fallout"):
	// the non-relevant items within the cutoff over every non-relevant item.
	KindFallOut
	allKindCount
)

var kindNames = [...]string{
	KindMAP: "map", KindMRR: "mrr", KindHits: "hits", KindARP: "arp", KindPrecision: "precision",
	KindRecall: "recall", KindNDCG: "ndcg", KindDCG: "dcg", KindOPA: "ordered_pair_accuracy",
	KindPrecisionIA: "precision_ia", KindAlphaDCG: "alpha_dcg", KindRPrecision: "rprecision", KindFallOut: "fallout",
}

// defaultNames are the names Keras gives each TF-Ranking class when it is
// made without a name.
var defaultNames = [...]string{
	KindMAP: DefaultMAPName, KindMRR: "mrr_metric", KindHits: "hits_metric", KindARP: "arp_metric",
	KindPrecision: "precision_metric", KindRecall: "recall_metric", KindNDCG: "ndcg_metric",
	KindDCG: "dcg_metric", KindOPA: "opa_metric", KindPrecisionIA: "precision_ia_metric", KindAlphaDCG: "alpha_dcg_metric",
	KindRPrecision: "rprecision_metric", KindFallOut: "fallout_metric",
}

// String returns the metric's key: "map", "mrr", "hits", "arp",
// "precision", "recall", "ndcg", "dcg", "ordered_pair_accuracy",
// "precision_ia", "alpha_dcg", "rprecision" or "fallout".
func (k Kind) String() string {
	if k >= 0 && k < allKindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// DefaultName returns the name a metric of kind k reports under when it is
// made without WithName, as Keras names the TF-Ranking class.
func (k Kind) DefaultName() string {
	if k >= 0 && k < allKindCount {
		return defaultNames[k]
	}
	return k.String()
}

// takesTopN reports whether metrics of kind k have a cutoff.
func (k Kind) takesTopN() bool { return k != KindARP && k != KindOPA && k != KindRPrecision }

// subtopics reports whether metrics of kind k take labels with subtopics.
func (k Kind) subtopics() bool { return k == KindPrecisionIA || k == KindAlphaDCG }

// ParseKind parses a metric key; "opa" is also accepted for
// ordered_pair_accuracy.
func ParseKind(s string) (Kind, error) {
	if s == "opa" {
		return KindOPA, nil
	}
	for k, n := range kindNames {
		if n == s {
			return Kind(k), nil
		}
	}
	return 0, fmt.Errorf("metric: %q is not a metric; use one of %s: %w", s, strings.Join(kindNames[:], ", "), ErrConfig)
}

// MarshalText encodes the kind as its key.
func (k Kind) MarshalText() ([]byte, error) {
	if k < 0 || k >= allKindCount {
		return nil, fmt.Errorf("metric: unknown metric kind %d: %w", int(k), ErrConfig)
	}
	return []byte(k.String()), nil
}

// UnmarshalText decodes a metric key.
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	*k = v
	return err
}

// Convention names a definition of average precision. They share the
// numerator, precision at each relevant rank within the cutoff k, and
// differ in the denominator, in what a list without relevant items scores
// and in how lists are weighed. Worked on one list ranked R I R R I I R
// (relevant, irrelevant...) with one more relevant item that was not
// retrieved (passed with weight 0), so R = 5:
//
//	TFRanking          (1 + 2/3 + 3/4 + 4/7) / 4 = 0.7470  (the weight-0 item is masked)
//	TrecEval           (1 + 2/3 + 3/4 + 4/7) / 5 = 0.5976
//	RetrievedRelevant  (1 + 2/3 + 3/4 + 4/7) / 4 = 0.7470
//	MinRK, k = 3       (1 + 2/3) / min(5, 3)     = 0.5556
//	TrecEval, k = 3    (1 + 2/3) / 5             = 0.3333
//	RetrievedRelevant, k = 3  (1 + 2/3) / 2      = 0.8333
//
// ml_metrics' examples: relevance 1 0 1 0 0 1 0 0 1 1 with 5 relevant items
// and k = 10 gives (1 + 2/3 + 3/6 + 4/9 + 5/10)/5 = 0.6222 under MinRK; with
// k = 7 and 8 relevant items, 1 0 0 0 0 1 1 gives 0.2517 and 1 1 1 0 0 0 0
// gives 0.4286. A list without relevant items scores 0, except under
// XGBoost (1); WithEmpty chooses. The conventions other than TFRanking take
// binary relevance, item weights of 0 (judged, not retrieved) or 1, and
// weigh each list by its per-list weight, or 1.
type Convention int

const (
	// TFRanking divides by the weighted count of every relevant item of the
	// list, whatever the cutoff, and weighs lists as TF-Ranking does. It is
	// the default.
	TFRanking Convention = iota
	// TrecEval divides by every relevant judged document, retrieved or not,
	// as trec_eval's map and map_cut_k do. An item whose weight is 0 is a
	// judged document that was not retrieved. trec_eval breaks ties by
	// descending document id: give the items in that order and use the
	// Stable tie policy to get the same order.
	TrecEval
	// MinRK divides by min(R, k), R the number of relevant items, as the
	// apk and mapk functions of the ml_metrics package (Kaggle's MAP@k).
	MinRK
	// RetrievedRelevant divides by the number of relevant items ranked
	// within the cutoff: the mean of precision at each retrieved relevant
	// item, as in textbooks and torchmetrics' RetrievalMAP.
	RetrievedRelevant
	// XGBoost is XGBoost's map@n: MinRK, with a list without relevant
	// items scoring 1.
	XGBoost
	// XGBoostMinus is XGBoost's map@n-: a list without relevant items
	// scores 0.
	XGBoostMinus
	conventionCount
)

var conventionNames = [...]string{
	TFRanking: "tfranking", TrecEval: "treceval", MinRK: "minrk", RetrievedRelevant: "retrieved",
	XGBoost: "xgboost", XGBoostMinus: "xgboost-",
}

// String returns the convention's name: "tfranking", "treceval", "minrk",
// "retrieved", "xgboost" or "xgboost-".
func (c Convention) String() string {
	if c >= 0 && c < conventionCount {
		return conventionNames[c]
	}
	return fmt.Sprintf("Convention(%d)", int(c))
}

// ParseConvention parses a convention name.
func ParseConvention(s string) (Convention, error) {
	for c, n := range conventionNames {
		if n == s {
			return Convention(c), nil
		}
	}
	return 0, fmt.Errorf("metric: convention %q is not one of %s: %w", s, strings.Join(conventionNames[:], ", "), ErrConfig)
}

// MarshalText encodes the convention as its name.
func (c Convention) MarshalText() ([]byte, error) {
	if c < 0 || c >= conventionCount {
		return nil, fmt.Errorf("metric: unknown convention %d: %w", int(c), ErrConfig)
	}
	return []byte(c.String()), nil
}

// UnmarshalText decodes a convention name.
func (c *Convention) UnmarshalText(b []byte) error {
	v, err := ParseConvention(string(b))
	*c = v
	return err
}

// EmptyPolicy says what average precision a list without relevant items
// gets.
type EmptyPolicy int

const (
	// EmptyDefault is the convention's own rule: 1 for XGBoost, 0 for the
	// others.
	EmptyDefault EmptyPolicy = iota
	// EmptyZero scores such a list 0, with its usual weight.
	EmptyZero
	// EmptyOne scores such a list 1, with its usual weight.
	EmptyOne
	// EmptySkip gives such a list weight 0, so it does not count.
	EmptySkip
	// EmptyError makes Update fail, naming the list.
	EmptyError
	emptyCount
)

var emptyNames = [...]string{EmptyDefault: "default", EmptyZero: "zero", EmptyOne: "one", EmptySkip: "skip", EmptyError: "error"}

// String returns "default", "zero", "one", "skip" or "error".
func (p EmptyPolicy) String() string {
	if p >= 0 && p < emptyCount {
		return emptyNames[p]
	}
	return fmt.Sprintf("EmptyPolicy(%d)", int(p))
}

// ParseEmptyPolicy parses an empty-list policy name.
func ParseEmptyPolicy(s string) (EmptyPolicy, error) {
	for p, n := range emptyNames {
		if n == s {
			return EmptyPolicy(p), nil
		}
	}
	return 0, fmt.Errorf("metric: empty-list policy %q is not one of %s: %w", s, strings.Join(emptyNames[:], ", "), ErrConfig)
}

// MarshalText encodes the policy as its name.
func (p EmptyPolicy) MarshalText() ([]byte, error) {
	if p < 0 || p >= emptyCount {
		return nil, fmt.Errorf("metric: unknown empty-list policy %d: %w", int(p), ErrConfig)
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a policy name.
func (p *EmptyPolicy) UnmarshalText(b []byte) error {
	v, err := ParseEmptyPolicy(string(b))
	*p = v
	return err
}

// resolve returns the policy that applies under convention c.
func (p EmptyPolicy) resolve(c Convention) EmptyPolicy {
	if p != EmptyDefault {
		return p
	}
	if c == XGBoost {
		return EmptyOne
	}
	return EmptyZero
}

// Kinds returns every metric kind of TF-Ranking, in the order of their
// constants; Profile.Kinds lists another library's.
func Kinds() []Kind {
	out := make([]Kind, kindCount)
	for k := range out {
		out[k] = Kind(k)
	}
	return out
}

// TakesTopN reports whether metrics of kind k take a cutoff (all but arp,
// ordered_pair_accuracy and rprecision).
func (k Kind) TakesTopN() bool { return k.takesTopN() }

// Subtopics reports whether metrics of kind k read labels with subtopics
// (precision_ia and alpha_dcg).
func (k Kind) Subtopics() bool { return k.subtopics() }

// Conventions returns every convention of average precision, in the order
// of their constants.
func Conventions() []Convention {
	out := make([]Convention, conventionCount)
	for c := range out {
		out[c] = Convention(c)
	}
	return out
}
