package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/bench/benchclient"
)

// sidecar is `govibe serve --stdio` as the extension runs it, reduced to
// what these benchmarks need: calls, and the end of each turn. It keeps no
// event log, so the client's own memory does not grow with the session.
type sidecar struct {
	proc *benchclient.Process
	conn *jsonrpc2.Conn

	mu       sync.Mutex
	finished map[string]chan protocol.ChatEvent // turn id → its turnFinished
	early    map[string]protocol.ChatEvent      // turnFinished read before its waiter
}

// startSidecar spawns bin in workspace and initializes it against the
// scripted model at modelURL, with its state under stateDir.
func startSidecar(bin, workspace, stateDir, modelURL string, settings map[string]any) (*sidecar, error) {
	proc, err := benchclient.StartSidecar(bin, workspace, []string{"GOVIBE_LOG_DIR=" + filepath.Join(stateDir, "logs")})
	if err != nil {
		return nil, err
	}
	s := &sidecar{proc: proc, finished: map[string]chan protocol.ChatEvent{}, early: map[string]protocol.ChatEvent{}}
	s.conn = jsonrpc2.NewConn(context.Background(), proc.Stream(), s)
	values := map[string]any{"apiBaseUrl": modelURL, "model": "scripted-model"}
	for k, v := range settings {
		values[k] = v
	}
	var res protocol.InitializeResult
	err = s.call("initialize", protocol.InitializeParams{
		ProtocolVersion:  protocol.Version,
		ClientInfo:       protocol.ClientInfo{Name: "sessionbench", Version: "bench"},
		WorkspaceFolders: []protocol.WorkspaceFolder{{Name: "workspace", Path: workspace}},
		StorageDir:       stateDir,
		Locale:           "en",
		Settings:         protocol.Settings{Values: values, APIKeys: map[string]string{"": "sk-sessionbench-0123456789"}},
		Capabilities:     protocol.ClientCapabilities{ApplyEdit: true, Confirm: true},
		Trusted:          true,
		Host:             protocol.HostInfo{OS: "linux", Shell: "bash"},
	}, &res)
	if err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	return s, nil
}

func (s *sidecar) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return s.conn.Call(ctx, method, params, result)
}

// Handle records turn ends and answers the editor's requests with empty
// results (no dirty buffers, no diagnostics).
func (s *sidecar) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if !req.Notif {
		go func() { _ = conn.Reply(ctx, req.ID, map[string]any{}) }()
		return
	}
	if req.Method != "chat/event" || req.Params == nil {
		return
	}
	var ev struct {
		Kind   kinds.Kind          `json:"kind"`
		TurnID string              `json:"turnId"`
		Status string              `json:"status"`
		Error  *protocol.ErrorInfo `json:"error"`
	}
	if json.Unmarshal(*req.Params, &ev) != nil || ev.Kind != kinds.TurnFinished {
		return
	}
	done := protocol.ChatEvent{Kind: ev.Kind, TurnID: ev.TurnID, Status: ev.Status, Error: ev.Error}
	s.mu.Lock()
	if ch, ok := s.finished[ev.TurnID]; ok {
		ch <- done
	} else {
		s.early[ev.TurnID] = done
	}
	s.mu.Unlock()
}

// send runs one chat/send and waits for its turn to finish.
func (s *sidecar) send(sid, text string) (string, error) {
	var res protocol.ChatSendResult
	if err := s.call("chat/send", protocol.ChatSendParams{SessionID: sid, Text: text}, &res); err != nil {
		return "", fmt.Errorf("chat/send: %w", err)
	}
	ch := make(chan protocol.ChatEvent, 1)
	s.mu.Lock()
	if ev, ok := s.early[res.TurnID]; ok {
		delete(s.early, res.TurnID)
		ch <- ev
	} else {
		s.finished[res.TurnID] = ch
	}
	s.mu.Unlock()
	select {
	case ev := <-ch:
		s.mu.Lock()
		delete(s.finished, res.TurnID)
		s.mu.Unlock()
		if ev.Status != "done" {
			msg := ""
			if ev.Error != nil {
				msg = ": " + ev.Error.Message
			}
			return res.SessionID, fmt.Errorf("turn %s ended %q%s", res.TurnID, ev.Status, msg)
		}
		return res.SessionID, nil
	case <-time.After(2 * time.Minute):
		return res.SessionID, fmt.Errorf("turn %s did not finish in 2 minutes", res.TurnID)
	}
}

func (s *sidecar) pid() int { return s.proc.Pid() }

func (s *sidecar) close() {
	_ = s.conn.Close()
	_ = s.proc.Close(5 * time.Second)
}
