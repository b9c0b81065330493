package eventview

import (
	"reflect"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/review/reviewers"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
	"github.com/govibe/govibe/server/internal/gate/hooks"
	"github.com/govibe/govibe/server/internal/model/usage"
	"github.com/govibe/govibe/server/internal/test/filled"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
)

// Every field of every payload is filled from a record whose fields are
// all set: a field added to a payload type and forgotten here would reach
// the client empty, so the check walks the payload and names each empty
// field (except the ones another variant fills).
func TestPayloadsCarryEveryField(t *testing.T) {
	var (
		hook      hooks.Run
		use       usage.Context
		plan      scheduler.Plan
		card      reviewers.Card
		progress  modes.Progress
		reconcile moderun.ReconcileView
		snaps     []rollback.TurnSnapshot
	)
	for _, p := range []any{&hook, &use, &plan, &card, &progress, &reconcile, &snaps} {
		filled.Fill(reflect.ValueOf(p).Elem())
	}
	switched := moderun.Panel{Switched: modes.Phases}
	cases := []struct {
		name   string
		out    any
		unused []string // fields the variant leaves to another
	}{
		{"hook", Hook(hook), nil},
		{"context", Context(use), nil},
		{"todo", Todo(plan), nil},
		{"review", Review(card), nil},
		{"snapshots", Snapshots(snaps), nil},
		{"phases", Mode(moderun.Panel{Phases: &progress}), []string{"Reconcile"}},
		{"reconcile", Mode(moderun.Panel{Reconcile: &reconcile}), []string{"Findings", "Plan", "Step", "Log", "Reason"}},
		{"switch", Mode(switched), []string{"State", "Findings", "Plan", "Step", "Log", "Reason", "Reconcile"}},
	}
	for _, c := range cases {
		var empty []string
		walk(reflect.ValueOf(c.out), c.name, &empty)
		for _, e := range empty {
			if !unusedField(e, c.unused) {
				t.Errorf("%s: %s is empty although the record had it", c.name, e)
			}
		}
	}
	if m := Mode(switched); m.Mode != string(modes.Phases) {
		t.Errorf("a switch names the new mode: %+v", m)
	}
	if m := Mode(moderun.Panel{Reconcile: &reconcile}); m.State != m.Reconcile.Phase || m.Mode != string(modes.Reconcile) {
		t.Errorf("a reconcile panel's state is its phase: %+v", m)
	}
}

func unusedField(path string, unused []string) bool {
	for _, u := range unused {
		if strings.HasSuffix(path, "."+u) {
			return true
		}
	}
	return false
}

// walk records the path of every zero leaf under v.
func walk(v reflect.Value, path string, empty *[]string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			*empty = append(*empty, path)
			return
		}
		walk(v.Elem(), path, empty)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walk(v.Field(i), path+"."+v.Type().Field(i).Name, empty)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			*empty = append(*empty, path)
			return
		}
		walk(v.Index(0), path+"[0]", empty)
	default:
		if v.IsZero() {
			*empty = append(*empty, path)
		}
	}
}
