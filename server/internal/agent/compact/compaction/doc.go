// Package compaction summarises a session's earlier model messages to free
// context: on demand (the /compact command, the button, the compact tool)
// and automatically before a free-phase request that would pass the
// threshold. Policy and token arithmetic live in package compact; this
// package does the work against the store and a model, and reaches the
// engine only through Host.
//
// # When and how
//
// Global compaction runs only in the free phase, before a request that would
// pass compact.threshold of the window. The cut never falls inside a tool
// result; when one larger than the verbatim window sits in the part that stays
// and nothing else can be summarised (or that part alone passes the
// threshold), it is shortened to its head and tail with a note naming the
// removed lines and how to read them again, so the context can always shrink.
// Its request reuses the system prompt and tool definitions byte for byte and
// ends with the <state_snapshot> instruction, so the provider's prefix cache
// covers everything before it. It replaces only the range it read, so messages
// appended meanwhile survive. When a plan's agent finishes, its part of the
// model track is replaced by a summary built from its tool calls (scoped
// compaction); the UI track keeps everything.
//
// # What is kept
//
// The summary message is the <state_snapshot>, then a <kept_verbatim> block
// (kept.go, compact.Kept) that no summary touches: the user's requests the
// summarised range takes out of the track (the person's own words from the
// UI message; the first and latest, kept in state compact.task, each clipped
// to its beginning and end when long), the todo plan with each item's state,
// and the user's decisions, read from the answered confirmations of tool
// calls (Host.Decisions: approvals and rejections with their reasons, replies
// to ask_human, headless terminal replies included). It is rebuilt from the
// session at every compaction, so the second compaction keeps as much as the
// first; it follows the summary, so the prefix before it is unchanged. The
// divider names how many messages were summarised and what was kept
// (Info.Kept, Record.Kept) and holds the block as its third part. After an
// automatic compaction Host.ContinueAfter may ask whether to go on
// (compact.askToContinue; never headless); Stop ends the run cancelled
// (ErrStopped). Host is sessioncompact's. Test: sessioncompact's
// TestTwoCompactionsKeepTheTask.
//
// # Which model
//
// Host gives the policy, the request prefix (system prompt and tool
// definitions), a model client, the context estimate and the compaction event;
// Tracks gives the store's tracks and state. The policy (Host.Policy(ctx,
// sid)), which decides when to compact, is the window of the model the next
// request goes to: the running turn's custom command model, else the
// session's, so a switch to a smaller window compacts in time; the summary
// request itself is cut to the window and output reserve of the model that
// answers it (Host.Client returns that model's policy: roles.compaction when
// set). Tests: TestCompactionFollowsTheSessionsModel,
// TestCompactionFollowsTheCommandsModel,
// TestSummaryRequestFitsTheCompactionRolesWindow. /compact reports its
// request's usage as a turn does.
package compaction
