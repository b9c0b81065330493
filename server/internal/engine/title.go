package engine

// Sessions are named by package titles: the first message names a
// session at once (sessions.go); a model may name it in the background.

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/config"
	"github.com/govibe/govibe/server/internal/llm"
	"github.com/govibe/govibe/server/internal/titles"
)

// modelTitles says whether sessions are named by a model: titles.model,
// or a title role of its own (configuring one is asking for it).
func (e *Engine) modelTitles() bool {
	v := e.Settings()
	return config.Typed(v).Titles.Model || roleModel(v, RoleTitle) != ""
}

// modelTitle asks the title role's model (main when it has no profile) to
// name the session, in the background: the turn does not wait, and the
// first-message title stays when the request fails or says nothing
// usable. A user's rename always wins (the store ignores auto titles
// then).
func (e *Engine) modelTitle(sid, text string) {
	if e.meter.Root(sid) != sid {
		return // hidden child sessions (sub-agents, reviewers) are never listed
	}
	profile := e.roleProfileFor(context.Background(), sid, RoleTitle)
	client, err := e.client(profile)
	if err != nil {
		e.log.Debug("title model", zap.Error(err))
		return
	}
	if r := []rune(text); len(r) > 2000 {
		text = string(r[:2000])
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		ctx, cancel := context.WithTimeout(e.baseCtx, titles.Timeout)
		defer cancel()
		resp, err := client.Stream(ctx, llm.Request{
			Messages:  []llm.Message{{Role: llm.RoleSystem, Content: titles.Prompt}, {Role: llm.RoleUser, Content: text}},
			MaxTokens: 40, SessionID: sid, Purpose: llm.PurposeTitle,
		}, nil)
		if err != nil {
			e.log.Info("session title from the model failed; the first message names it", zap.String("session", sid), zap.Error(err))
			return
		}
		title := titles.FromModel(resp.Content)
		if title == "" {
			return
		}
		if ok, err := e.Store.SetAutoTitle(ctx, sid, title); err == nil && ok {
			e.opts.OnSession(e.summary(ctx, sid))
		}
	}()
}
