// Package tools holds the model-visible tools. Each tool is a small file with
// its description embedded; model-visible failures are returned as a Result
// with OK=false, never as a Go error (a Go error means the turn must stop).
//
// # Failures people read
//
// Every failed tool result the model reads in English (a refusal by the
// approver, the turn cap's "not run", a Read-rule or sandbox refusal through
// Refusal / Env.Translator, and every other tool error: bad or missing
// arguments, file not found, a folder for a file, too large, binary, lines out
// of range, a pattern that does not compile, a failed fetch, a command that
// cannot start, sub-agent, todo, hook and phase-guard failures) carries a
// Display text for people, in their language: stored in the tool_result part
// and sent as ToolEvent.display / Part.display (the webview shows it instead
// of the output when set), printed by govibe exec. FailShown builds one;
// tool_errors.go words OS and library errors by kind (not exist, permission,
// is a directory, too large) keeping the path, and shows any other cause under
// a translated lead. Two tests keep the class whole: one calls every offered
// tool with failing inputs derived from its schema under zh-CN and wants a
// Han-script Display and an English output on each failure; a go/ast check
// fails on any Fail(...) without a Display set, or failing Result literal
// without one, anywhere in server/.
//
// # Listing at scale
//
// list_files and glob stop walking at their cap (500 entries, 1,000 matches),
// so their first page costs what the walk to it costs, not a walk of the whole
// tree; the page is deterministic (lexical walk order; glob then orders newest
// first among what it saw) and the note says to narrow the path or pattern.
// glob matches each entry's name against the pattern's last segment before
// building its path (when that segment holds no ** and no / sits in braces or
// a class), so a selective pattern costs little more than the directory
// listings. Walks skip the names in package skipdirs. make bench (toolbench)
// measures them against a raw walk of a generated tree.
//
// # Read rules and other guards
//
// Read(...) permission rules apply to every reader: read_file, find_in_file,
// get_file_info and validate_spec refuse a denied path; grep_search,
// list_files, glob and get_diagnostics leave denied files out and say how many
// they withheld (Env.Readable). GuardedShell is a shell that may only check
// (evaluators, Phases VERIFYING, reconcile agents): its policy Allow(command,
// workspace) is scheduler.EvaluatorMayRun (planrun.EvaluatorShell) or
// checks-only (moderun.ChecksOnlyShell). A custom command's or compat agent's
// tool names map through CompatNames (Claude's Read, Bash(git:*), prompt
// files' codebase…).
package tools
