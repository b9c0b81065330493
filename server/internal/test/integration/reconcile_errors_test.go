package integration

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/test/fakeeditor"
)

// The reconcile controls refuse in the user's language: approving with no
// drafted manifest and resuming with no run. (A broken edit's refusal,
// "The manifest cannot be used: …", is checked in TestReconcileOverTheWire.)
func TestReconcileControlErrorsFollowTheLanguage(t *testing.T) {
	for _, tc := range []struct {
		lang              string
		noManifest, noRun string
	}{
		{"en", "There is no drafted manifest to approve", "There is no reconcile run to resume"},
		{"zh-CN", "没有待批准的清单草稿", "没有可恢复的 reconcile 运行"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			ed := fakeeditor.Connect(t, fakeeditor.Options{Workspace: t.TempDir(), Settings: map[string]any{
				"apiBaseUrl": "https://api.example.invalid/v1", "model": "m", "language": tc.lang}})
			var s protocol.SessionInfo
			if err := ed.Call("session/create", protocol.SessionCreateParams{}, &s); err != nil {
				t.Fatal(err)
			}
			var res protocol.ChatSendResult
			err := ed.Call("reconcile/approve", protocol.ReconcileApproveParams{SessionID: s.ID}, &res)
			if err == nil || !strings.Contains(err.Error(), tc.noManifest) {
				t.Fatalf("approve without a manifest: %v", err)
			}
			err = ed.Call("reconcile/resume", protocol.ReconcileParams{SessionID: s.ID}, &res)
			if err == nil || !strings.Contains(err.Error(), tc.noRun) {
				t.Fatalf("resume without a run: %v", err)
			}
		})
	}
}
