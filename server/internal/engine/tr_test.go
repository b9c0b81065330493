package engine

import (
	"testing"

	"github.com/govibe/govibe/server/internal/host/config"
)

// TestTrFollowsTheLanguageSetting: Tr (built in New, handed to every
// capability and to humanerr.Explain) speaks govibe.language, read at each
// call, and the editor's UI locale while the setting is unset or auto.
func TestTrFollowsTheLanguageSetting(t *testing.T) {
	e, err := New(Options{Roots: []string{t.TempDir()}, StateDir: t.TempDir(), HostInfo: HostInfo{Language: "zh-cn"}})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	const msg = "There is no reconcile run to resume."
	if e.Tr(msg) == msg {
		t.Fatalf("with the editor in Chinese and no setting, Tr said %q", e.Tr(msg))
	}
	for _, c := range []struct {
		setting     string
		wantEnglish bool
	}{{"en", true}, {"auto", false}, {"zh-CN", false}, {"", false}} {
		e.UpdateSettings(config.Values{"language": c.setting}, nil)
		if got := e.Tr(msg) == msg; got != c.wantEnglish {
			t.Errorf("language %q: Tr said %q", c.setting, e.Tr(msg))
		}
	}
}
