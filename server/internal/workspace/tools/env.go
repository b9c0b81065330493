package tools

import (
	"context"

	"github.com/govibe/govibe/server/internal/workspace/web"
)

// Env is everything a tool may touch. One Env is built per agent run; it is
// shared by tool calls that run in parallel, so every field must be safe for
// concurrent use (the types below document their own guarantees).
type Env struct {
	// Roots are the absolute workspace roots; the first is the default cwd.
	Roots []string
	// Files remembers what the model last saw of each file (edit safety).
	Files *FileTracker
	// Host reaches the attached editor; nil when headless.
	Host Host
	// Approver asks for confirmation of writes and commands; nil means
	// everything needing confirmation is refused.
	Approver Approver
	Settings Settings
	// BeforeMutation is called before the first write or shell command of a
	// turn (snapshots hook in here). May be nil.
	BeforeMutation func(ctx context.Context)
	// Readable, when set, says whether a file or folder (absolute path)
	// may be read: the user's Read(...) permission rules. Its error is the
	// model-visible reason. Tools that read content refuse a denied file;
	// listing and searching tools leave it out and say how many they
	// withheld. nil allows everything.
	Readable func(abs string) error
	// Translator words a message for the person watching, in their
	// language (the Display of a refusal); nil leaves it English.
	Translator func(format string, args ...any) string
	SessionID  string
	TurnID     string
	// Web fetches pages under the SSRF policy; nil turns web_fetch off.
	// A *web.Fetcher is safe for concurrent use.
	Web *web.Fetcher
	// Skills serves the skill tools; nil turns them off.
	Skills SkillHost
	// OnEnvScrub receives the names of variables scrubbed from a shell
	// command's environment, for a debug log. May be nil.
	OnEnvScrub func(names []string)
	// Sandbox confines shell commands; nil runs them unconfined.
	Sandbox *SandboxEnv
}

// Settings are the knobs tools read; the agent fills them from govibe.*.
type Settings struct {
	EditEnabled      bool   // the 🔓/🔒 toggle; false refuses write tools
	ConfirmChanges   bool   // govibe.confirmChanges
	ConfirmShell     bool   // govibe.confirmShellCommand
	ShellTimeoutMs   int    // default 120000
	ShellMaxTimeout  int    // cap for timeoutMs
	RipgrepPath      string // "" means look for rg on PATH, then use Go
	Shell            string // override; "" means bash (Unix) / powershell (Windows)
	MaxFileSizeBytes int64
	// EnvPassthrough keeps these credential-looking variables in shell
	// commands' environment (govibe.shell.env.passthrough).
	EnvPassthrough []string
}

// Host is the editor side. Implementations must be safe for concurrent use.
type Host interface {
	// DirtyBuffer returns the unsaved text of an open editor for path, if any.
	DirtyBuffer(ctx context.Context, path string) (text string, dirty bool, err error)
	// Diagnostics returns the editor's diagnostics for path ("" = all files).
	Diagnostics(ctx context.Context, path string) ([]Diagnostic, error)
}

// Diagnostic is one editor problem.
type Diagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"`
}

// EditProposal is a write awaiting the user's decision.
type EditProposal struct {
	Path       string // absolute
	RelPath    string
	Original   string // "" for a new file
	Proposed   string // "" with Delete for a removal
	IsNew      bool
	Delete     bool
	Tool       string
	ToolCallID string
}

// EditDecision is the user's answer. When Accepted, Content is exactly what
// must be written (accepted hunks only, or the user's own version).
type EditDecision struct {
	Accepted bool
	Content  string
	// Applied is true when the editor already applied the edit (through its
	// undo stack); the tool must then not write the file itself.
	Applied bool
	// Note goes to the model: rejected hunks, the user's diff, the reason.
	Note string
	// Display is a refusal as the person watching should read it, in
	// their language ("" shows the model's text).
	Display string
	// Auto is set when no one was asked: the card says which rule let it through.
	Auto *AutoApproval
	// ByUser marks a refusal the user chose (not a rule or policy), with
	// Reason their words, if any.
	ByUser bool
	Reason string
}

// ShellProposal is a command awaiting the user's decision.
type ShellProposal struct {
	Command    string
	Cwd        string
	ToolCallID string
	Analysis   any // static analysis, shown to the user
	// Denial is set when the command already ran in the sandbox and was
	// denied something: the approver asks whether to run it again with
	// that granted (never by itself), and Granted is what it had.
	Denial  *Denial
	Granted SandboxGrant
}

// ShellDecision is the user's answer; Command may be edited by the user.
type ShellDecision struct {
	Allowed bool
	Command string
	Reason  string
	// Display is a refusal as the person watching should read it, in
	// their language ("" shows the model's text); the model gets Reason.
	Display string
	// ByUser marks a refusal the user chose (not a rule or policy).
	ByUser bool
	// Auto is set when no one was asked: the card says which rule let it through.
	Auto *AutoApproval
	// Grant is what the command may do inside the OS sandbox.
	Grant SandboxGrant
}

// AutoApproval says why a command or change ran without asking anyone.
// It travels in the tool result's meta to the card a person reads; the
// webview words it (so the sidecar holds no UI strings for it).
type AutoApproval struct {
	// By is one of the AutoBy* constants.
	By string `json:"by"`
	// Detail names what approved it: the allow rule ("Bash(go test:*)"),
	// the setting key, the flag ("--approve all"), or the classifier's
	// reason for a read-only command.
	Detail string `json:"detail,omitempty"`
}

// The sources of an automatic approval.
const (
	AutoByReadOnly = "read-only" // autoApprove.readOnlyCommands and a read-only class
	AutoByRule     = "rule"      // a permission allow rule
	AutoBySetting  = "setting"   // a setting turned confirmation off or on auto
	AutoByFlag     = "flag"      // headless --approve
)

// Declined is Result.Meta of a call the user said no to. The model is told
// through the output as before; the card shows a choice, not a failure.
type Declined struct {
	Declined bool   `json:"declined"`
	Reason   string `json:"reason,omitempty"`
}

// Approver is implemented by the agent (interactive or headless policy).
type Approver interface {
	ConfirmEdit(ctx context.Context, p EditProposal) (EditDecision, error)
	ConfirmShell(ctx context.Context, p ShellProposal) (ShellDecision, error)
}
