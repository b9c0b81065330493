package evalsuite

import (
	"errors"
	"fmt"
)

// toolCreatePlan is the tool that proposes a plan in Plan mode.
const toolCreatePlan = "create_todo_list"

// planFirst runs in Plan mode: the model may only read and propose a plan;
// the runner then approves it (as "Run plan" does) and the plan's agents
// do the work. The tests were written first, so they fail to build until
// both functions exist.
var planFirst = Task{
	Name:        "plan-first",
	Description: "propose a plan in Plan mode, then run it once approved",
	Mode:        "plan",
	Setup: func(_ *Env, dir string) error {
		return writeFiles(dir, map[string]string{
			"go.mod":   "module stats\n\ngo 1.21\n",
			"stats.go": "package stats\n\n// Mean returns the mean of xs, 0 for none.\nfunc Mean(xs []float64) float64 {\n\tif len(xs) == 0 {\n\t\treturn 0\n\t}\n\tsum := 0.0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum / float64(len(xs))\n}\n",
			"stats_test.go": "package stats\n\nimport \"testing\"\n\nfunc TestMedian(t *testing.T) {\n" +
				"\tfor _, tc := range []struct {\n\t\txs   []float64\n\t\twant float64\n\t}{{nil, 0}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {\n" +
				"\t\tif got := Median(tc.xs); got != tc.want {\n\t\t\tt.Errorf(\"Median(%v) = %v, want %v\", tc.xs, got, tc.want)\n\t\t}\n\t}\n}\n\n" +
				"func TestMedianKeepsInput(t *testing.T) {\n\txs := []float64{3, 1, 2}\n\tMedian(xs)\n\tif xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {\n\t\tt.Fatalf(\"Median reordered its input: %v\", xs)\n\t}\n}\n\n" +
				"func TestMode(t *testing.T) {\n" +
				"\tfor _, tc := range []struct {\n\t\txs   []float64\n\t\twant float64\n\t}{{nil, 0}, {[]float64{1, 2, 2, 3}, 2}, {[]float64{5, 1, 1, 5}, 1}} {\n" +
				"\t\tif got := Mode(tc.xs); got != tc.want {\n\t\t\tt.Errorf(\"Mode(%v) = %v, want %v\", tc.xs, got, tc.want)\n\t\t}\n\t}\n}\n",
			"NOTES.md": "# stats\n\nMode: the most frequent value; on a tie, the smallest of the tied values. Median and Mode return 0 for no values and never change their input.\n",
		})
	},
	Prompt: func(*Env) string {
		return "Add Median and Mode to package stats so that the tests in stats_test.go pass (NOTES.md says how ties and empty input behave). Plan the work first; do not change the tests."
	},
	Check: func(c *CheckInput) error {
		plan := c.FirstOK(toolCreatePlan)
		if plan < 0 {
			return errors.New("no plan was proposed")
		}
		if e := c.FirstEdit(); e >= 0 && e < plan {
			return fmt.Errorf("a file was edited (call %d) before the plan was proposed (call %d)", e+1, plan+1)
		}
		if err := unchanged(c.Workspace, "stats_test.go"); err != nil {
			return err
		}
		return goTest(c.Workspace)
	},
}
