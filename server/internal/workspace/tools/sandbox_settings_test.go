package tools

import (
	"reflect"
	"testing"

	"github.com/govibe/govibe/server/internal/gate/osbox"
	"github.com/govibe/govibe/server/internal/host/config"
)

// The sandbox from the settings is none when the user turned it off, and
// otherwise the same view NewSandboxEnv builds from those settings.
func TestSandboxFromSettings(t *testing.T) {
	s := config.SandboxSettings{Mask: []string{"~/.secret", "relative", " /abs/x "}, MaxProcesses: 64, MaxMemoryMB: 512}
	if sb := SandboxFromSettings(s); sb != nil || sb.On() {
		t.Fatalf("disabled: %+v, want nil", sb)
	}
	s.Enabled = true
	got, want := SandboxFromSettings(s), NewSandboxEnv(osbox.Detect(), s.Mask, s.MaxProcesses, s.MaxMemoryMB)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("enabled: %+v, want %+v", got, want)
	}
}
