package moderun_test

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// The coder's model failing after its retries ends the run Failed
// (CrashLoopBackOff: the model failing), its reason in lastError, with
// the manifest file saying so.
func TestReconcileRunModelFailsAfterRetries(t *testing.T) {
	var faults []scripted.Fault
	for i := 0; i < 12; i++ {
		faults = append(faults, scripted.Status429("0"))
	}
	s := &enginetest.Script{Main: []scripted.Reply{
		calls(call("s1", "write_file", map[string]any{"filePath": "tests/world.want", "content": "world"})),
		text("tests written"),
	}}
	// Every attempt of the coder's request (a retry is another request,
	// Attempt n) is answered 429.
	for i := 0; i < len(faults); i++ {
		s.Main = append(s.Main, scripted.Reply{Text: "never sent", Faults: faults})
	}
	x, sid := reconcileEnv(t, s, config.Values{})
	v := approve(x, sid)
	m := v.Run.Manifest
	if m.Status.Phase != modes.PhaseFailed || !strings.HasPrefix(m.Status.LastError, "CrashLoopBackOff: coder:") || len(v.Run.Diffs) != 0 {
		t.Fatalf("run %+v", v.Run)
	}
	if n := len(x.Model.Requests()); n < 4 {
		t.Fatalf("%d requests: the coder's call was not retried", n)
	}
}
