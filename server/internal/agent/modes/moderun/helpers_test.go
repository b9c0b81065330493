package moderun_test

import "github.com/govibe/govibe/server/internal/engine/enginetest"

// The engine's scenario helpers, as the engine's own tests name them.
var (
	call  = enginetest.Call
	calls = enginetest.Calls
	text  = enginetest.Text
	has   = enginetest.Has
)
