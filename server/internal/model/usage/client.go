package usage

import (
	"context"

	"go.uber.org/zap"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// meteredClient records every successful request's provider-reported
// usage and cost against the request's session and its root. It is as
// safe for concurrent use as the client it wraps.
type meteredClient struct {
	llm.Client
	m       *Meter
	profile llm.Profile
	// model names the profile and model for a cache miss's "switched".
	model string
}

// Client wraps a model client with the accounting, pricing its requests
// with p; nil stays nil, and a metered client is not wrapped twice.
func (m *Meter) Client(c llm.Client, p llm.Profile) llm.Client {
	if c == nil {
		return nil
	}
	if _, ok := c.(*meteredClient); ok {
		return c
	}
	model := p.Model
	if p.Name != "" && p.Name != p.Model {
		model = p.Name + " (" + p.Model + ")"
	}
	return &meteredClient{Client: c, m: m, profile: p, model: model}
}

func (c *meteredClient) Stream(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	var fp *fingerprint
	if req.SessionID != "" {
		fp = c.m.misses.take(c.model, req)
	}
	resp, err := c.Client.Stream(ctx, req, onEvent)
	if err == nil && resp != nil && fp != nil {
		resp.Usage.Miss = c.m.misses.judge(req.SessionID, req.Purpose, fp, resp.Usage)
		if miss := resp.Usage.Miss; miss.Cause != "" {
			c.m.log.Debug("prompt cache miss", zap.String("session", req.SessionID), zap.String("purpose", req.Purpose),
				zap.String("cause", miss.Cause), zap.String("detail", miss.Detail), zap.Int("message", miss.Message),
				zap.Int64("promptTokens", resp.Usage.PromptTokens), zap.Int64("cachedTokens", resp.Usage.CachedTokens))
		}
	}
	if err == nil && resp != nil {
		// The cost is fixed now, at the prices of the profile that made
		// the request; everything that sums usage carries it from here.
		resp.Usage.Cost = c.profile.Cost(resp.Usage)
		resp.Usage.Priced = c.profile.Priced()
	}
	if err == nil && resp != nil && req.SessionID != "" {
		u := resp.Usage
		u.Miss = llm.CacheMiss{} // a request's, not the session's
		record := func(st *State) {
			st.Session.Add(u)
			st.Session.Requests++
		}
		c.m.Update(req.SessionID, record)
		if root := c.m.Root(req.SessionID); root != req.SessionID {
			c.m.Update(root, record)
		}
	}
	return resp, err
}
