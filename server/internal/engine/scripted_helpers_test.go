package engine_test

import "github.com/govibe/govibe/server/internal/engine/enginetest"

// Short names for the scripted replies the scenario tests are written in.
var (
	call  = enginetest.Call
	calls = enginetest.Calls
	text  = enginetest.Text
	has   = enginetest.Has
)

// lastUser is the newest model request's last user message.
func lastUser(x *enginetest.Env) string {
	reqs := x.Model.Requests()
	return reqs[len(reqs)-1].LastUserMessage()
}
