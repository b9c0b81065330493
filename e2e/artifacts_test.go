package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Each run of the suite writes under its own folder, e2e/artifacts/<run>/,
// and each test under a folder of its own in it (a repeated test, as with
// -count=5, gets <Test>-2, <Test>-3, ...). Nothing is removed at the start
// of a test, so a failure's artifacts survive every later test and later
// runs; a passing test removes only its own folder.
var artifactRun struct {
	once sync.Once
	dir  string
	mu   sync.Mutex
	used map[string]int
}

// newArtifactsDir creates the folder for one test run.
func newArtifactsDir(root, testName string) (string, error) {
	artifactRun.once.Do(func() {
		artifactRun.dir = filepath.Join(root, "e2e", "artifacts", fmt.Sprintf("%s-%d", time.Now().UTC().Format("20060102T150405Z"), os.Getpid()))
		artifactRun.used = map[string]int{}
	})
	artifactRun.mu.Lock()
	name := sanitize(testName)
	artifactRun.used[name]++
	if n := artifactRun.used[name]; n > 1 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	artifactRun.mu.Unlock()
	dir := filepath.Join(artifactRun.dir, name)
	return dir, os.MkdirAll(dir, 0o755)
}

// removeArtifactsDir removes a passing test's folder, and the run's folder
// once nothing is left in it.
func removeArtifactsDir(dir string) {
	_ = os.RemoveAll(dir)
	_ = os.Remove(filepath.Dir(dir)) // fails, harmlessly, while not empty
}
