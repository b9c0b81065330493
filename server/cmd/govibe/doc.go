// Command govibe is GoVibe's sidecar and headless CLI.
//
//	govibe serve --stdio          JSON-RPC over stdio, for the VS Code extension
//	govibe exec [flags] PROMPT    run the agent headless
//	govibe eval [flags]           the built-in task suite against a model (eval_cmd.go, internal/agent/evalsuite)
//	govibe snapshot list|diff|restore
//	govibe session list|show|export
//	govibe config [--json]
//	govibe permissions list|add|revoke
//	govibe models presets|list|probe
//
// Credentials: serve, exec and eval start with secretenv.Hide, so the environment
// block of the process that runs the agent's commands holds none; exec keeps
// the API key in memory alone.
//
// Headless output (exec_output.go): stream-json init.tools is the list the
// model is offered (turntools.Service.Offered); every event of a sub-agent carries
// agent (executor:N, evaluator:N, investigate, agent:<name>); notices are
// notice lines; json output's text separates rounds with a blank line; the
// result usage includes cost; a tool_result that ran without anyone being
// asked carries auto_approved (by: read-only, rule, flag, setting; detail: the
// reason, rule, flag or key), as the editor's card says it. Exit status: 0
// done, 1 error, 2 usage error, 3 --max-turns reached.
package main
