// Package approval decides whether what the model asks to do may happen:
// an edit, a shell command, an MCP tool call, and a plan the plan
// reviewer gave up on. It applies the permission
// rules, the reviewers (package reviewers), anti-repeat, auto-approve
// settings and the headless policy, and asks the user otherwise through
// Host.Ask (dialogs.Broker). It reaches the engine only through Host
// and the Turn it decides for.
//
// # What it decides
//
// Edits, shell commands, MCP calls, web fetches and browser runs, and the plan
// question when the plan reviewer gives up. Host gives it typed settings, Ask
// (dialogs.Broker), Tr and a notice on a turn; a Turn names the session,
// turn, request, current message id and the before-mutation hook. Confirm and
// Answer are its types. The engine's turnApprover adds ask_human (dialogs.Questions'
// dialogs) and show_notification. Shell commands pass static analysis (package
// shellcheck), the permission rules (deny → ask → allow, per parsed
// sub-command), anti-repeat (repeat.go: the same command in the same workspace
// state), the reviewers, then the user. A reviewer that fails or times out
// goes to the user as "review unavailable", never silently approved; headless
// it is refused. A tool result that ran without anyone being asked carries
// autoApproved {by, detail} in its meta (read-only command, allow rule,
// setting, --approve flag; decided in shell.go and edit.go), and declined
// {reason} when the user said no; the card names the rule.
//
// # Always allow
//
// A shell, MCP, edit or web-fetch confirmation carries allowRules, the user
// allow rules that would have let the call run unasked (allow.go): per
// sub-command Bash(<name> <subcommand>:*), or the exact command when it is
// dangerous or a flag-led change (rm -rf build); nothing when a sub-command is
// computed at run time or writes files (no rule can cover those) or an ask
// rule applies; mcp__server__tool for MCP; for an edit the one file, anchored
// to its absolute path (Edit(//home/me/app/main.go); a relative rule would
// allow that name in every workspace), nothing for a protected file (always
// asks) or a path with glob characters; WebFetch(domain:<host>) for a fetch
// (the host and its subdomains). The card names the rules under its buttons.
// Accepting with alwaysAllow writes exactly those rules (never an edited
// command's) to the allow-rules file (package allowrules). They join
// permissions.allow for the policy and the MCP approver, in the editor and
// headless.
//
// # Web fetches ask
//
// A fetched URL can carry workspace data to any host, so web_fetch is
// confirmed like a command although it is read-only (fetch.go): the SSRF
// policy is checked first (web.Fetcher.Check, so no card is shown for a
// refused address), then WebFetch(domain:…) rules (deny refuses, ask asks, a
// user allow rule or always-allow rule fetches unasked; a workspace's allow
// rules never count), then headless runs fetch only with --approve all, and
// the editor shows a fetch card with the whole URL and the names (never the
// values) of the headers and cookie it would send. It resumes after a restart
// like the other cards. @url mentions, which the user typed, do not ask,
// headless included (tools.FetchProposal.Typed; the SSRF policy and deny rules
// still refuse them).
//
// # The browser sub-agent asks
//
// browser_sub_agent is confirmed like web_fetch (tools.ConfirmedBrowser around
// the tool, ConfirmBrowser in browser.go): it reaches only public addresses
// with a profile holding none of the user's cookies, but what it opens and
// types can carry workspace data out. A deny rule browser_sub_agent refuses, a
// user allow rule (settings or the always-allow file) permits; otherwise the
// editor shows a tool card (task and URL) whose "Always allow" writes that
// rule, and a headless run goes ahead only with --approve all or the rule
// (TestBrowserSubAgentIsConfirmed, TestExecBrowserApproval). The card is
// resumable after a restart like an MCP call's. The tool is not read-only, so
// read-only agents and evaluators do not get it.
//
// # Creating the project memory asks
//
// Nothing creates the project memory unasked (memory.go): in the editor the
// write that would create it (a new file under .govibe/memory/ while that
// folder holds no file) always asks, like a protected file (no auto-approval,
// countdown or always-allow rule), and a decline writes nothing and tells the
// model not to create memory again unless the user asks; its card carries a
// translated line saying it creates the project memory and naming the folder
// (ConfirmRequest.notice) (TestMemoryCreatedOnFirstUseAfterConfirm,
// TestMemoryFirstUseNoticeInChinese, TestMemoryFirstUseDeclined). Headless,
// --approve edits is that consent. Otherwise .govibe/memory/ is plain text
// like AGENTS.md, not a protected path, unless reached through a symbolic
// link.
//
// # The plan question
//
// When the plan reviewer gives up on a create_todo_list, the user is asked
// "use this plan anyway?" (plan.go). Only the choice "Use this plan" accepts:
// a typed reply is the user's answer, so the plan is not taken and the reply
// reaches the model as feedback to revise it, and "Reject it", Cancel or an
// empty Done refuse it. The question has no dialog: any answer closes it. It
// waits under askHuman.timeoutMs (QuestionTimeout), restored after a restart
// too; when it runs out the plan is not used and the model is told nobody
// answered (TestPlanQuestionTimesOut, TestPlanQuestionTimeoutSurvivesRestart).
// After a restart the answer resumes the run where it stopped: the tool runs
// again and takes the recorded answer through the call's context; the plan is
// not reviewed again, and an accepted plan goes to the scheduler
// (TestPlanQuestionResumedAfterRestart). Headless, the plan question is asked
// on the terminal like ask_human when stdin is one (choices 1) Use this plan /
// 2) Reject it, under a line saying the terminal, not --approve, decides;
// Options.AskTerminal, plan_headless.go); without a terminal --approve all
// uses the plan and any other value does not, and a notice says which
// (TestExecPlanQuestionOnTheTerminal under a pty,
// TestExecPlanQuestionWithoutTTY, TestDecideHeadlessPlan).
//
// # After a restart
//
// A run parked on an edit, shell, MCP, fetch or browser confirmation is
// re-offered after a restart; answering it resumes the run (Resume,
// resumed.go): the same call and arguments run with the recorded answer.
package approval
