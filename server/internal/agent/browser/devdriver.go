package browser

import (
	"os"
	"path/filepath"
	"strings"
)

// DevDriver finds the driver and browser a development checkout installs
// with e2e/setup.sh ($GOVIBE_E2E_CACHE, else .cache/e2e at the repository
// root above the working directory), for tests. It returns the driver
// directory, or "" and why the browser tests cannot run here.
func DevDriver() (dir, missing string) {
	var dirs []string
	if c := os.Getenv("GOVIBE_E2E_CACHE"); c != "" {
		dirs = append(dirs, filepath.Join(c, "playwright-driver"))
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if isFile(filepath.Join(d, "go.mod")) {
				dirs = append(dirs, filepath.Join(d, ".cache", "e2e", "playwright-driver"))
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range dirs {
		if isFile(filepath.Join(d, "package", "cli.js")) {
			if _, err := FindChromium(""); err != nil {
				return "", "Chromium is not installed (" + err.Error() + "); e2e/setup.sh installs it"
			}
			return d, ""
		}
	}
	return "", "the playwright driver is not installed (looked in " + strings.Join(dirs, ", ") + "); run e2e/setup.sh"
}
