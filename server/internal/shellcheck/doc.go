// Package shellcheck classifies a shell command line before it runs, by
// parsing it as bash does (mvdan.cc/sh) rather than matching text, so that
// quoting, escapes, nesting and wrappers cannot hide what runs.
//
// Every simple command the line can run is found and classified: commands
// in pipelines, lists, subshells, blocks, command and process
// substitutions, functions, here-documents fed to shells, eval and
// bash -c strings (re-parsed), xargs and find -exec commands, and the
// commands run by wrappers (env, nice, timeout, nohup, time, command,
// builtin, exec, sudo, doas, stdbuf, ionice, setsid, flock, watch).
// The class of the line is the worst class of its commands.
//
// Decisions worth knowing:
//
//   - A command name, eval string, shell script or write target that is
//     computed at run time ($X, $(...), ${!X}) cannot be checked and is
//     dangerous. Words made of quotes, escapes, brace expansions and $HOME
//     are resolved to their literal value first, so c\at, "c"at, 'r”m' and
//     {rm,-rf,/} are seen as cat, cat, rm and rm -rf /.
//   - Running tests, linters and type checkers (go test, go vet, npm test,
//     npm run lint/type-check/test:*, jest, vitest, pytest, cargo test,
//     tsc --noEmit, eslint without --fix) is read-only: they execute project
//     code, but that code is the project's own and evaluators must run them
//     freely. Options that write (go test -coverprofile/-o/-fuzz, jest -u,
//     --fix, --write) make them mutating. go build, installs and package
//     scripts other than checks are mutating.
//   - awk is mutating: its programs can run commands and write files.
//   - sed is read-only without -i unless its script writes (w, s///w) or
//     runs commands (e, s///e, dangerous). -n is not required: without -i,
//     sed writes only to standard output.
//   - Writes outside the workspace roots are dangerous, /tmp included;
//     writes to shell startup and credential files get a reason of their
//     own. A write to a relative path after a cd the analysis cannot
//     follow (cd "$X", cd - , a cd in one branch) is treated as unknown and
//     is dangerous. Symlinks are not followed: the analysis is pure.
//   - Recursive deletes (rm -r, find -delete, find -exec rm, xargs rm -r)
//     are dangerous unless every target is inside a build output directory
//     (node_modules, dist, build, out, target, .cache, __pycache__,
//     coverage, .next, ...) of the workspace, when they are mutating.
//     xargs rm without -r is mutating: its paths come from the previous
//     stage, which the same analysis checks.
//   - A shell reading its script from a pipe runs it only when the pipe is
//     fed by a literal echo or printf, whose text is then analysed; from a
//     download or a decoder (base64 -d, xxd -r, gunzip, openssl...) or
//     anything else it is dangerous.
//   - Reading credential files (~/.ssh/id_*, ~/.aws/credentials, ~/.netrc,
//     ~/.config/gh/hosts.yml, /etc/shadow...) is dangerous.
//
// Tool hints (Analysis.UseTool) tell the caller to refuse a command and
// name the dedicated tool. They are given for:
//
//   - cat, head, tail, less and more of a workspace file whose extension is
//     program source (.go, .ts, .py, ...; see sourceExts): read_file.
//     Project files such as Makefile, package.json, README.md or logs are
//     not hinted, nor is anything read from a pipe (git log | head).
//   - sed -i on a workspace file: edit_file.
//   - Output redirected (>, >>) or tee'd into a workspace file outside
//     build output directories when the text is written in the command
//     itself (echo, printf, cat or tee of a here-document or here-string),
//     or when the file is source or project configuration (.json, .yaml,
//     .md, Makefile, ...): write_file (edit_file for appends). Logs and
//     other outputs of real commands (go test > test.log) are not hinted;
//     /dev/null and descriptor duplications (2>&1) are never writes.
//
// A dangerous command never carries a hint: its refusal must name the
// danger.
package shellcheck
