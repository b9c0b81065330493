// Package turninput assembles what a turn's user message carries to the
// model besides the user's text, and keeps what the UI shows about it:
//
//   - the context files (AGENTS.md, CLAUDE.md, .github/instructions and
//     govibe.contextFiles): all of them in a session's first message, then
//     only a notice with what changed; and, with a tool result, those of a
//     sub-folder the turn's work reached (Notes);
//   - the expansion of the message's @mentions (files, MCP resources, the
//     active terminal);
//   - the message's extras (the context files sent and the attachments),
//     kept in session state by message id so session/load shows them
//     again;
//   - what lifecycle hooks read (transcript_path, permission_mode, the
//     govibe.hooks setting), whose UserPromptSubmit and SessionStart
//     context the turn appends to the same user message.
//
// All of it goes into the model track's user message, never into the
// system prompt, whose bytes stay stable for the provider's prompt cache
// (promptbench and the promptcapture goldens check it).
//
// It sees the engine only through Deps: the store as a narrow interface
// and plain functions for what the turn runner answers (the files the
// session touched, the session's mode, a closed question's note). Tests:
// TestContextFilesOnceThenChanges, TestMentionsExpandedBeforeTheModelCall,
// TestContextFileProblemsAreShownOnce, TestExtrasKeptWithTheSession,
// TestHookTranscriptIsReadable.
package turninput
