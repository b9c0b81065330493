package engine

import (
	"context"
	"errors"
)

// compactCommand handles the chat text "/compact": it compacts in the
// background instead of starting a model turn. Its turn id names the job;
// a turnFinished event with that id closes it.
func (e *Engine) compactCommand(ctx context.Context, sid string) (string, string, error) {
	if sid == "" {
		return "", "", errors.New("/compact needs a session with messages to summarise")
	}
	job, err := e.StartCompaction(ctx, sid, TriggerCommand)
	if err != nil {
		return "", "", err
	}
	return sid, job, nil
}
