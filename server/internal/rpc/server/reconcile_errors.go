package server

import (
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/modes/moderun"
	"github.com/govibe/govibe/server/internal/engine"
)

// reconcileError is a reconcile control's refusal in the user's language
// (the panel shows it as it comes). A manifest that does not parse or
// validate keeps the validator's English detail, which the model is
// given too; the sentence around it is translated.
func reconcileError(eng *engine.Engine, err error) error {
	var bad *moderun.BadManifestError
	switch {
	case errors.Is(err, moderun.ErrNoManifest):
		return protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("There is no drafted manifest to approve: use /reconcile <intent> first."))
	case errors.Is(err, moderun.ErrNoReconcileRun):
		return protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("There is no reconcile run to resume."))
	case errors.Is(err, moderun.ErrReconcileEnded):
		return protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("The reconcile run has ended; approve the manifest again to start a new run."))
	case errors.Is(err, moderun.ErrNoWorkspace):
		return protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("Reconcile mode needs an open workspace folder."))
	case errors.Is(err, engine.ErrBusy):
		return protocol.Errorf(protocol.CodeBusy, "%s", eng.Tr("this session is still working on the previous message; stop it or wait"))
	case errors.As(err, &bad):
		return protocol.Errorf(protocol.CodeInvalidParams, "%s", eng.Tr("The manifest cannot be used: %s", bad.Err.Error()))
	}
	return notFound(err)
}
