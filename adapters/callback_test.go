package adapters

import (
	"errors"
	"strings"
	"testing"
)

// recorder is a Callback that logs calls and answers with fixed actions.
type recorder struct {
	name  string
	log   *[]string
	epoch Action
	err   error
}

func (r recorder) OnEpochEnd(e Event) (Action, error) {
	*r.log = append(*r.log, r.name+":epoch")
	return r.epoch, r.err
}

func (r recorder) OnStepEnd(e Event) (Action, error) {
	*r.log = append(*r.log, r.name+":step")
	return Continue, nil
}

func TestCallbacks(t *testing.T) {
	tests := []struct {
		name    string
		cbs     func(log *[]string) Callbacks
		want    Action
		wantLog string
		wantErr string
	}{
		{"all continue", func(l *[]string) Callbacks {
			return Callbacks{recorder{name: "a", log: l}, recorder{name: "b", log: l}}
		}, Continue, "a:epoch b:epoch", ""},
		{"one stops, all called", func(l *[]string) Callbacks {
			return Callbacks{recorder{name: "a", log: l, epoch: Stop}, recorder{name: "b", log: l}}
		}, Stop, "a:epoch b:epoch", ""},
		{"error stops the chain", func(l *[]string) Callbacks {
			return Callbacks{recorder{name: "a", log: l, err: errors.New("disk full")}, recorder{name: "b", log: l}}
		}, Stop, "a:epoch", "callback 0 (adapters.recorder) at epoch end (epoch 3, step 30): disk full"},
		{"nop", func(l *[]string) Callbacks { return Callbacks{NopCallback{}} }, Continue, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var log []string
			act, err := tc.cbs(&log).EpochEnd(3, 30, map[string]float64{"loss": 1})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if act != tc.want || strings.Join(log, " ") != tc.wantLog {
				t.Fatalf("got %v with calls %q, want %v with %q", act, strings.Join(log, " "), tc.want, tc.wantLog)
			}
		})
	}
}

func TestCallbacksStepAndCopy(t *testing.T) {
	var log []string
	var got Event
	spy := spyCallback{f: func(e Event) { got = e; e.Metrics["x"] = 99 }}
	m := map[string]float64{"x": 1}
	if _, err := (Callbacks{recorder{name: "a", log: &log}, spy}).StepEnd(2, 7, m); err != nil {
		t.Fatal(err)
	}
	if got.Hook != StepEnd || got.Epoch != 2 || got.Step != 7 || strings.Join(log, " ") != "a:step" {
		t.Fatalf("event %+v, calls %v", got, log)
	}
	if m["x"] != 1 {
		t.Fatalf("a callback changed the caller's map: x = %v", m["x"])
	}
}

type spyCallback struct {
	NopCallback
	f func(Event)
}

func (s spyCallback) OnStepEnd(e Event) (Action, error) { s.f(e); return Continue, nil }

func TestStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{EpochEnd.String(), "epoch"}, {StepEnd.String(), "step"}, {Hook(9).String(), "Hook(9)"},
		{Continue.String(), "continue"}, {Stop.String(), "stop"},
		{Max.String(), "max"}, {Min.String(), "min"}, {Mode(5).String(), "Mode(5)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
