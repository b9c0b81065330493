package moderun_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/agent/scheduler"
)

func tr(msg string, args ...any) string { return fmt.Sprintf(msg, args...) }

// The user's edits become pending items with trimmed titles; an empty list
// or an item without a title is refused, and a started plan is not edited.
func TestPlanItemsAndReplace(t *testing.T) {
	if _, err := moderun.PlanItems(nil, tr); err == nil {
		t.Fatal("an empty edit was accepted")
	}
	if _, err := moderun.PlanItems([]moderun.PlanEdit{{Title: "ok"}, {Title: " "}}, tr); err == nil || err.Error() != "item 2 of the plan has no title" {
		t.Fatalf("untitled item: %v", err)
	}
	items, err := moderun.PlanItems([]moderun.PlanEdit{{Title: " fix ", Acceptance: "tests pass"}}, tr)
	if err != nil || len(items) != 1 || items[0].Title != "fix" || items[0].Status != scheduler.Pending || items[0].Acceptance != "tests pass" {
		t.Fatalf("items %+v, %v", items, err)
	}
	if _, err := moderun.ReplacePlanItems(nil, items, tr); !errors.Is(err, moderun.ErrNoPlanToRun) {
		t.Fatalf("no plan: %v", err)
	}
	started := &scheduler.Plan{Items: []scheduler.Item{{Title: "a", Status: scheduler.Done}}}
	if p, err := moderun.ReplacePlanItems(started, items, tr); err == nil || p.Items[0].Title != "a" {
		t.Fatalf("a started plan was edited: %+v, %v", p, err)
	}
	p, err := moderun.ReplacePlanItems(&scheduler.Plan{Items: []scheduler.Item{{Title: "a", Status: scheduler.Pending}}}, items, tr)
	if err != nil || len(p.Items) != 1 || p.Items[0].Title != "fix" {
		t.Fatalf("replace: %+v, %v", p, err)
	}
}
