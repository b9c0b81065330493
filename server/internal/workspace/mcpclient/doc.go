// Package mcpclient connects GoVibe to Model Context Protocol servers with
// the official Go SDK. Servers come from the user's ~/.govibe/mcp.json and,
// in trusted workspaces only, from .govibe/mcp.json, .vscode/mcp.json and
// .mcp.json. Their tools are offered as mcp__<server>__<tool>, their
// prompts become /mcp:<server>:<prompt> commands, and their resources can
// be attached as @mcp:<server>:<uri>.
//
// The workspace folders are the client's roots (roots.go; Manager.SetRoots
// notifies connected servers with roots/list_changed when they change; the
// extension restarts the sidecar when folders are added or removed, so
// servers start with the new ones). A prompt command's arguments are split
// as a shell splits words (args.go: `city="New, York"` is one value,
// nothing expanded), and a prompt's embedded resources reach the model's
// text wrapped as a tool result's are.
//
// # The manager
//
// Servers (one per engine) is the lazy manager: ${input:} values, skipped
// files, the schema budget. Its tools are appended after the built-ins, sorted
// by name, so the request prefix stays stable. A call asks like a shell
// command (approval.Approver.ConfirmTool) unless a user allow rule
// (mcp__server__tool, mcp__server__*, mcp__server) permits it; headless runs
// allow MCP calls only with --approve all. The confirmation names server and
// tool explicitly and is resumable after a restart like edits and commands
// (the same call and arguments run with the recorded answer).
//
// # The schema budget
//
// When the connected servers' tool definitions take more than 15% of the
// model's context window (about 4 characters a token), the user is warned once
// and the model is offered two tools in their place (tools.MCPSearch):
// mcp_search_tools (read-only; ranks tools by the query's words in their
// names, then descriptions, and shows each match's input schema; 8 by default,
// at most 20) and mcp_call_tool (tool, arguments), which runs the named tool
// exactly as if it had been offered, through the MCP confirmation and allow
// rules, and inside the hooks under the tool's own name (mcp_call_tool itself
// is not wrapped, so a hook runs once). A custom command's allowedTools holds
// through them: naming an MCP tool (mcp__s__t) or a server (mcp__s, mcp__s__*)
// allows the two search tools, which then find and call only those tools
// (tools.MCPAllowed); a list naming no MCP tool blocks both
// (TestCommandAllowedToolsThroughMCPSearch).
//
// # Results
//
// content.go turns a tool result into text for the model and images for the
// chat. Text is passed through; an embedded text resource is wrapped in
// <resource uri mimeType> after ANSI escapes and control characters are
// removed (its own </resource> is escaped, so it cannot close the wrapper); a
// binary resource, audio or a resource link is a note with its URI and MIME
// type. An image is written once to
// <state>/mcp-images/<sha256>.<png|jpg|gif|webp> (images.go: only those four
// types, at most 8 MB, and only when the bytes sniff as the declared type, so
// an SVG or HTML never lands there; the same image is stored once, written
// aside and renamed, never overwritten) and named in the result's meta.images
// (path, mimeType, size), never sent as base64 over JSON-RPC or kept in the
// store. Models here take text only: the model reads "[The tool returned an
// image (image/png, N bytes). It is shown to the user in the chat; you cannot
// see it.]", or why it is not shown. Image data that is not base64 fails the
// SDK's decoding, so the call is an error naming the server
// (TestBadBase64ImageIsAClearError). The chat shows the images inline in the
// tool card (the webview's mcpImages.ts; <state>/mcp-images/ is a
// localResourceRoots folder).
//
// # Inputs and the status view
//
// The chat header's server button (or "GoVibe: MCP Servers") opens the status
// view (mcp/status): each server's state, tool count, schema tokens, error and
// stderr tail, restart (mcp/restart replaces its process) and enable/disable
// (mcp/setEnabled; enabling starts it at once, Manager.Connect).
// .vscode/mcp.json inputs are declared in the status (needsInputs); the view's
// "Enter inputs" asks for them (a password box when declared so), the host
// keeps them in SecretStorage per workspace (govibe.mcpInput.<scope>.<id>,
// scope a hash of the .code-workspace file or else the sorted folder URIs, as
// SecretStorage is shared by every window) and sends them with mcp/setInputs
// (stored ones after every sidecar start). Values earlier versions kept under
// govibe.mcpInput.<id> for every workspace are removed when met and never
// used. The sidecar keeps input values in memory, redacts them from its log
// and substitutes them only into the config of the server that references
// them, never into any other process's environment.
package mcpclient
