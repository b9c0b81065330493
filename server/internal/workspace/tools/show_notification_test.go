package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// notifier records what show_notification asked to show, refusing past
// its cap like the engine's approver.
type notifier struct {
	Approver
	got []string
	cap int
}

func (n *notifier) Notify(_ context.Context, severity, message string) error {
	if len(n.got) >= n.cap {
		return ErrTooManyNotifications
	}
	n.got = append(n.got, severity+": "+message)
	return nil
}

func TestShowNotification(t *testing.T) {
	env, _ := newEnv(t)
	n := &notifier{cap: 2}
	env.Approver = n
	call := func(args string) Result {
		t.Helper()
		r, err := ShowNotification().Run(context.Background(), env, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return r
	}
	if r := call(`{"message":"  The build passed.  "}`); !r.OK || r.Output != "Shown to the user (info): The build passed." {
		t.Fatalf("info: %+v", r)
	}
	if r := call(`{"message":"Tests fail","severity":"Error"}`); !r.OK {
		t.Fatalf("error severity: %+v", r)
	}
	if strings.Join(n.got, "|") != "info: The build passed.|error: Tests fail" {
		t.Fatalf("shown %q", n.got)
	}
	// Every bad input is refused with a reason and nothing is shown.
	bad := map[string]string{
		`{"message":"   "}`:                              "non-empty message",
		`{"message":"x","severity":"critical"}`:          `not "critical"`,
		`{"message":"` + strings.Repeat("é", 501) + `"}`: "has 501 characters, at most 500",
		`{"severity":"info"}`:                            "",
		`{"message":"third"}`:                            "already showed 5 notifications",
	}
	for args, want := range bad {
		r, err := ShowNotification().Run(context.Background(), env, json.RawMessage(args))
		if err != nil || r.OK || !strings.Contains(r.Output, want) {
			t.Errorf("%s: got %+v, %v; want a refusal with %q", args, r, err, want)
		}
	}
	if len(n.got) != 2 {
		t.Fatalf("a refused call was shown: %q", n.got)
	}
	// An approver nobody watches: the model is told to say it instead.
	env.Approver = nil
	if r := call(`{"message":"hello"}`); r.OK || !strings.Contains(r.Output, "nobody can see notifications") {
		t.Fatalf("without a notifier: %+v", r)
	}
}
