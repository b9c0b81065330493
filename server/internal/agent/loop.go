package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/server/internal/gate/toolpolicy"
	"github.com/govibe/govibe/server/internal/gate/watchdog"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Status is how a run ended.
type Status string

const (
	StatusDone      Status = "done"
	StatusError     Status = "error"
	StatusCancelled Status = "cancelled"
	StatusMaxTurns  Status = "max_turns"
)

// ToolCalling modes.
const (
	ToolCallingNative = "native"
	ToolCallingText   = "text"
	ToolCallingAuto   = "auto"
)

// Run is one agent run. A Run is used by one goroutine.
type Run struct {
	Client llm.Client
	Tools  []tools.Tool
	Env    *tools.Env
	// System is the system prompt; it must stay byte-identical across turns
	// of a session so the provider's prefix cache keeps hitting.
	System string
	// MaxRounds caps tool rounds: at most MaxRounds rounds of tool calls
	// run, and the model is asked once more after the last of them so it
	// can answer from their results. 0 means "answer only": no tool runs.
	// Calls the model makes past the cap are answered "not run" and the
	// run ends with StatusMaxTurns. <0 means unlimited. MaxRoundsSetting
	// names the setting that set it, for the notice when it is hit.
	MaxRounds        int
	MaxRoundsSetting string
	ToolCalling      string
	SessionID        string
	// Purpose is the requests' llm.Request.Purpose: "" for the session's
	// conversation, a plan role's name for that role's own requests.
	Purpose   string
	MaxTokens int
	// Blocked names tools that are not offered and are refused if called
	// anyway, each with why (toolpolicy.Decision).
	Blocked map[string]toolpolicy.Reason
	// Deferred names offered tools the request shows behind one entry
	// (tools.Offer, toolpolicy.Decision.Deferred) instead of with their
	// schemas; a call through the entry runs as the tool's own call.
	Deferred map[string]bool
	// Refused names tools that stay offered (so the request's tool list,
	// and with it the provider's prefix cache, does not change) but are
	// refused when called, e.g. create_todo_list in a side conversation.
	Refused map[string]toolpolicy.Reason
	// StopAfter makes the run stop once a round calls one of these tools
	// (create_todo_list hands over to the scheduler).
	StopAfter map[string]bool
	// StopWhen, when set, is asked after each round's calls; a non-empty
	// answer stops the run with it as Stopped (a Phases run whose state
	// moved on, so the next run is assembled with the next state's tools).
	StopWhen func() string
	// OnTextFallback, when set, is told that the endpoint rejected tool
	// definitions and the run switched to the text protocol (so the
	// caller remembers it); it reports whether the user should be told,
	// which keeps the notice to once per profile. nil: always tell.
	OnTextFallback func() (notify bool)
	// Translate localises user-facing notices (nil: English).
	Translate func(msg string, args ...any) string
	// ToolBudget is the CPU time one tool call may use before it is
	// stopped (0: watchdog.DefaultBudget).
	ToolBudget time.Duration
	// Prepare, when set, may rewrite the message list right before each
	// model call (sanitizer, compaction); it returns what is sent. It runs
	// under PrepareBudget of CPU time, as OverflowCompact does (0:
	// watchdog.DefaultBudget): over it, the run ends with an error naming
	// the step and the track's size instead of holding the turn.
	Prepare       func(ctx context.Context, msgs []llm.Message) ([]llm.Message, error)
	PrepareBudget time.Duration
	// OverflowCompact, when set, runs once per run after the provider says
	// the request exceeds the model's window; the request is then retried
	// once (Prepare sends the compacted track). A second overflow ends the
	// run with the error: never a compaction loop.
	OverflowCompact func(ctx context.Context) error
	// request is what each request shows of the offered tools (Deferred
	// behind their entry), fixed when a loop starts.
	request []tools.Tool
	// Notes, when set, is asked as each tool result is recorded: text
	// about what the user did meanwhile (closed a question's dialog) is
	// appended to that result, so the model reads it in order and the
	// track keeps it without a message between a call and its result.
	Notes func() string
}

// ErrStopRun, wrapped in Prepare's error, says the user chose to stop
// before the request (asked after an automatic compaction): the run ends
// cancelled, as if they had pressed Stop, with no error to show.
var ErrStopRun = errors.New("the user stopped the run")

// ErrSuspended, wrapped in a tool's error, says the tool was parked on a
// question to the user when the run's context ended for a reason that a
// later process resumes from (the server stopping, not the user): the call
// and the later calls of its round get no result, so the question can be
// asked again and answered after the restart.
var ErrSuspended = errors.New("suspended until GoVibe's server restarts")

// Outcome reports how a run ended.
type Outcome struct {
	Status Status
	Err    error
	// Rounds is the number of tool rounds that ran; Requests the number
	// of model requests that answered.
	Rounds   int
	Requests int
	Usage    llm.Usage
	Final    string // the last assistant text
	Stopped  string // the StopAfter tool that ended the run
	Messages []llm.Message
	// Suspended is set with StatusCancelled when a tool returned
	// ErrSuspended: the last round's remaining calls have no result and
	// the run's state must be left as it is for a later resumption.
	Suspended bool
}

// Execute runs the loop on history (which must not include the system
// prompt) and returns the messages it appended.
func (r *Run) Execute(ctx context.Context, history []llm.Message, sink Sink) Outcome {
	l := r.newLoop(history, sink)
	return l.run(ctx)
}

// Resume continues a run a previous process left in the middle of a tool
// round: history ends with the assistant message holding calls (and the
// results of its calls that did finish); calls are that message's calls
// still without a result, in order. They run first, each getting exactly
// one result, and then the loop goes on as Execute would.
func (r *Run) Resume(ctx context.Context, history []llm.Message, calls []llm.ToolCall, sink Sink) Outcome {
	l := r.newLoop(history, sink)
	if len(calls) > 0 {
		l.out.Rounds++
		if done, out := l.afterCalls(ctx, calls); done {
			return out
		}
	}
	return l.run(ctx)
}

// loop is one Execute or Resume in progress; used by one goroutine.
type loop struct {
	r           *Run
	sink        Sink
	out         Outcome
	msgs        []llm.Message
	mode        string
	corrections int
	// overflowRetried: the one compaction-and-retry after a context-length
	// error has been spent.
	overflowRetried bool
}

func (r *Run) newLoop(history []llm.Message, sink Sink) *loop {
	mode := r.ToolCalling
	if mode == "" {
		mode = ToolCallingAuto
	}
	r.request = tools.Offer(r.offered(), r.Deferred)
	return &loop{r: r, sink: sink, msgs: append([]llm.Message(nil), history...), mode: mode}
}

func (l *loop) appendMsg(m llm.Message) {
	l.msgs = append(l.msgs, m)
	l.out.Messages = append(l.out.Messages, m)
	l.sink.Append(m)
}

// afterCalls runs a round's calls and reports whether the run ends there
// (cancelled, suspended, or a StopAfter tool was called).
func (l *loop) afterCalls(ctx context.Context, calls []llm.ToolCall) (bool, Outcome) {
	r, out := l.r, &l.out
	calls = ShownCalls(calls)
	suspended := r.runTools(ctx, calls, l.sink, l.record)
	if suspended {
		out.Status, out.Suspended = StatusCancelled, true
		return true, *out
	}
	if ctx.Err() != nil {
		out.Status = StatusCancelled
		return true, *out
	}
	for _, c := range calls {
		if r.StopAfter[c.Name] {
			out.Status, out.Stopped = StatusDone, c.Name
			return true, *out
		}
	}
	if r.StopWhen != nil {
		if why := r.StopWhen(); why != "" {
			out.Status, out.Stopped = StatusDone, why
			return true, *out
		}
	}
	return false, *out
}

// record builds the history message holding one call's result.
func (l *loop) record(c llm.ToolCall, res tools.Result) llm.Message {
	if l.r.Notes != nil {
		if n := l.r.Notes(); n != "" {
			res.Output = strings.TrimRight(res.Output, "\n") + "\n\n" + n
		}
	}
	var m llm.Message
	if l.mode == ToolCallingText {
		m = llm.Message{Role: llm.RoleUser, Content: formatTextResult(c, res)}
	} else {
		m = llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: toolContent(res)}
	}
	l.msgs = append(l.msgs, m)
	l.out.Messages = append(l.out.Messages, m)
	return m
}

// capReached answers the calls of a round past MaxRounds without running
// them (every call still gets its one result) and ends the run.
func (l *loop) capReached(calls []llm.ToolCall) Outcome {
	r, out := l.r, &l.out
	setting := r.MaxRoundsSetting
	if setting == "" {
		setting = "govibe.maxInteractions"
	}
	res := tools.Fail(fmt.Sprintf("not run: this turn's limit of %d tool rounds (%s) is reached. Answer from what you have; the user can send a message to continue.", r.MaxRounds, setting))
	res.Display = r.tr("Not run: the limit of %d tool rounds (%s) is reached.", r.MaxRounds, setting)
	for _, c := range ShownCalls(calls) {
		l.sink.ToolStarted(c)
		l.sink.ToolFinished(c, res, 0, l.record(c, res))
	}
	out.Status = StatusMaxTurns
	if r.MaxRounds == 0 {
		l.sink.Notice(r.tr("No tool was run: %s is 0, which allows answers only. Send a message to continue.", setting))
	} else {
		l.sink.Notice(r.tr("Stopped after %d tool rounds (%s); the model's next tool calls were not run. Send a message to continue.", out.Rounds, setting))
	}
	return *out
}

func (l *loop) run(ctx context.Context) Outcome {
	r, sink, out := l.r, l.sink, &l.out
	for {
		if err := ctx.Err(); err != nil {
			out.Status = StatusCancelled
			return *out
		}
		req := llm.Request{SessionID: r.SessionID, Purpose: r.Purpose, MaxTokens: r.MaxTokens}
		system := r.System
		if l.mode == ToolCallingText {
			system += "\n\n" + textProtocolInstructions(r.request)
		} else {
			req.Tools = toolDefs(r.request)
		}
		send := l.msgs
		if r.Prepare != nil {
			var err error
			if send, err = watchdog.Do(ctx, StepPrepare, trackBytes(l.msgs), r.PrepareBudget, func(ctx context.Context) ([]llm.Message, error) {
				return r.Prepare(ctx, l.msgs)
			}); err != nil {
				if errors.Is(err, ErrStopRun) || ctx.Err() != nil {
					// The user stopped the run (asked before the request).
					out.Status = StatusCancelled
					return *out
				}
				out.Status, out.Err = StatusError, err
				return *out
			}
		}
		req.Messages = append([]llm.Message{{Role: llm.RoleSystem, Content: system}}, send...)
		var hide *callHider
		if l.mode == ToolCallingText {
			hide = &callHider{}
		}
		resp, err := r.Client.Stream(ctx, req, func(e llm.Event) {
			switch e.Kind {
			case llm.EventText:
				if hide != nil {
					if v := hide.push(e.Text); v != "" {
						sink.TextDelta(v)
					}
					return
				}
				sink.TextDelta(e.Text)
			case llm.EventReasoning:
				sink.ReasoningDelta(e.Text)
			case llm.EventRetry:
				sink.Retry(e.Attempt, e.Reason)
			}
		})
		if err != nil {
			if ctx.Err() != nil {
				out.Status = StatusCancelled
				return *out
			}
			if r.OverflowCompact != nil && !l.overflowRetried && errors.Is(err, llm.ErrContextTooLong) {
				l.overflowRetried = true
				if _, cerr := watchdog.Do(ctx, StepOverflowCompact, trackBytes(l.msgs), r.PrepareBudget, func(ctx context.Context) (struct{}, error) {
					return struct{}{}, r.OverflowCompact(ctx)
				}); cerr == nil {
					continue
				} else if errors.As(cerr, new(*watchdog.Exceeded)) {
					out.Status, out.Err = StatusError, cerr
					return *out
				}
			}
			if l.mode == ToolCallingAuto && isToolsUnsupported(err) {
				l.mode = ToolCallingText
				if r.OnTextFallback == nil || r.OnTextFallback() {
					sink.Notice(r.tr("This endpoint does not accept tool definitions; switching to the text tool-call protocol."))
				}
				continue
			}
			out.Status, out.Err = StatusError, err
			return *out
		}
		if hide != nil {
			if v := hide.flush(); v != "" {
				sink.TextDelta(v)
			}
		}
		out.Requests++
		sink.Usage(resp.Usage)
		out.Usage.Add(resp.Usage)
		calls := resp.ToolCalls
		content := resp.Content
		if l.mode == ToolCallingText {
			parsed, perr := ParseTextToolCalls(content)
			if perr != nil {
				l.appendMsg(llm.Message{Role: llm.RoleAssistant, Content: content, ReasoningContent: resp.ReasoningContent})
				if l.corrections >= 2 {
					out.Status, out.Err = StatusError, fmt.Errorf("the model kept producing malformed tool calls: %v", perr)
					return *out
				}
				l.corrections++
				sink.Notice(r.tr("Malformed tool call; asking the model to correct it."))
				l.appendMsg(llm.Message{Role: llm.RoleUser, Content: "Your <tool_call> block could not be used: " + perr.Error() + ". Reply again with a corrected block."})
				continue
			}
			l.corrections = 0
			calls = parsed.Calls
		}
		fillRawContent(content, calls)
		l.appendMsg(llm.Message{Role: llm.RoleAssistant, Content: content, ReasoningContent: resp.ReasoningContent, ToolCalls: nativeOnly(l.mode, calls)})
		out.Final = content
		if l.mode == ToolCallingText {
			out.Final = withoutTextCalls(content)
		}
		if len(calls) == 0 {
			out.Status = StatusDone
			return *out
		}
		if r.MaxRounds >= 0 && out.Rounds >= r.MaxRounds {
			return l.capReached(calls)
		}
		out.Rounds++
		if done, o := l.afterCalls(ctx, calls); done {
			return o
		}
	}
}

func nativeOnly(mode string, calls []llm.ToolCall) []llm.ToolCall {
	if mode == ToolCallingText {
		return nil
	}
	return calls
}

func isToolsUnsupported(err error) bool {
	return errors.Is(err, llm.ErrToolsUnsupported)
}

func (r *Run) offered() []tools.Tool {
	var out []tools.Tool
	for _, t := range r.Tools {
		if _, blocked := r.Blocked[t.Name()]; !blocked {
			out = append(out, t)
		}
	}
	return out
}

// lookup finds the tool a call names; when it may not run, it says why
// (nil tool) and gives the policy's reason, if one withheld it.
func (r *Run) lookup(name string) (tools.Tool, string, *toolpolicy.Reason) {
	if why, blocked := r.Blocked[name]; blocked {
		return nil, fmt.Sprintf("tool %q is not available to this agent: %s", name, why), &why
	}
	if why, refused := r.Refused[name]; refused {
		return nil, fmt.Sprintf("tool %q cannot be used now: %s", name, why), &why
	}
	for _, t := range r.Tools {
		if t.Name() == name {
			return t, "", nil
		}
	}
	// The deferred tools' entry, for a look-up (a call that runs a tool
	// through it was resolved to that tool before).
	for _, t := range r.request {
		if t.Name() == name {
			return t, "", nil
		}
	}
	var names []string
	for _, t := range r.request {
		names = append(names, t.Name())
	}
	return nil, fmt.Sprintf("unknown tool %q; available tools: %s", name, strings.Join(names, ", ")), nil
}

// runTools gives every call exactly one result. Consecutive read-only calls
// run in parallel; anything that writes runs alone, in order, so the model's
// sequence of edits applies as written.
//
// Results are recorded in the order of the calls, whatever order they
// complete in: some strict OpenAI-compatible servers reject tool messages
// in any other order. A finished result is recorded (record builds the
// history message, the sink persists it) as soon as every earlier call's
// is, so the stored order equals what the model is sent and a crash loses
// at most the results still waiting for an earlier call.
//
// The exception is a call suspended by ErrSuspended: it and the calls
// after it get no result (runTools reports true), so that the process that
// resumes the run answers them; results a parallel batch finished after
// it are still recorded, in call order, when runTools returns.
func (r *Run) runTools(ctx context.Context, calls []llm.ToolCall, sink Sink, record func(llm.ToolCall, tools.Result) llm.Message) (suspended bool) {
	var sinkMu sync.Mutex
	type done struct {
		res tools.Result
		d   time.Duration
	}
	next, held := 0, map[int]done{}
	emit := func(k int, x done) { sink.ToolFinished(calls[k], x.res, x.d, record(calls[k], x.res)) }
	finish := func(k int, res tools.Result, d time.Duration) {
		sinkMu.Lock()
		defer sinkMu.Unlock()
		held[k] = done{res, d}
		for x, ok := held[next]; ok; x, ok = held[next] {
			delete(held, next)
			emit(next, x)
			next++
		}
	}
	defer func() {
		// Only after a suspension can results wait behind a call that
		// will have none.
		sinkMu.Lock()
		defer sinkMu.Unlock()
		for k := next; k < len(calls); k++ {
			if x, ok := held[k]; ok {
				emit(k, x)
			}
		}
	}()
	var mu sync.Mutex
	started := func(c llm.ToolCall) {
		sinkMu.Lock()
		sink.ToolStarted(c)
		sinkMu.Unlock()
	}
	// runOne runs calls[i]; announce says whether to report its start (a
	// parallel batch reports every start first, in the model's order, so
	// the cards appear together whatever the goroutines' scheduling).
	runOne := func(i int, announce bool) {
		c := calls[i]
		if announce {
			started(c)
		}
		// The card shows how long the call ran: time spent waiting for the
		// person's decision is taken off (tools.WaitClock).
		cctx, clock := tools.WithWaitClock(ctx)
		start := time.Now()
		res, susp := r.runOne(cctx, c)
		if susp {
			mu.Lock()
			suspended = true
			mu.Unlock()
			return
		}
		finish(i, res, clock.RunTime(time.Since(start)))
	}
	for i := 0; i < len(calls); {
		if suspended {
			return true
		}
		if ctx.Err() != nil {
			for ; i < len(calls); i++ {
				finish(i, r.notExecuted(ctx), 0)
			}
			break
		}
		j := i
		for j < len(calls) && r.isReadOnly(calls[j].Name) {
			j++
		}
		if j > i+1 {
			for k := i; k < j; k++ {
				started(calls[k])
			}
			var wg sync.WaitGroup
			for k := i; k < j; k++ {
				wg.Add(1)
				go func(k int) { defer wg.Done(); runOne(k, false) }(k)
			}
			wg.Wait()
			i = j
			continue
		}
		// Consecutive file writes to different files are proposed
		// together, so the user reviews them side by side; writes to one
		// file stay in the order the model wrote them (line numbers of a
		// later edit depend on the earlier ones).
		root := ""
		if r.Env != nil && len(r.Env.Roots) > 0 {
			root = r.Env.Roots[0]
		}
		if groups, end := fileWriteGroups(calls, i, root, r.writesOneFile); len(groups) > 1 {
			var wg sync.WaitGroup
			for _, g := range groups {
				wg.Add(1)
				go func(g []int) {
					defer wg.Done()
					for _, k := range g {
						if ctx.Err() != nil {
							finish(k, r.notExecuted(ctx), 0)
							continue
						}
						runOne(k, true)
					}
				}(g)
			}
			wg.Wait()
			i = end
			continue
		}
		runOne(i, true)
		i++
	}
	return suspended
}

// fileWriteGroups groups the run of consecutive file-write calls starting
// at i by target file (relative paths taken against root), keeping each
// file's calls in order. end is the index after the run.
func fileWriteGroups(calls []llm.ToolCall, i int, root string, writesOneFile func(name string) bool) (groups [][]int, end int) {
	byPath := map[string]int{}
	for end = i; end < len(calls) && writesOneFile(calls[end].Name); end++ {
		var a struct {
			FilePath string `json:"filePath"`
		}
		_ = json.Unmarshal([]byte(calls[end].Arguments), &a)
		key := strings.TrimSpace(a.FilePath)
		if !filepath.IsAbs(key) && root != "" {
			key = filepath.Join(root, key)
		}
		key = filepath.Clean(key)
		g, ok := byPath[key]
		if !ok {
			g = len(groups)
			byPath[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], end)
	}
	return groups, end
}

// stopReason words why ctx ended for the model: the user's Stop unless the
// context was cancelled with another cause (the server stopping).
func stopReason(ctx context.Context) string {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return cause.Error()
	}
	return "the user stopped the turn"
}

// writesOneFile: the call's tool writes the file its filePath names
// (tools.WritesOneFile), so calls of it are ordered per file.
func (r *Run) writesOneFile(name string) bool {
	t, _, _ := r.lookup(name)
	return t != nil && tools.WritesOneFile(t)
}

func (r *Run) isReadOnly(name string) bool {
	t, _, _ := r.lookup(name)
	return t != nil && t.ReadOnly()
}

// runOne runs one call; suspended reports a tool that returned
// ErrSuspended, whose call must be left without a result.
func (r *Run) runOne(ctx context.Context, c llm.ToolCall) (res tools.Result, suspended bool) {
	t, why, reason := r.lookup(c.Name)
	if t == nil {
		if reason != nil {
			// Withheld by the mode or role, not broken: the chat shows a
			// neutral card with the policy's reason, in the person's words.
			return tools.Withheld(why, r.tr("Not run: %s is not available here: %s.", c.Name, reason.In(r.tr))), false
		}
		return tools.FailShown(why, r.tr("Not run: %s is not available to the model here.", c.Name)), false
	}
	defer func() {
		if p := recover(); p != nil {
			res, suspended = r.toolCrashed(c.Name, p), false
		}
	}()
	// The whole call, its arguments' decoding included, runs under a CPU
	// budget: a pathological input fails the call, naming the step and
	// the input's size, instead of holding the turn (issue 31).
	var badArgs error
	res, err := watchdog.Do(ctx, c.Name, len(c.Arguments), r.ToolBudget, func(ctx context.Context) (tools.Result, error) {
		watchdog.Doing(ctx, "checking that the arguments are a JSON object")
		args := strings.TrimSpace(c.Arguments)
		if args == "" {
			args = "{}"
		}
		var obj map[string]json.RawMessage
		if badArgs = json.Unmarshal([]byte(args), &obj); badArgs != nil {
			return tools.Result{}, nil
		}
		watchdog.Doing(ctx, "running")
		return t.Run(tools.WithCallID(ctx, c.ID), r.Env, json.RawMessage(args))
	})
	var stopped *watchdog.Exceeded
	switch {
	case errors.As(err, &stopped):
		return r.toolStopped(c.Name, stopped), false
	case badArgs != nil:
		return r.badJSONArgs(c.Name, badArgs), false
	}
	if err != nil {
		if errors.Is(err, ErrSuspended) {
			return tools.Result{}, true
		}
		if ctx.Err() != nil {
			return r.interruptedWhile(ctx, c.Name), false
		}
		return r.toolFailed(c.Name, err), false
	}
	return res, false
}

func toolContent(res tools.Result) string {
	if res.OK {
		return res.Output
	}
	return "Error: " + res.Output
}

func toolDefs(ts []tools.Tool) []llm.ToolDef {
	defs := make([]llm.ToolDef, 0, len(ts))
	for _, t := range ts {
		defs = append(defs, llm.ToolDef{Name: t.Name(), Description: tools.Describe(t, ts), Parameters: t.Schema()})
	}
	return defs
}

// Tr localises a user-facing message with the run's Translate.
func (r *Run) Tr(msg string, args ...any) string { return r.tr(msg, args...) }

func (r *Run) tr(msg string, args ...any) string {
	if r.Translate != nil {
		return r.Translate(msg, args...)
	}
	if len(args) == 0 {
		return msg
	}
	return fmt.Sprintf(msg, args...)
}
