package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// make run (scripts/run.sh) builds this program for its no-key demo; a
// package moved without updating the script broke `make run` for every
// newcomer without a key, and nothing else runs that script.
func TestRunScriptBuildsExistingPackages(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..")
	data, err := os.ReadFile(filepath.Join(root, "scripts", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	builds := regexp.MustCompile(`go build (?:-\S+ \S+ )*(\./\S+)`).FindAllSubmatch(data, -1)
	if len(builds) == 0 {
		t.Fatal("scripts/run.sh builds nothing with go build: update this test")
	}
	for _, m := range builds {
		pkg := string(m[1])
		gofiles, _ := filepath.Glob(filepath.Join(root, pkg, "*.go"))
		if len(gofiles) == 0 {
			t.Errorf("scripts/run.sh builds %s, which has no Go files", pkg)
		}
	}
}
