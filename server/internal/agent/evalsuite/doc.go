// Package evalsuite is the built-in task suite of `govibe eval`: small
// coding tasks, each set up in a temporary git workspace created here and
// judged by its own check (the workspace's tests, its files, or a fact in
// the answer), never by what the model says about its work.
//
// The package knows nothing of the engine: the caller runs one task's
// prompt through an Agent, in the task's mode (Plan mode's proposal is
// approved by the caller, as "Run plan" would), and hands back a
// Transcript (the final answer, the tool calls of the main agent and its
// plan's agents, the token usage). Run turns transcripts into results
// and totals; Table and the Result's JSON tags are the report.
package evalsuite
