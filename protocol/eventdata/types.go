package eventdata

// The payload types below are wire-shaped (their JSON is what the client
// reads) and carry no behaviour beyond naming their field. Types they
// contain (TodoItem, ReconcileState, Usage…) are plain data.

// Notification is a message for the user outside the chat.
type Notification struct {
	// Severity is info, warning or error.
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

// ModeState is a working mode's record for its panel (Phases mode:
// the codeCLI state, findings, plan and progress log; Reconcile mode:
// Reconcile).
type ModeState struct {
	Mode      string          `json:"mode"`
	State     string          `json:"state"`
	Findings  string          `json:"findings,omitempty"`
	Plan      []string        `json:"plan,omitempty"`
	Step      int             `json:"step"`
	Log       []string        `json:"log,omitempty"`
	Reason    string          `json:"reason,omitempty"`
	Reconcile *ReconcileState `json:"reconcile,omitempty"`
}

// ReconcileState is a reconcile run for its panel.
type ReconcileState struct {
	Name     string `json:"name"`
	Intent   string `json:"intent"`
	Approved bool   `json:"approved"`
	// Manifest is the manifest's JSON as its file holds it.
	Manifest string `json:"manifest"`
	// Phase is Pending|Reconciling|Ready|Failed (a run that gave up: CrashLoopBackOff, with the reason in LastError).
	Phase       string `json:"phase"`
	CurrentLoop int    `json:"currentLoop"`
	LastError   string `json:"lastError,omitempty"`
	// Step is the step to run next (specifier|coder|auditor).
	Step string `json:"step,omitempty"`
	// Agent is the scoped agent running now ("coder:3"), "" between steps.
	Agent   string `json:"agent,omitempty"`
	Running bool   `json:"running"`
	// Baseline is the failing-test count after the specifier; Diffs the
	// count after each loop.
	Baseline    int   `json:"baseline"`
	Diffs       []int `json:"diffs"`
	MaxLoops    int   `json:"maxLoops"`
	SpecRetries int   `json:"specRetries,omitempty"`
}

type Usage struct {
	PromptTokens     int64   `json:"promptTokens"`
	CompletionTokens int64   `json:"completionTokens"`
	CachedTokens     int64   `json:"cachedTokens"`
	Cost             float64 `json:"cost"`
	// CacheReportedTokens is the part of PromptTokens whose cache figure
	// the provider reported: the hit rate is CachedTokens over it, and
	// unknown (never 0%) when it is 0.
	CacheReportedTokens int64 `json:"cacheReportedTokens,omitempty"`
	// Priced says the model has prices; without them Cost is unknown and
	// only tokens are shown.
	Priced bool `json:"priced,omitempty"`
	// CacheMiss says why one request's prompt cache missed.
	CacheMiss *CacheMiss `json:"cacheMiss,omitempty"`
}

// CacheMiss is why a request lost (part of) the provider's prompt cache.
type CacheMiss struct {
	// Cause is compaction, tools_changed, system_changed, model_switched,
	// message_rewritten or provider_evicted.
	Cause  string `json:"cause"`
	Detail string `json:"detail,omitempty"`
	// Message is the first changed request message (0 is the system prompt).
	Message int `json:"message,omitempty"`
}

// ContextUse is the header bar: tokens used against the window.
type ContextUse struct {
	UsedTokens   int64   `json:"usedTokens"`
	WindowTokens int64   `json:"windowTokens"`
	SessionCost  float64 `json:"sessionCost"`
	SessionUsage Usage   `json:"sessionUsage"`
	// Profile names the session's own model choice (/model or the
	// header's pick), empty while the session follows govibe.model.
	Profile string `json:"profile,omitempty"`
}

type ReviewCard struct {
	Kind        string          `json:"kind"` // plan|edit|shell
	Approved    bool            `json:"approved"`
	Problems    []ReviewProblem `json:"problems,omitempty"`
	Suggestion  string          `json:"suggestion,omitempty"`
	DurationMs  int64           `json:"durationMs"`
	Unavailable string          `json:"unavailable,omitempty"`
}

type ReviewProblem struct {
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location string `json:"location,omitempty"`
}

// HookRun is one lifecycle hook command's run, shown in the chat.
type HookRun struct {
	// Event is PreToolUse|PostToolUse|UserPromptSubmit|Stop|SubagentStop|
	// PreCompact|SessionStart|SessionEnd|Notification.
	Event      string `json:"event"`
	Command    string `json:"command"`
	Source     string `json:"source"`
	ExitCode   int    `json:"exitCode"`
	DurationMs int64  `json:"durationMs"`
	// Result is ok|blocked|failed|timeout.
	Result string `json:"result"`
	Note   string `json:"note,omitempty"`
}

// TurnSnapshot is the snapshot of one root holding the workspace as it was
// before a turn. A user message carries one per root (Message.Snapshots).
type TurnSnapshot struct {
	Root string `json:"root"`
	ID   string `json:"id"`
}

type TodoItem struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Acceptance  string `json:"acceptance,omitempty"`
	Status      string `json:"status"` // pending|running|done|failed|skipped|interrupted
	Agent       string `json:"agent,omitempty"`
	Turns       int    `json:"turns,omitempty"`
	Attempts    int    `json:"attempts,omitempty"`
	Summary     string `json:"summary,omitempty"`
}

type TodoState struct {
	Goal    string     `json:"goal"`
	Items   []TodoItem `json:"items"`
	Current int        `json:"current"` // 0-based index, -1 when none
	Phase   string     `json:"phase"`   // free|scheduling
}
