package usage

import (
	"context"

	"github.com/govibe/govibe/server/internal/llm"
)

// meteredClient records every successful request's provider-reported
// usage and cost against the request's session and its root. It is as
// safe for concurrent use as the client it wraps.
type meteredClient struct {
	llm.Client
	m       *Meter
	profile llm.Profile
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
	return &meteredClient{Client: c, m: m, profile: p}
}

func (c *meteredClient) Stream(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (*llm.Response, error) {
	resp, err := c.Client.Stream(ctx, req, onEvent)
	if err == nil && resp != nil {
		// The cost is fixed now, at the prices of the profile that made
		// the request; everything that sums usage carries it from here.
		resp.Usage.Cost = c.profile.Cost(resp.Usage)
		resp.Usage.Priced = c.profile.Priced()
	}
	if err == nil && resp != nil && req.SessionID != "" {
		u := resp.Usage
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
