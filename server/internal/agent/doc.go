// Package agent is the ReAct loop: model → tool calls → results → model,
// until a reply has no tool calls. It knows nothing about sessions, storage
// or the wire; the engine feeds it history and a Sink.
//
// # The request prefix
//
// Everything that enters a request keeps its prefix stable, so the provider's
// prefix cache covers it: the system prompt gets only the skills section
// (sorted names and one-line descriptions, unchanged until a reload), MCP
// tools come after the built-ins sorted by name, a hook wrapper keeps each
// tool's definition, and context files, mention attachments, hook context and
// active skills go into the user message (the context block, ContextBlock).
// The tools a turn rarely needs (trait tools.Deferred, as toolpolicy decides:
// Run.Deferred) are not sent with their schemas: one entry, more_tools
// (tools.Offer), lists them by name, required arguments and a line, returns a
// schema on demand and runs a tool by name. The loop resolves such a call
// (ShownCall) before the policy, approvals, hooks and the chat's card see it,
// so each sees the real tool; the model's track keeps what it wrote, and the
// request's tools never change whichever tool is looked up or run.
// make bench (promptbench) prints the tokens of a plain "hello" with
// everything on (budget 3k), then the same per tool profile and in Plan mode,
// and fails if two requests differ; `go run ./server/internal/bench/promptbench
// -per-tool` lists each tool definition's tokens and the entry's list. Tool
// descriptions stay short: a default or limit the parameter's description
// states is not repeated.
//
// # Tool profiles
//
// A profile's toolProfile (full, readonly, no-shell, or tool names separated
// by commas; toolpolicy.Profile): the tools it leaves out join the run's
// Blocked map (not offered, refused if called, with toolpolicy's reason shown
// to the model and the person). A malformed profile, or a list naming no real
// tool, is reported once and read as full.
//
// # The system prompt
//
// It opens with the run's contract (contract.go): who it is (the main agent
// in Agent, Plan, Phases or Reconcile mode and its phase, the closing run
// after a plan, an executor, an evaluator), what ends it and what the user
// sees. The "How to work" bullets (guidance.go) and the habits follow the
// offered tools (toolpolicy.Decision.Prompted) and the role: no line names a
// tool the run is not offered (a test walks every combination toolpolicy
// distinguishes), and a tool description names another tool only in a
// {{name: clause}} kept when it is offered (tools.Describe). The prompt
// depends only on the situation and the offered set, so it is byte-stable
// while they are; a Phases phase change rewrites it, as it already changes
// the tools offered. The environment carries the session's date and git
// state, fixed when the session starts. The captures of every role and mode
// are golden files (go run ./server/internal/bench/promptcapture -write).
//
// # Running tools
//
// A batch of consecutive read-only tool calls runs in parallel; the batch
// reports every call's start first, in the model's order, then runs them, so
// the cards appear in order however the goroutines are scheduled, and records
// their results in the calls' order too (strict servers reject another). Turn limits:
// govibe.maxInteractions (exec --max-turns) N allows at most N tool rounds;
// the model is then asked once more so it can answer from their results, and
// calls it makes past the cap are answered "not run" (each call keeps its one
// result) and the run ends max_turns. 0 means answer only: no tool runs. So N
// rounds take at most N+1 requests. A context-length error makes the run
// compact once and retry once (Run.OverflowCompact).
//
// # Text tool calls
//
// A 400/422 to a request with tools that names tools, tool_choice or functions
// (or says tools are unsupported) switches the run to the text protocol
// (textproto.go). The outcome is stored per base URL and model (the store's
// endpoints table), so later runs and restarts start there; the notice appears
// once, from the run that learned it. The <tool_call> blocks the model writes
// are kept out of the text a person reads (callHider in textfilter.go, which
// holds back a streamed piece that may start a tag) and of the run's final
// text; the call shows as its tool card.
package agent
