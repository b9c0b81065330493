package evalsuite

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// addFlag: a feature with its test. The checker builds the command and
// runs it with and without the flag, and counts the tests.
var addFlag = Task{
	Name:        "add-flag",
	Description: "add a command-line flag, with a test",
	Setup: func(_ *Env, dir string) error {
		return writeFiles(dir, map[string]string{
			"go.mod":        "module greet\n\ngo 1.21\n",
			"main.go":       "package main\n\nimport (\n\t\"flag\"\n\t\"fmt\"\n)\n\nfunc main() {\n\tname := flag.String(\"name\", \"world\", \"who to greet\")\n\tflag.Parse()\n\tfmt.Println(greeting(*name))\n}\n",
			"greet.go":      "package main\n\n// greeting is the line main prints.\nfunc greeting(name string) string { return \"hello, \" + name }\n",
			"greet_test.go": "package main\n\nimport \"testing\"\n\nfunc TestGreeting(t *testing.T) {\n\tif got := greeting(\"ann\"); got != \"hello, ann\" {\n\t\tt.Fatal(got)\n\t}\n}\n",
		})
	},
	Prompt: func(*Env) string {
		return "Add a -shout flag to this command: with it, the greeting is printed in upper case (HELLO, ANN). Without it, nothing changes. Add a test for the new behaviour."
	},
	Check: func(c *CheckInput) error {
		if err := goTest(c.Workspace); err != nil {
			return err
		}
		bin := filepath.Join(c.Workspace, ".eval-greet")
		defer os.Remove(bin)
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = c.Workspace
		build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build fails: %s", lastLines(string(out), 5))
		}
		for _, tc := range []struct {
			args []string
			want string
		}{{[]string{"-name", "ann"}, "hello, ann"}, {[]string{"-shout", "-name", "ann"}, "HELLO, ANN"}} {
			out, err := exec.Command(bin, tc.args...).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != tc.want {
				return fmt.Errorf("greet %s printed %q (%v), want %q", strings.Join(tc.args, " "), strings.TrimSpace(string(out)), err, tc.want)
			}
		}
		tests := 0
		files, _ := filepath.Glob(filepath.Join(c.Workspace, "*_test.go"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			tests += strings.Count(string(b), "\nfunc Test")
		}
		if tests < 2 {
			return errors.New("no test was added")
		}
		return nil
	},
}
