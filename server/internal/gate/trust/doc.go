// Package trust is the workspace trust gate. What can act on the user's
// machine from project files (project skills with scripts or
// allowedTools, custom commands, custom agents, hooks, MCP servers) loads
// only in a trusted workspace; plain-text context files load either way.
// Trust starts from the engine's options and changes with Set (VS Code's
// onDidGrantWorkspaceTrust); everything it gates is loaded lazily from
// the current value, so a change only has to drop what was loaded.
//
// # Where trust comes from
//
// Trust comes from VS Code (initialize.trusted, then workspace/didChangeTrust
// on onDidGrantWorkspaceTrust, no restart) or, headless, from `govibe exec
// --trust` or a listing of the folder (or a parent) in
// $XDG_CONFIG_HOME/govibe/trusted-folders.json (a JSON array of absolute
// paths; default ~/.config/govibe/trusted-folders.json; a malformed file is a
// usage error).
//
// # What it gates
//
// Untrusted, the engine loads no project hooks, MCP servers, custom commands
// or agents, or project skills (and no compat-folder skill that carries
// scripts or allowedTools), and applies no workspace settings; it says which
// gated files it found in a server/notice. Context files are plain text and
// load either way. Each gated kind is loaded lazily under the current trust
// and dropped on a change.
//
// # The notice and the change
//
// The untrusted-workspace notice names each skipped kind with its files
// (hooks, MCP servers, custom commands, custom agents, skills) and carries the
// action trustWorkspace, as does the warning that the workspace's own GoVibe
// settings were ignored: the chat's banner button and the MCP view's run VS
// Code's workbench.trust.manage (the Workspace Trust editor). Granting trust,
// wherever it happens, fires workspace/didChangeTrust; the sidecar then
// applies the workspace settings it kept from the last
// initialize/settings/didChange under the new trust, reloads the gated config,
// loads the hooks and starts the MCP servers (no restart), and sends
// server/notice with withdraw: true and the action: the host drops those
// notices (shown or still queued for the chat) and refreshes an open MCP view.
// Options carries what the engine's wiring resets (skills, custom commands,
// hooks, MCP servers) and the notices.
package trust
