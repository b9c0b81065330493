package modes

import "github.com/govibe/govibe/server/internal/storage/sessionstate"

// The session state a working mode keeps, declared here with the types it
// holds so that sessionstate depends on no mode.
var (
	// ModeKey is the session's working mode; absent means Agent.
	ModeKey = sessionstate.NewKey[Mode]("mode")
	// PhaseProgressKey is a Phases-mode run's state, findings, plan and
	// progress, kept outside the conversation.
	PhaseProgressKey = sessionstate.NewKey[Progress]("mode.phases")
	// ReconcileRunKey is the session's Reconcile-mode run: its manifest,
	// the step to run next and the diff after each loop, so a restart
	// resumes.
	ReconcileRunKey = sessionstate.NewKey[RunState]("mode.reconcile")
)
