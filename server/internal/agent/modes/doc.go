// Package modes holds the working modes (Agent, Plan, Phases, Reconcile)
// as phase machines: each phase names the tools it offers, the tools that
// end it, and its limits. The engine asks a mode which tools a phase
// blocks and feeds the loop's reports back; the loop itself is the
// engine's one agent loop, never a second one.
//
// Each run of a turn is the one agent loop; the mode's current phase adds its
// refusals to the run's Blocked map (the mechanism the scheduler's roles use),
// so a tool outside the phase is neither offered nor run.
//
// # Agent and Plan
//
// Agent adds no refusals (free → scheduling → free). Plan offers the tools
// that declare themselves read-only plus create_todo_list; the created plan is
// not run, and the tool's result tells the model it is proposed, not run. The
// webview shows it as an editable list (PlanEditor); "Run plan" (chat/runPlan
// with the edited items, which replace the proposal while no item has started)
// switches to Agent and resumes the plan through the plan runner.
//
// # Phases (codeCLI)
//
// EXPLORING → PLANNING → PATCHING → VERIFYING → DONE | FAILED. The report
// tools (report_findings, report_plan, report_blocked, report_done) are
// offered only in this mode, each in its state only (EXPLORING: read, list,
// search, report_findings; PLANNING: read, report_plan; PATCHING: read, write,
// report_blocked; VERIFYING: read, search, checks-only shell, report_done,
// report_blocked). As in codeCLI, PATCHING has no "done" report: each
// successful write patches the plan's current step (the result says so) and
// writing the last one moves to VERIFYING, whose report_blocked goes back to
// PATCHING at the last step. A plain reply is answered with a nudge (3 at most
// in a row); three report_blocked on one step → FAILED; a call identical to
// one already made in the same phase of the turn is refused.
//
// # Reconcile (VibeOS)
//
// A Vibe Manifest has the seed's fields (metadata name/version, spec.intent,
// constraints framework/language/testing[], visualSpec style/elements[] plus
// any details, functionalSpec inputs/states/behaviors, status
// phase/currentLoop/lastError/diff); GoVibe adds metadata.approved,
// spec.testCommand and e2eCommand; the earlier shapes (testing as a string,
// behaviours) still load (manifest_fields.go). While drafting, write tools
// carry a path rule that allows only .govibe/manifests/<name>.json (a
// protected path, so the write is confirmed like any .govibe/ file).
//
// RunReconcile's rules: the auditor runs before the specifier too, and the
// specifier is sent back unless its tests add failures (new failing names
// where the reports name tests, else a higher count), so tests that already
// failed do not pass for new ones; Ready on Diff 0; Failed, with lastError
// "CrashLoopBackOff: why", on govibe.reconcile.maxTotalLoops, maxStagnation or
// a model failure; runs saved with the older phase CrashLoopBackOff read as
// ended. Reconciler is the loop's view of its runner (moderun.Loop).
//
// Each scoped agent's write tools carry WriteRule (specifier: test files only;
// coder: never a test file; judged on the cleaned path inside its root, so
// tests/../src/a.go is source). Test files are *_test.go, *.test.*, *.spec.*,
// test_*.py, *_test.py, conftest.py and anything under test/, tests/,
// __tests__/, e2e/, testdata/, __snapshots__/, __mocks__/, fixtures/, plus
// *.snap and the files that configure the test run (IsTestConfigPath:
// vitest.config.*, jest.config.*, .mocharc*, karma.conf*, pytest.ini,
// tox.ini…), so the coder cannot bring Diff to 0 by excluding tests. Files the
// code and the tests share (package.json, vite.config.*, pyproject.toml,
// setup.cfg, Makefile) are judged by the edit (CheckSharedEdit): the coder's
// write that changes their test part (scripts.test*, jest/vitest/mocha/ava
// keys, the vite test block, pytest sections, test* targets) is undone and
// refused, a dependency added passes; the specifier may write them whole.
//
// ParseDiff reads the auditor's output: go test -json leaf tests plus packages
// that failed without a failing test (a build failure); jest/vitest JSON, a
// suite that did not load counting one; the last summary line with "N
// passed"/"N failed"/"N errors" in any order. Diff never reads 0 when nothing
// ran (no test files, all skipped, none collected: one failure "no tests
// ran"), nor when the command exits non-zero with no failure reported (one
// failure); output with no report at all ends the run with the end of the
// output in lastError.
package modes
