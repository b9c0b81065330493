// Package toolpolicy decides which tools a run is offered and which calls
// it refuses, in one function (Decide), from what each tool is (its
// tools.Traits) and where the run stands:
//
//   - the role: the main agent (and its closing run after a plan), a
//     plan's executor or evaluator, a reviewer, the investigator, a custom
//     agent_<name>;
//   - the session's mode and phase: Agent, Plan, a Phases state
//     (EXPLORING, PLANNING, PATCHING, VERIFYING), a Reconcile step
//     (drafting the manifest, specifier, coder, auditor);
//   - the model profile's toolProfile (full, readonly, no-shell, a list);
//   - the allowedTools of the custom command that started the turn;
//   - a side conversation (btw);
//   - the OS sandbox's state, which changes no offer today and is carried
//     so that this stays the one place a tool's availability is decided.
//
// Every tool it withholds gets a one-sentence Reason. The agent loop
// neither offers a Blocked tool nor runs it, and shows the reason with the
// refusal to the model (English) and to the person (translated: each
// reason's format is in the i18n catalogue). A Refused tool stays offered,
// so the request's tool definitions match the main conversation's, and is
// refused when called.
//
// Nothing here names a tool by a list: a rule speaks of traits (a tool
// that only reads, one that writes the workspace, one that runs commands)
// and of the tools a mode's own machine defines (modes.Phase.Exit), so a
// new tool is placed by declaring its traits next to its definition. The
// system prompt's guidance is rendered from Decision.Prompted, the tools
// this decision offers before the mode's phase narrows them, so the
// prompt never changes with the phase and keeps the prefix cache.
//
// A tool declared Deferred (a trait of how it is offered, not of what it
// does) is offered behind one entry instead of with its schema
// (Decision.Deferred, Decision.Request), unless a list names it: the
// profile's, the command's allowedTools or a custom agent's definition.
package toolpolicy
