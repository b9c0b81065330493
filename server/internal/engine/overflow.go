package engine

import (
	"context"

	"go.uber.org/zap"
)

// overflowHook is a run's OverflowCompact: when the provider rejects a
// request as longer than the model's window (our estimate was low, or the
// window setting is wrong), compact the session once so the retry fits.
func (e *Engine) overflowHook(t *turn) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := e.SessionCompaction.Compact(ctx, t.sessionID, t.id, "overflow")
		if err != nil {
			e.log.Warn("compaction after a context-length error", zap.String("session", t.sessionID), zap.Error(err))
		}
		return err
	}
}
