// Package i18n localises the messages the sidecar shows to people. Keys are
// the English format strings themselves (as in vscode.l10n), so a missing
// translation falls back to English instead of to a key. What the model
// reads stays English; only user-facing text goes through here.
//
// # Rules
//
// Messages a person reads are localised (English, Simplified Chinese) from
// govibe.language or the UI locale; what the model reads stays English. Two
// tests keep the catalogue whole: one scans every tr/Tr/T call for a key
// missing in zh-CN (or a stale entry) and checks that translations keep the
// format verbs; a vet-style go/ast check over engine, server, agent, subagent,
// planrun, compaction, commands, slashcmd and the headless printer fails on
// text built from a literal that reaches a person without the catalogue
// (notices, notice and error events, ErrorInfo, server notices, refusal
// display texts, the printer's own words). Model errors are composed from the
// typed error's fields (endpoint, status, attempts), so a message is never
// half translated; only the provider's own words are quoted as they came.
// Compaction's divider notices are worded through compaction.Host.Tr; the
// built-in slash commands' descriptions are built again, translated, for each
// /help and commands/list. CLI usage errors of govibe exec stay English, like
// the flag package's own.
package i18n
