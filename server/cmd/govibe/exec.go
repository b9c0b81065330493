package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/agent"
	"github.com/govibe/govibe/server/internal/agent/modes"
	"github.com/govibe/govibe/server/internal/engine"
	"github.com/govibe/govibe/server/internal/gate/allowrules"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/host/logging"
	"github.com/govibe/govibe/server/internal/workspace/shell"
)

// Exit codes of govibe exec.
const (
	exitDone  = 0
	exitError = 1
	exitUsage = 2
	// exitLimit: the run stopped at a limit, its tool rounds (--max-turns)
	// or the session budget (--max-cost, --max-tokens).
	exitLimit = 3
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// commonFlags are shared by exec, snapshot and session.
type commonFlags struct {
	workspace, stateDir string
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.workspace, "workspace", "", "workspace directory (default: the current directory)")
	fs.StringVar(&c.stateDir, "state-dir", "", "where sessions, snapshots and logs live (default $XDG_STATE_HOME/govibe/<hash of workspace>)")
}

func (c *commonFlags) resolve() error {
	if c.workspace == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		c.workspace = wd
	}
	abs, err := filepath.Abs(c.workspace)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return fmt.Errorf("--workspace %s is not a directory", c.workspace)
	}
	c.workspace = abs
	if c.stateDir == "" {
		c.stateDir = defaultStateDir(abs)
	}
	return nil
}

func defaultStateDir(ws string) string {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".local", "state")
	}
	sum := sha256.Sum256([]byte(ws))
	return filepath.Join(base, "govibe", hex.EncodeToString(sum[:8]))
}

func execCmd(args []string) int {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	var cf commonFlags
	cf.register(fs)
	var mf modelFlags
	mf.register(fs, -1, "cap on tool rounds (-1: the maxInteractions setting)")
	approve := fs.String("approve", "none", "none|edits|all: what runs without a human")
	maxCost := fs.Float64("max-cost", 0, "stop (exit code 3) when the session's cost reaches this, in the prices' currency (0: the cost.sessionBudget setting)")
	maxTokens := fs.Int64("max-tokens", 0, "stop (exit code 3) when the session's prompt+output tokens reach this (0: the cost.sessionTokenBudget setting)")
	output := fs.String("output", "text", "text|json|stream-json")
	sessionID := fs.String("session", "", "resume this session")
	mode := fs.String("mode", "", "agent|plan|phases|reconcile: the session's working mode (default: the session's, agent for a new one)")
	trust := fs.Bool("trust", false, "trust the workspace: load its hooks, MCP servers, custom commands and agents, and skills with scripts (default: only if listed in "+trustedFoldersFile()+")")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: govibe exec [flags] PROMPT")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	prompt := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if prompt == "-" {
		b, _ := io.ReadAll(os.Stdin)
		prompt = strings.TrimSpace(string(b))
	}
	if prompt == "" {
		fmt.Fprintln(os.Stderr, "govibe exec: a PROMPT is required")
		fs.Usage()
		return exitUsage
	}
	switch *approve {
	case "none", "edits", "all":
	default:
		fmt.Fprintf(os.Stderr, "govibe exec: --approve must be none, edits or all (got %q)\n", *approve)
		return exitUsage
	}
	switch *output {
	case "text", "json", "stream-json":
	default:
		fmt.Fprintf(os.Stderr, "govibe exec: --output must be text, json or stream-json (got %q)\n", *output)
		return exitUsage
	}
	if _, err := modes.Parse(*mode); err != nil {
		fmt.Fprintln(os.Stderr, "govibe exec: --mode:", err)
		return exitUsage
	}
	if err := cf.resolve(); err != nil {
		fmt.Fprintln(os.Stderr, "govibe exec:", err)
		return exitUsage
	}

	// Settings: user file, then environment, then flags.
	extra := mf.extra()
	if *maxCost < 0 || *maxTokens < 0 {
		fmt.Fprintln(os.Stderr, "govibe exec: --max-cost and --max-tokens must not be negative")
		return exitUsage
	}
	if *maxCost > 0 {
		extra["cost.sessionBudget"] = *maxCost
	}
	if *maxTokens > 0 {
		extra["cost.sessionTokenBudget"] = float64(*maxTokens)
	}
	resolved, err := loadSettings(mf.sets, extra)
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe exec:", err)
		return exitUsage
	}
	printWarnings(os.Stderr, "exec", resolved)
	values := resolved.Values
	typed := config.Typed(values)
	keys := mf.takeKey()

	trusted := *trust
	if !trusted {
		if trusted, err = workspaceTrusted(cf.workspace); err != nil {
			fmt.Fprintln(os.Stderr, "govibe exec:", err)
			return exitUsage
		}
	}

	log := logging.New(logging.Options{Level: typed.LogLevel, Dir: filepath.Join(cf.stateDir, "logs"), Stderr: discardUnlessDebug()})
	log.Redactor.Set(keys[""])
	defer log.Sync()

	var eng *engine.Engine
	eng, err = engine.New(engine.Options{
		Roots: []string{cf.workspace}, StateDir: cf.stateDir, Logger: log.Logger,
		Settings: values, APIKeys: keys, Headless: true, Approve: *approve, Trusted: trusted,
		AllowRules: allowrules.Open(allowrules.DefaultPath()),
		OnNotice:   func(level, msg, _ string) { fmt.Fprintf(os.Stderr, "govibe exec: %s: %s\n", level, msg) },
		// The asker speaks the engine's language; eng is set before any turn.
		AskTerminal:   stdinAsker(func(m string, a ...any) string { return eng.Tr(m, a...) }),
		SettingOrigin: func(key string) string { return settingOrigin(resolved.Sources[key], eng.Tr) },
		HostInfo:      engine.HostInfo{OS: runtime.GOOS, Shell: shell.Default()},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "govibe exec:", err)
		return exitError
	}
	defer eng.Close()
	for _, p := range eng.Approvals.PermissionProblems() {
		fmt.Fprintln(os.Stderr, "govibe exec: warning:", p)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := newExecPrinter(*output, os.Stdout, eng.Tr)
	var sid string
	var mu sync.Mutex
	// The run's end is the turnFinished event: it arrives in order after
	// everything the turn streamed, so the printer has seen it all.
	finished := make(chan agent.Status, 1)
	handle := func(ev engine.Event) {
		out.event(ev)
		if ev.Kind == kinds.TurnFinished {
			select {
			case finished <- agent.Status(ev.Status):
			default:
			}
		}
	}
	// Events wait until the init line is out: it names the tools of the
	// turn Send started (a custom command's allowedTools, its model),
	// known once Send has matched the command.
	var early []engine.Event
	ready := false
	unsub := eng.Bus.Subscribe(func(ev engine.Event) {
		mu.Lock()
		defer mu.Unlock()
		if ev.SessionID != sid {
			return
		}
		if !ready {
			early = append(early, ev)
			return
		}
		handle(ev)
	})
	initLine := func() {
		mu.Lock()
		defer mu.Unlock()
		model, tools := eng.TurnTools.Offered(ctx, sid)
		out.init(sid, model, tools)
		for _, ev := range early {
			handle(ev)
		}
		early, ready = nil, true
	}
	sess := *sessionID
	if sess == "" {
		s, err := eng.Sessions.Create(ctx, "")
		if err != nil {
			fmt.Fprintln(os.Stderr, "govibe exec:", err)
			return exitError
		}
		sess = s.ID
	}
	if *mode != "" {
		if err := eng.Modes.Set(ctx, sess, *mode); err != nil {
			fmt.Fprintln(os.Stderr, "govibe exec:", err)
			return exitError
		}
	}
	mu.Lock()
	sid = sess
	mu.Unlock()
	_, _, err = eng.Send(ctx, engine.SendParams{SessionID: sess, Text: prompt})
	initLine()
	if err != nil {
		out.fail(err)
		unsub()
		return exitError
	}
	wait := func() agent.Status {
		select {
		case st := <-finished:
			return st
		case <-ctx.Done():
			eng.Cancel(sess)
			return <-finished
		}
	}
	status := wait()
	if name := draftedManifest(ctx, eng, sess); status == agent.StatusDone && name != "" {
		if *approve == "all" {
			if _, _, err := eng.Modes.ApproveManifest(ctx, sess, ""); err != nil {
				out.fail(err)
				unsub()
				return exitError
			}
			status = wait()
		} else {
			fmt.Fprintln(os.Stderr, "govibe exec:", eng.Tr("the manifest %s waits for approval in the editor's Reconcile panel; headless, --approve all approves it and runs the loop", modes.ManifestPath(name)))
		}
	}
	unsub()
	out.session = eng.Meter.Of(ctx, sess).Usage
	out.finish(status)
	switch {
	case out.budget:
		return exitLimit
	case status == agent.StatusDone:
		return exitDone
	case status == agent.StatusMaxTurns:
		return exitLimit
	default:
		return exitError
	}
}

// discardUnlessDebug keeps headless stderr for the run's own messages; the
// log file in the state directory has everything.
func discardUnlessDebug() *nopSyncer {
	if os.Getenv("GOVIBE_DEBUG") != "" {
		return &nopSyncer{os.Stderr}
	}
	return &nopSyncer{io.Discard}
}

type nopSyncer struct{ io.Writer }

func (*nopSyncer) Sync() error { return nil }

func printJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintln(w, string(b))
}
