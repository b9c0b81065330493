package engine

import (
	"os"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/osbox"
)

func sandboxAvailable() bool { return osbox.Detect().Mechanism == osbox.Bubblewrap }

// requireSandbox fails on CI (which installs bubblewrap) and skips, saying
// why, on a machine without it.
func requireSandbox(t *testing.T) {
	t.Helper()
	if sandboxAvailable() {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("CI must provide bubblewrap: %+v", osbox.Detect())
	}
	t.Skipf("bubblewrap is not available: %+v", osbox.Detect())
}
