// Package config resolves govibe.* settings into typed values. The same
// keys (without the "govibe." prefix) come from VS Code over the wire, or,
// headless, from ~/.config/govibe/settings.json, then the environment, then
// flags.
//
// # One declaration
//
// Schema is the one declaration of every setting: schema.go declares every
// govibe.* key once (type, default, scope, unit, enum, range, English and
// Chinese text). `go generate ./server/internal/host/config` renders it into
// package.json's contributes.configuration, the config.* entries of
// package.nls.json and package.nls.zh-cn.json, settings_gen.go (the typed
// accessor Typed(values), e.g. s.Compact.Threshold, and ModelProfile for each
// govibe.models entry, from ModelFields: s.ModelProfiles()),
// extension/src/settings.gen.ts (keys, scopes, value types, defaults) and the
// README table between its markers; TestGeneratedFilesAreFresh fails on drift.
// No code outside this package reads a setting by its string key. Renamed keys
// are declared too (Legacies: autoApprove.editsDelay →
// autoApprove.editsDelayMs, converted with a warning). Millisecond settings
// carry Ms in their name.
//
// # Scopes
//
// Scope is a property of each key: workspace (a workspace value replaces the
// user's), restrict (a workspace may only set the stricter value, or its rule
// lists become permissions.workspace.*, which never allow) and user (endpoint,
// key, proxy, model profiles, allow rules, server.path, web.allowHosts, hooks,
// browser.allowLocalhost: never from a workspace). The extension sends the
// user level as Settings.values and what the workspace set, verbatim, as
// Settings.workspace; the sidecar applies the scopes (ApplyWorkspace, nothing
// at all from an untrusted workspace) and names each ignored key in a
// server/notice.
//
// # Headless
//
// Headless, `govibe exec` and `govibe config [--json]` resolve the user file,
// GOVIBE_BASE_URL/GOVIBE_MODEL and flags; --set values are validated against
// the schema, unknown keys are named, and `govibe config` prints each value
// with its source (secrets as set/unset).
package config
