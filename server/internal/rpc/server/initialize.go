package server

import (
	"context"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/agent/compact"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/gate/approval"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/rpc/wire"
	"github.com/govibe/govibe/server/internal/storage/sessions"
	"github.com/govibe/govibe/server/internal/workspace/rollback"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

func (s *Server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	if p.ProtocolVersion != protocol.Version {
		return nil, protocol.Errorf(protocol.CodeVersionMismatch,
			"GoVibe's extension speaks protocol version %d but its server speaks version %d; reinstall the extension so both come from the same release",
			p.ProtocolVersion, protocol.Version)
	}
	s.mu.Lock()
	already := s.started
	s.mu.Unlock()
	if already {
		return nil, protocol.Errorf(protocol.CodeInvalidRequest, "initialize was already called")
	}
	var roots []string
	for _, f := range p.WorkspaceFolders {
		roots = append(roots, f.Path)
	}
	if len(roots) == 0 {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "GoVibe needs an open folder: open a folder or workspace first")
	}
	if p.StorageDir == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "initialize: storageDir is required")
	}
	values, warns := effectiveSettings(p.Settings, p.Trusted)
	s.applyLogSettings(values, p.Settings.APIKeys)
	if p.StorageDir != "" {
		s.log.Info("initializing", zap.Strings("roots", roots), zap.String("storage", p.StorageDir), zap.String("client", p.ClientInfo.Name+" "+p.ClientInfo.Version))
	}
	var host tools.Host
	if p.Capabilities.DirtyBuffer || p.Capabilities.Diagnostics {
		host = &editorHost{client: s.client, dirty: p.Capabilities.DirtyBuffer, diags: p.Capabilities.Diagnostics}
	}
	var editor approval.Editor
	if p.Capabilities.ApplyEdit {
		editor = &editorHost{client: s.client}
	}
	var terminal func(context.Context, int) (string, error)
	if p.Capabilities.TerminalOutput {
		terminal = (&editorHost{client: s.client}).TerminalOutput
	}
	opts := engine.Options{
		Terminal: terminal,
		Roots:    roots,
		StateDir: filepath.Clean(p.StorageDir),
		// Sessions once lived in the editor's per-window slots.
		LegacyStateDirs: p.LegacyStorageDirs,
		Logger:          s.log.Named("engine"),
		Settings:        values,
		APIKeys:         p.Settings.APIKeys,
		Host:            host,
		Editor:          editor,
		HostInfo:        engine.HostInfo{OS: p.Host.OS, Shell: p.Host.Shell, RipgrepPath: p.Host.RipgrepPath, Language: p.Locale},
		Trusted:         p.Trusted,
		// "Always allow" writes here, never into the workspace.
		AllowRules: allowrules.Open(allowrules.DefaultPath()),
		OnNotice: func(level, message, action string) {
			s.notify(func(ctx context.Context) error {
				return s.client.ServerNotice(ctx, &protocol.ServerNotice{Level: level, Message: message, Action: action})
			})
		},
		OnNoticeWithdrawn: func(action string) {
			s.notify(func(ctx context.Context) error {
				return s.client.ServerNotice(ctx, &protocol.ServerNotice{Action: action, Withdraw: true})
			})
		},
		OnConfirm: func(c approval.Confirm) {
			wc := toConfirmRequest(c)
			s.notify(func(ctx context.Context) error { return s.client.ConfirmRequested(ctx, &wc) })
		},
		OnConfirmClosed: func(id, reason string) {
			s.notify(func(ctx context.Context) error {
				return s.client.ConfirmClosed(ctx, &protocol.ConfirmClosed{ID: id, Reason: reason})
			})
		},
		OnSession: func(sum sessions.Summary) {
			info := toSessionInfo(sum)
			s.notify(func(ctx context.Context) error { return s.client.SessionDidChange(ctx, &info) })
		},
		OnSnapshot: func(si rollback.SnapshotInfo) {
			info := toSnapshotInfo(si)
			s.notify(func(ctx context.Context) error { return s.client.SnapshotCreated(ctx, &info) })
		},
	}
	s.mu.Lock()
	s.started = true
	s.lang = i18n.Pick(config.Typed(values).Language, p.Locale)
	s.locale = p.Locale
	s.trusted = p.Trusted
	s.settings = p.Settings
	s.mu.Unlock()
	// The session store opens in the background (a fresh database costs a
	// few fsyncs); requests wait for it in s.engine.
	go s.open(opts, warns)
	return &protocol.InitializeResult{
		ProtocolVersion: protocol.Version,
		ServerInfo:      protocol.ClientInfo{Name: "govibe", Version: Version},
		Capabilities: protocol.ServerCapabilities{
			Tools:     toolNames(),
			Snapshots: true,
			Sessions:  true,
		},
		Notices: []string{},
	}, nil
}

// open starts the engine, then closes s.ready. Start-up problems reach the
// user as server/notice.
func (s *Server) open(opts engine.Options, warns []config.Warning) {
	defer close(s.ready)
	began := time.Now()
	eng, err := engine.New(opts)
	if err != nil {
		s.log.Error("starting the engine", zap.Error(err))
		s.mu.Lock()
		s.engErr = err
		s.mu.Unlock()
		s.notify(func(ctx context.Context) error {
			return s.client.ServerNotice(ctx, &protocol.ServerNotice{Level: "error", Message: i18n.T(s.lang, "GoVibe could not start: %v", err), Action: "showLogs"})
		})
		return
	}
	// The token estimator's BPE tables take ~100ms of CPU to build, and the
	// first turn needs them before its request; build them now, while the
	// user is still typing, instead of inside that turn.
	go compact.Default().Text("warm-up")
	// Events reach the client from one goroutine, in seq order per session;
	// each run of queued events goes out in one write (see wire.Batch).
	batch := &wire.Batch{}
	batchCtx := wire.WithBatch(context.Background(), batch)
	unsub := eng.Bus.SubscribeFlush(func(ev engine.Event) {
		we := toChatEvent(ev)
		if err := s.client.ChatEvent(batchCtx, &we); err != nil {
			s.log.Debug("notification not delivered", zap.Error(err))
		}
	}, func() {
		if err := batch.Flush(); err != nil {
			s.log.Debug("notifications not delivered", zap.Error(err))
		}
	})
	s.mu.Lock()
	s.eng, s.unsub = eng, unsub
	s.mu.Unlock()
	// Start-up's cost on the server's side: the first session/load waits for it.
	s.log.Info("engine ready", zap.Duration("took", time.Since(began)))
	s.settingsNotices(warns)
	for _, n := range eng.Notices() {
		msg := n
		s.notify(func(ctx context.Context) error {
			return s.client.ServerNotice(ctx, &protocol.ServerNotice{Level: "warning", Message: msg, Action: "showLogs"})
		})
	}
	s.reportPermissionProblems(eng)
}

// applyLogSettings sets the level and the secrets the log redacts: the
// API keys (keys; nil keeps the last ones) and the MCP input values.
func (s *Server) applyLogSettings(v config.Values, keys map[string]string) {
	typed := config.Typed(v)
	s.log.Level.SetLevel(logLevel(typed.LogLevel))
	s.mu.Lock()
	if keys != nil {
		s.apiKeys = keys
	}
	var secrets []string
	for _, k := range s.apiKeys {
		secrets = append(secrets, k)
	}
	for _, k := range s.inputSecrets {
		secrets = append(secrets, k)
	}
	s.mu.Unlock()
	if k := typed.APIKey; k != "" {
		secrets = append(secrets, k)
	}
	s.log.Redactor.Set(secrets...)
}

func toolNames() []string {
	var out []string
	for _, t := range tools.Builtin() {
		out = append(out, t.Name())
	}
	return out
}
