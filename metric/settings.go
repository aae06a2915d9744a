package metric

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
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

var kindNames = [...]string{
	KindMAP: "map", KindMRR: "mrr", KindHits: "hits", KindARP: "arp", KindPrecision: "precision",
	KindRecall: "recall", KindNDCG: "ndcg", KindDCG: "dcg", KindOPA: "ordered_pair_accuracy",
	KindPrecisionIA: "precision_ia", KindAlphaDCG: "alpha_dcg",
}

// defaultNames are the names Keras gives each TF-Ranking class when it is
// made without a name.
var defaultNames = [...]string{
	KindMAP: DefaultMAPName, KindMRR: "mrr_metric", KindHits: "hits_metric", KindARP: "arp_metric",
	KindPrecision: "precision_metric", KindRecall: "recall_metric", KindNDCG: "ndcg_metric",
	KindDCG: "dcg_metric", KindOPA: "opa_metric", KindPrecisionIA: "precision_ia_metric", KindAlphaDCG: "alpha_dcg_metric",
}

// String returns the metric's key: "map", "mrr", "hits", "arp",
// "precision", "recall", "ndcg", "dcg", "ordered_pair_accuracy",
// "precision_ia" or "alpha_dcg".
func (k Kind) String() string {
	if k >= 0 && k < kindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// DefaultName returns the name a metric of kind k reports under when it is
// made without WithName, as Keras names the TF-Ranking class.
func (k Kind) DefaultName() string {
	if k >= 0 && k < kindCount {
		return defaultNames[k]
	}
	return k.String()
}

// takesTopN reports whether metrics of kind k have a cutoff.
func (k Kind) takesTopN() bool { return k != KindARP && k != KindOPA }

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
	if k < 0 || k >= kindCount {
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

// Settings is the whole configuration of a metric of the family: the
// Config every metric has, the kind, and the parameters of some kinds. The
// zero values of Gain and Discount are TF-Ranking's defaults. Its JSON
// form adds the keys metric, and gain, discount, convention, empty and
// relevance when they are not the defaults.
type Settings struct {
	Config
	// Kind is the metric.
	Kind Kind
	// Gain maps a label to its gain, for NDCG and DCG.
	Gain Gain
	// Discount maps a rank to its discount, for NDCG and DCG.
	Discount Discount
	// Convention is the definition of average precision, for MAP.
	Convention Convention
	// Empty says what a list without relevant items scores, for MAP.
	Empty EmptyPolicy
	// Relevance is the label from which an item is relevant; 0 means
	// TF-Ranking's 1. Only MAP under a convention other than TFRanking
	// takes another value.
	Relevance float64
	// Alpha is alpha-DCG's novelty parameter, in [0, 1]: the gain of a
	// subtopic falls by a factor 1-Alpha each time it is covered again.
	Alpha float64
	// Subtopics is the number T of subtopics of each item, for PrecisionIA
	// and AlphaDCG, whose labels have shape [B, L*T]: item i of a list has
	// labels i*T .. i*T+T-1.
	Subtopics int
}

// DefaultSettings returns the settings of a metric of kind k made with no
// options.
func DefaultSettings(k Kind) Settings {
	s := Settings{Config: DefaultConfig(k.DefaultName()), Kind: k}
	if k == KindAlphaDCG {
		s.Alpha = 0.5
	}
	return s
}

// threshold returns the label from which an item is relevant.
func (s *Settings) threshold() float64 {
	if s.Relevance == 0 {
		return 1
	}
	return s.Relevance
}

// Validate returns an error naming the first setting that is out of range
// or that the kind does not take.
func (s *Settings) Validate() error {
	if err := s.Config.Validate(); err != nil {
		return err
	}
	if s.Kind < 0 || s.Kind >= kindCount {
		return fmt.Errorf("metric: unknown metric kind %d: %w", int(s.Kind), ErrConfig)
	}
	k := s.Kind
	if !k.takesTopN() && s.TopN != NoTopN {
		return fmt.Errorf("metric: %s takes no topn (got %d), as in TF-Ranking: %w", k, s.TopN, ErrConfig)
	}
	if k != KindNDCG && k != KindDCG && !s.Gain.IsZero() {
		return fmt.Errorf("metric: %s takes no gain function; only ndcg and dcg do: %w", k, ErrConfig)
	}
	if k != KindNDCG && k != KindDCG && k != KindAlphaDCG && !s.Discount.IsZero() {
		return fmt.Errorf("metric: %s takes no discount function; only ndcg, dcg and alpha_dcg do: %w", k, ErrConfig)
	}
	if k != KindAlphaDCG && s.Alpha != 0 {
		return fmt.Errorf("metric: %s takes no alpha (got %v); only alpha_dcg does: %w", k, s.Alpha, ErrConfig)
	}
	if !(s.Alpha >= 0 && s.Alpha <= 1) {
		return fmt.Errorf("metric: alpha is %v; it must be in [0, 1]: %w", s.Alpha, ErrConfig)
	}
	if k.subtopics() != (s.Subtopics != 0) || s.Subtopics < 0 {
		if k.subtopics() {
			return fmt.Errorf("metric: %s takes labels with subtopics: the number of subtopics is %d; set it >= 1 with WithSubtopics: %w", k, s.Subtopics, ErrConfig)
		}
		return fmt.Errorf("metric: %s takes no subtopics (got %d); only precision_ia and alpha_dcg do: %w", k, s.Subtopics, ErrConfig)
	}
	if k.subtopics() && s.Ties == Expected && k == KindAlphaDCG {
		return fmt.Errorf("metric: alpha_dcg has no closed-form expectation over ties; use another tie policy: %w", ErrConfig)
	}
	if k != KindMAP && (s.Convention != TFRanking || s.Empty != EmptyDefault || s.Relevance != 0) {
		return fmt.Errorf("metric: %s takes no convention, empty-list policy or relevance threshold; only map does: %w", k, ErrConfig)
	}
	if s.Convention < 0 || s.Convention >= conventionCount {
		return fmt.Errorf("metric: unknown convention %d: %w", int(s.Convention), ErrConfig)
	}
	if s.Empty < 0 || s.Empty >= emptyCount {
		return fmt.Errorf("metric: unknown empty-list policy %d: %w", int(s.Empty), ErrConfig)
	}
	if s.Relevance != 0 {
		if s.Convention == TFRanking {
			return fmt.Errorf("metric: the tfranking convention fixes relevance at label >= 1 (got %v): %w", s.Relevance, ErrConfig)
		}
		if !(s.Relevance >= 0x1p-126) || math.IsInf(s.Relevance, 1) {
			return fmt.Errorf("metric: relevance threshold %v must be finite and at least 2^-126, the least normal float32: %w", s.Relevance, ErrConfig)
		}
	}
	return nil
}

type settingsJSON struct {
	Metric     Kind        `json:"metric"`
	Gain       string      `json:"gain,omitempty"`
	Discount   string      `json:"discount,omitempty"`
	Convention Convention  `json:"convention,omitzero"`
	Empty      EmptyPolicy `json:"empty,omitzero"`
	Relevance  float64     `json:"relevance,omitzero"`
	Alpha      float64     `json:"alpha,omitzero"`
	Subtopics  int         `json:"subtopics,omitzero"`
}

// MarshalJSON encodes the settings as the keys of Config plus metric, and
// the family's parameters when they are not the defaults. A user gain or
// discount function is written by its name.
func (s Settings) MarshalJSON() ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	base, err := json.Marshal(s.Config)
	if err != nil {
		return nil, err
	}
	ext, err := json.Marshal(settingsJSON{Metric: s.Kind, Gain: s.Gain.name, Discount: s.Discount.name,
		Convention: s.Convention, Empty: s.Empty, Relevance: s.Relevance, Alpha: s.Alpha, Subtopics: s.Subtopics})
	if err != nil {
		return nil, err
	}
	// Both are objects: join their members.
	return append(append(base[:len(base)-1:len(base)-1], ','), ext[1:]...), nil
}

// UnmarshalJSON decodes settings. A gain or discount must be one of the
// built-in names; user functions cannot be read back. An unknown key is an
// error wrapping ErrConfig.
func (s *Settings) UnmarshalJSON(b []byte) error {
	var both struct {
		configJSON
		settingsJSON
	}
	if err := decodeStrict(b, &both, "settings", settingsKeys); err != nil {
		return err
	}
	c, err := both.config()
	if err != nil {
		return err
	}
	j := &both.settingsJSON
	out := Settings{Config: c, Kind: j.Metric, Convention: j.Convention, Empty: j.Empty, Relevance: j.Relevance,
		Alpha: j.Alpha, Subtopics: j.Subtopics}
	if j.Gain != "" {
		g, err := ParseGain(j.Gain)
		if err != nil {
			return err
		}
		out.Gain = g
	}
	if j.Discount != "" {
		d, err := ParseDiscount(j.Discount)
		if err != nil {
			return err
		}
		out.Discount = d
	}
	*s = out
	return out.Validate()
}

// Setting sets part of a family metric's settings. Every Option is a
// Setting, so the options of MeanAveragePrecision apply to every metric.
type Setting interface {
	applySetting(*Settings) error
}

func (o Option) applySetting(s *Settings) error { return o(&s.Config) }

type settingFunc func(*Settings) error

func (f settingFunc) applySetting(s *Settings) error { return f(s) }

// WithGain sets the gain function of NDCG and DCG.
func WithGain(g Gain) Setting {
	return settingFunc(func(s *Settings) error { s.Gain = g; return nil })
}

// WithDiscount sets the rank discount function of NDCG and DCG.
func WithDiscount(d Discount) Setting {
	return settingFunc(func(s *Settings) error { s.Discount = d; return nil })
}

// WithAlpha sets alpha-DCG's novelty parameter, in [0, 1]; TF-Ranking's
// default is 0.5.
func WithAlpha(alpha float64) Setting {
	return settingFunc(func(s *Settings) error {
		if !(alpha >= 0 && alpha <= 1) {
			return fmt.Errorf("metric: WithAlpha(%v): alpha must be in [0, 1]: %w", alpha, ErrConfig)
		}
		s.Alpha = alpha
		return nil
	})
}

// WithSubtopics sets the number of subtopics of each item, for
// PrecisionIA and AlphaDCG.
func WithSubtopics(t int) Setting {
	return settingFunc(func(s *Settings) error {
		if t < 1 {
			return fmt.Errorf("metric: WithSubtopics(%d): there must be at least one subtopic: %w", t, ErrConfig)
		}
		s.Subtopics = t
		return nil
	})
}

// WithConvention sets the definition of average precision of MAP.
func WithConvention(c Convention) Setting {
	return settingFunc(func(s *Settings) error {
		if c < 0 || c >= conventionCount {
			return fmt.Errorf("metric: WithConvention(%d): unknown convention: %w", int(c), ErrConfig)
		}
		s.Convention = c
		return nil
	})
}

// WithEmpty sets what a list without relevant items scores under MAP.
func WithEmpty(p EmptyPolicy) Setting {
	return settingFunc(func(s *Settings) error {
		if p < 0 || p >= emptyCount {
			return fmt.Errorf("metric: WithEmpty(%d): unknown empty-list policy: %w", int(p), ErrConfig)
		}
		s.Empty = p
		return nil
	})
}

// WithRelevance sets the label from which an item is relevant, for MAP
// under a convention other than TFRanking (trec_eval's relevance level).
func WithRelevance(label float64) Setting {
	return settingFunc(func(s *Settings) error {
		if !(label >= 0x1p-126) || math.IsInf(label, 1) {
			return fmt.Errorf("metric: WithRelevance(%v): the threshold must be finite and at least 2^-126: %w", label, ErrConfig)
		}
		s.Relevance = label
		return nil
	})
}

// newSettings applies opts to the default settings of kind k.
func newSettings(k Kind, opts []Setting) (Settings, error) {
	s := DefaultSettings(k)
	for _, o := range opts {
		if o == nil {
			return s, fmt.Errorf("metric: nil option: %w", ErrConfig)
		}
		if err := o.applySetting(&s); err != nil {
			return s, err
		}
	}
	return s, s.Validate()
}

// ParseMetric parses a metric name of the form key[@k], such as "map",
// "map@10", "ndcg@5" or "precision@1", into settings named by it. The key is
// one of the Kind names; k sets the cutoff.
func ParseMetric(name string) (Settings, error) {
	key, cut, hasCut := strings.Cut(name, "@")
	k, err := ParseKind(key)
	if err != nil {
		return Settings{}, err
	}
	s := DefaultSettings(k)
	s.Name = name
	if hasCut {
		n, err := strconv.Atoi(cut)
		if err != nil || n < 0 {
			return s, fmt.Errorf("metric: %q: the cutoff after @ must be an integer >= 0: %w", name, ErrConfig)
		}
		if !k.takesTopN() {
			return s, fmt.Errorf("metric: %q: %s takes no cutoff: %w", name, k, ErrConfig)
		}
		s.TopN = n
	}
	return s, nil
}
