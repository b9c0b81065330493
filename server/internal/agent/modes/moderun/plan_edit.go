package moderun

import (
	"errors"
	"strings"

	"github.com/govibe/govibe/server/internal/agent/scheduler"
)

// ErrNoPlanToRun is running a plan without a proposed plan with work left.
var ErrNoPlanToRun = errors.New("there is no proposed plan with work left to run")

// PlanEdit is one item of a proposed plan as the user edited it.
type PlanEdit struct {
	Title       string
	Description string
	Acceptance  string
}

// PlanItems is the user's edits in the panel (Plan mode's proposal) as
// plan items: every item needs a title. tr localises the errors.
func PlanItems(edited []PlanEdit, tr func(msg string, args ...any) string) ([]scheduler.Item, error) {
	if len(edited) == 0 {
		return nil, errors.New(tr("the plan needs at least one item"))
	}
	items := make([]scheduler.Item, len(edited))
	for i, it := range edited {
		if strings.TrimSpace(it.Title) == "" {
			return nil, errors.New(tr("item %d of the plan has no title", i+1))
		}
		items[i] = scheduler.Item{Title: strings.TrimSpace(it.Title), Description: it.Description, Acceptance: it.Acceptance, Status: scheduler.Pending}
	}
	return items, nil
}

// ReplacePlanItems replaces the proposed plan's items (a plan update):
// allowed only while no item has started.
func ReplacePlanItems(p *scheduler.Plan, items []scheduler.Item, tr func(msg string, args ...any) string) (*scheduler.Plan, error) {
	if p == nil {
		return nil, ErrNoPlanToRun
	}
	for _, it := range p.Items {
		if it.Status != scheduler.Pending {
			return p, errors.New(tr("the plan has started; its items can no longer be edited"))
		}
	}
	p.Items = items
	return p, nil
}
