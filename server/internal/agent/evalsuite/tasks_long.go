package evalsuite

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// longFuncs is how many functions steps.go holds: two lines each, about
// 5,000 lines in all, too long to rewrite and to read in one call.
const longFuncs = 2500

// The two functions the longFile task changes, and their new results.
const (
	longA, longAValue = 420, 4200
	longB, longBValue = 2290, 22900
)

func stepsSource() string {
	var b strings.Builder
	b.WriteString("package steps\n\n")
	for i := 1; i <= longFuncs; i++ {
		fmt.Fprintf(&b, "// Step%04d returns %d.\nfunc Step%04d() int { return %d }\n", i, i, i, i)
	}
	return b.String()
}

// stepsCheckTest is written into the workspace only after the run: it
// checks the two new results and that every other function is intact.
func stepsCheckTest() string {
	var b strings.Builder
	b.WriteString("package steps\n\nimport \"testing\"\n\nvar all = []func() int{")
	for i := 1; i <= longFuncs; i++ {
		fmt.Fprintf(&b, "Step%04d,", i)
	}
	fmt.Fprintf(&b, "}\n\nfunc TestSteps(t *testing.T) {\n\tfor i, f := range all {\n\t\twant := i + 1\n\t\tswitch i + 1 {\n\t\tcase %d:\n\t\t\twant = %d\n\t\tcase %d:\n\t\t\twant = %d\n\t\t}\n\t\tif got := f(); got != want {\n\t\t\tt.Errorf(\"Step%%04d() = %%d, want %%d\", i+1, got, want)\n\t\t}\n\t}\n}\n",
		longA, longAValue, longB, longBValue)
	return b.String()
}

var longFile = Task{
	Name:        "long-file",
	Description: "edit a 5,000-line file in two places",
	Setup: func(_ *Env, dir string) error {
		return writeFiles(dir, map[string]string{"go.mod": "module steps\n\ngo 1.21\n", "steps.go": stepsSource()})
	},
	Prompt: func(*Env) string {
		return fmt.Sprintf("In steps.go, make Step%04d return %d and Step%04d return %d, and update their doc comments to match. Change nothing else.",
			longA, longAValue, longB, longBValue)
	},
	Check: func(c *CheckInput) error {
		files, err := changedFiles(c.Workspace)
		if err != nil {
			return err
		}
		if len(files) != 1 || files[0] != "steps.go" {
			return fmt.Errorf("want only steps.go changed, got %v", files)
		}
		// A targeted edit touches four lines; a rewrite shows as many more.
		out, err := git(c.Workspace, "diff", "--numstat", "--", "steps.go")
		if err != nil {
			return err
		}
		f := strings.Fields(out)
		if len(f) < 2 {
			return fmt.Errorf("git diff --numstat printed %q", out)
		}
		added, _ := strconv.Atoi(f[0])
		deleted, _ := strconv.Atoi(f[1])
		if added > 8 || deleted > 8 {
			return fmt.Errorf("steps.go: %d lines added, %d deleted; two targeted edits change about 4", added, deleted)
		}
		b, _ := os.ReadFile(filepath.Join(c.Workspace, "steps.go"))
		for _, want := range []string{fmt.Sprintf("// Step%04d returns %d.", longA, longAValue), fmt.Sprintf("// Step%04d returns %d.", longB, longBValue)} {
			if !strings.Contains(string(b), want) {
				return fmt.Errorf("steps.go lacks the updated comment %q", want)
			}
		}
		if err := os.WriteFile(filepath.Join(c.Workspace, "zz_eval_check_test.go"), []byte(stepsCheckTest()), 0o644); err != nil {
			return err
		}
		return goTest(c.Workspace)
	},
}
