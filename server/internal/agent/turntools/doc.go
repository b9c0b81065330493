// Package turntools decides what a turn's runs are given: the tools each
// agent role is offered (the list assembled from the capabilities, then
// toolpolicy.Decide on where the run stands), the system prompt that
// names only those tools, and the environment the tools act in (the OS
// sandbox and its network proxy, the shared web fetcher, the turn's
// approval flow).
//
// toolpolicy stays the one decider and stays pure; this package is its
// runner: it builds the toolpolicy.Situation from the session's model
// profile, mode, custom-command limits and settings, and reports a
// malformed tool profile once. It sees the engine only through the
// narrow interfaces and functions of Deps (wired in engine/wiring.go),
// and a turn only as the Turn value the engine hands it, so everything
// here depends on the profile and the tool list alone: a session's prompt
// and tool definitions stay byte-identical while its profile does.
package turntools
