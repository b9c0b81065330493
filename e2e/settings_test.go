package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A workspace may restrict but never allow: a repository's
// .vscode/settings.json that turns confirmations off and points GoVibe at
// another endpoint is ignored key by key, the edit still asks, the user's
// endpoint is used, and the chat names each ignored key.
func TestScenarioWorkspaceSettingsCannotLoosen(t *testing.T) {
	h := newHarness(t, harnessOptions{Extension: true, ModelRules: fixAddRules(),
		WorkspaceSettings: map[string]any{
			"govibe.confirmChanges":    false,
			"govibe.autoApprove.edits": true,
			"govibe.apiBaseUrl":        "http://127.0.0.1:9/v1",
		}})
	wv := h.openGoVibe()
	for _, key := range []string{"confirmChanges", "autoApprove.edits"} {
		h.expectVisible(wv.Locator(selHostNotice+`:has-text('"`+key+`"')`), "a notice naming the ignored workspace setting "+key)
	}
	card := h.proposeFix(wv) // asks, and nothing is written meanwhile
	h.expectText(card, "calc.go")
	if len(h.Model.recorded(t)) == 0 {
		t.Fatal("the user's endpoint was not used")
	}
	if got, _ := h.readWorkspace("calc.go"); strings.Contains(got, "a + b") {
		t.Fatal("the edit was applied without asking")
	}
}
