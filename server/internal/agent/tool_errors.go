package agent

import (
	"context"
	"fmt"

	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// The failures the loop itself gives a call (the tool never answered),
// worded for the model in English and for the person watching in their
// language.

func (r *Run) notExecuted(ctx context.Context) tools.Result {
	res := tools.Fail("interrupted: not executed (" + stopReason(ctx) + ")")
	res.Display = r.tr("Not run: the turn was stopped.")
	return res
}

func (r *Run) interruptedWhile(ctx context.Context, tool string) tools.Result {
	res := tools.Fail("interrupted: " + stopReason(ctx) + " while " + tool + " was running")
	res.Display = r.tr("Stopped while %s was running.", tool)
	return res
}

func (r *Run) badJSONArgs(tool string, err error) tools.Result {
	res := tools.Fail(fmt.Sprintf("invalid JSON arguments for %s: %v. Send a JSON object matching the tool's schema.", tool, err))
	res.Display = r.tr("%s was called with arguments that are not a JSON object.", tool)
	return res
}

func (r *Run) toolCrashed(tool string, cause any) tools.Result {
	res := tools.Fail(fmt.Sprintf("tool %s failed unexpectedly: %v", tool, cause))
	res.Display = r.tr("%s failed unexpectedly: %v", tool, cause)
	return res
}

func (r *Run) toolFailed(tool string, err error) tools.Result {
	res := tools.Fail(fmt.Sprintf("%s failed: %v", tool, err))
	res.Display = r.tr("%s failed: %v", tool, err)
	return res
}

// toolStopped words a call the watchdog stopped for using more than its
// CPU budget.
func (r *Run) toolStopped(tool string, e *watchdog.Exceeded) tools.Result {
	res := tools.Fail(e.Error() + ". Do not repeat the call as it was: use a smaller input, or reach the goal another way.")
	res.Display = r.tr("%s was stopped: it used more than %s of CPU time on an input of %d bytes.", tool, e.Budget, e.Size)
	return res
}
