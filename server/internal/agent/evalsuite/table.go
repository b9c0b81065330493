package evalsuite

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// Table prints the report as an aligned table: one row per attempt, then
// the totals.
func Table(w io.Writer, rep Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "task\tpass\trounds\tedit fail\trefusals\tprompt\tcached\tcompletion\tcost\twall s\t")
	for _, r := range rep.Results {
		name := r.Task
		if r.Attempt > 1 {
			name = fmt.Sprintf("%s #%d", r.Task, r.Attempt)
		}
		pass := "yes"
		if !r.Pass {
			pass = "NO"
		}
		row(tw, name, pass, r.Rounds, r.EditFailures, r.Refusals, r.Usage, r.WallSeconds)
	}
	t := rep.Total
	row(tw, "total", fmt.Sprintf("%d/%d", t.Passed, t.Runs), t.Rounds, t.EditFailures, t.Refusals, t.Usage, t.WallSeconds)
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rep.Results {
		if !r.Pass {
			fmt.Fprintf(w, "%s #%d failed: %s\n", r.Task, r.Attempt, r.Reason)
		}
	}
	return nil
}

func row(w io.Writer, name, pass string, rounds, edits, refusals int, u Usage, wall float64) {
	fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.4f\t%.1f\t\n",
		name, pass, rounds, edits, refusals, u.PromptTokens, u.CachedTokens, u.CompletionTokens, u.Cost, wall)
}
