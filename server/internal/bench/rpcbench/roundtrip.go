package main

import (
	"fmt"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/server/internal/bench/benchclient"
)

// probe is one kind of request timed for its round trip, with the check its
// answer must pass so a broken sidecar cannot look fast.
type probe struct {
	name   string
	method string
	params any
	check  func(m benchclient.Message) error
}

var probes = []probe{
	{
		name: "rpc.roundtrip_unknown", method: "rpcbench/noop",
		check: func(m benchclient.Message) error {
			if m.Error == nil || m.Error.Code != jsonrpc2.CodeMethodNotFound {
				return fmt.Errorf("want a method-not-found error, got %+v", m)
			}
			return nil
		},
	},
	{
		name: "rpc.roundtrip_session_list", method: "session/list", params: map[string]any{},
		check: func(m benchclient.Message) error {
			if m.Error != nil {
				return fmt.Errorf("session/list failed: %s", m.Error.Message)
			}
			if string(m.Result) != `{"sessions":[]}` {
				return fmt.Errorf("session/list on an empty store answered %s", m.Result)
			}
			return nil
		},
	},
}

func timeCalls(c *benchclient.Peer, p probe, n int, check bool) (sample, error) {
	s := make(sample, 0, n)
	for i := 0; i < n; i++ {
		t0 := time.Now()
		m, err := c.Call(p.method, p.params)
		d := time.Since(t0)
		if err != nil {
			return nil, fmt.Errorf("%s call %d: %w", p.method, i+1, err)
		}
		if check {
			if err := p.check(m); err != nil {
				return nil, err
			}
		} else if m.Method != p.method {
			return nil, fmt.Errorf("echo returned %q for %q", m.Method, p.method)
		}
		s = append(s, d)
	}
	return s, nil
}

// measureRoundTrip times n calls of p against the sidecar and n echoes of
// the same request bytes through cat, alternating in blocks so drift on
// the machine hits both alike. Both sides first warm up.
func measureRoundTrip(sidecar, echo *benchclient.Peer, p probe, n int) (ours, ref sample, err error) {
	const block, warmup = 250, 200
	if _, err := timeCalls(sidecar, p, warmup, true); err != nil {
		return nil, nil, err
	}
	if _, err := timeCalls(echo, p, warmup, false); err != nil {
		return nil, nil, err
	}
	for len(ours) < n {
		k := min(block, n-len(ours))
		s, err := timeCalls(sidecar, p, k, true)
		if err != nil {
			return nil, nil, err
		}
		ours = append(ours, s...)
		if s, err = timeCalls(echo, p, k, false); err != nil {
			return nil, nil, err
		}
		ref = append(ref, s...)
	}
	return ours, ref, nil
}
