package titles

import (
	"context"
	"strings"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Namer names a session after its first message at once and, when
// titles come from a model, asks it for a better one in the background:
// the turn does not wait, and the first-message title stays when the
// request fails or says nothing usable. A user's rename always wins (the
// store ignores auto titles then).
type Namer struct {
	// ByModel says whether sessions are named by a model now (a setting).
	ByModel func() bool
	// Client is the title role's model for a session.
	Client func(sid string) (llm.Client, error)
	// Listed says whether a session is shown in the list (hidden child
	// sessions, of sub-agents and reviewers, are never named by a model).
	Listed func(sid string) bool
	// SetTitle stores an automatic title; ok is false when the user's own
	// title stands.
	SetTitle func(ctx context.Context, sid, title string) (ok bool, err error)
	// Named tells the client a session's title changed.
	Named func(ctx context.Context, sid string)
	// Go runs f in the background, tracked until the engine closes; Base
	// is cancelled when it closes.
	Go   func(f func())
	Base context.Context
	Log  *zap.Logger
}

// Name names session sid after its first message text.
func (n Namer) Name(ctx context.Context, sid, text string) {
	if title := FromMessage(text); title != "" {
		if ok, err := n.SetTitle(ctx, sid, title); err == nil && ok {
			n.Named(ctx, sid)
		}
	}
	if n.ByModel() && strings.TrimSpace(text) != "" && n.Listed(sid) {
		n.byModel(sid, text)
	}
}

func (n Namer) byModel(sid, text string) {
	client, err := n.Client(sid)
	if err != nil {
		n.Log.Debug("title model", zap.Error(err))
		return
	}
	if r := []rune(text); len(r) > 2000 {
		text = string(r[:2000])
	}
	n.Go(func() {
		ctx, cancel := context.WithTimeout(n.Base, Timeout)
		defer cancel()
		resp, err := client.Stream(ctx, llm.Request{
			Messages:  []llm.Message{{Role: llm.RoleSystem, Content: Prompt}, {Role: llm.RoleUser, Content: text}},
			MaxTokens: 40, SessionID: sid, Purpose: llm.PurposeTitle,
		}, nil)
		if err != nil {
			n.Log.Info("session title from the model failed; the first message names it", zap.String("session", sid), zap.Error(err))
			return
		}
		title := FromModel(resp.Content)
		if title == "" {
			return
		}
		if ok, err := n.SetTitle(ctx, sid, title); err == nil && ok {
			n.Named(ctx, sid)
		}
	})
}
