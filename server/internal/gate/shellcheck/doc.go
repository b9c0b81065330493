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
//   - Classes (see Class): read-only, reads-outside, mutating, runs-code,
//     dangerous. Analysis.Reason says in one line why a command has its
//     class.
//   - Running the project's code is runs-code, not read-only: go test/run/
//     generate, npm test/run/start/exec and installs, npx, make (even -n,
//     which expands $(shell)), pytest, jest, vitest, eslint and prettier
//     (JavaScript configuration), cargo test/run/check, python x.py, node
//     x.js, ./x.sh, source. OnlyChecks tells evaluators which of them are
//     checks (tests, linters) run without options that write. tsc
//     --noEmit, mypy, ruff, go vet read only.
//   - Environment given to a command (X=1 cmd, env X=1 cmd, export X=1) is
//     runs-code unless every variable is inert (LANG, LC_*, TZ, NO_COLOR,
//     TERM, COLUMNS, LINES, CLICOLOR, FORCE_COLOR...). Variables that hold
//     a command (PAGER, EDITOR, LESSOPEN, GIT_SSH_COMMAND,
//     GIT_CONFIG_VALUE_n...) and option values that do (man -P/-H, git -c,
//     --exec, --pager, zip -TT...) are analysed as commands.
//   - The analysis is the second layer: every command runs in the OS
//     sandbox (osbox), a read-only one read-only and offline, with an
//     allowlisted environment. It does not guess at what a command could
//     run from its environment or from planted configuration (LESSOPEN,
//     PAGER, a repository's core.pager, diff.external, textconv,
//     fsmonitor): less, more, man, git help, git -p, git diff --ext-diff,
//     systemctl status and journalctl are read-only. What the command line
//     names is analysed: less +!cmd, man -P, git -c, git grep -O<program>.
//   - Editors, debuggers and other interactive programs run code; their
//     commands given on the command line (vi -c, gdb -ex) are dangerous.
//   - Network plus execution is dangerous: /dev/tcp and /dev/udp
//     redirections, nc/socat/telnet/ssh, openssl s_client, one-liners that
//     open sockets or fetch URLs (python, perl, ruby, php, node, awk
//     /inet/, pwsh...), servers (python -m http.server, php -S), uploads
//     (curl -d @f/-T/-F x=@f/-H @f, wget --post-*, scp, remote rsync),
//     publishing (npm publish, docker push, gh gist create, aws s3 cp,
//     git push URL), and network clients given computed arguments
//     (dig $(whoami).x). Tools that print stored credentials (gh auth
//     token, aws configure get, git credential fill) are dangerous too.
//   - Any argument of a command is taken as a path it may read, except for
//     commands that read none (echo, test, basename...) and the pattern of
//     search tools (grep, sed, jq...). A read outside the workspace is
//     reads-outside; a read of a secret is dangerous: /proc/PID, /proc/self
//     and /proc/thread-self, /dev/mem, credential files outside the
//     workspace (~/.ssh, ~/.aws, ~/.netrc, ~/.pgpass, ~/.docker/config.json,
//     ~/.kube, ~/.npmrc, ~/.config/gh, gcloud, shell histories...) and a
//     recursive read of a directory holding them. Every word of the command
//     is checked, however spelt: globs (/proc/*/environ), computed parts
//     (/proc/$PPID/environ), option values (--file=, @file, -f/path),
//     file:// URLs and paths inside one-liners. ps e, which prints process
//     environments, is dangerous too.
//   - Options that name an output file (--output, --junit-xml, -o for the
//     tools that take it) are writes, checked like redirections.
//   - awk reads its program: > makes it mutating (a write, or a comparison
//     taken as one), system() and pipes runs-code, /inet/ files dangerous,
//     a program from a file (-f, -i, -l) runs-code, and a computed one
//     dangerous.
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
//
// # Names and the acceptance corpus
//
// A versioned or alternative program name (lua5.1, python3.12, nc.traditional)
// is analysed as the program it names, but never trusted as read-only
// (names.go). Credential files are also known by the shape of their name
// outside the workspace (credentials, *token*, *.pem, *.key, id_rsa...). The
// acceptance corpus unseen_corpus*_test.go (written blind to the tables)
// guards the classes. make bench (shellbench) times the analysis of a 1 KB
// command against its parse alone (budget 1 ms).
package shellcheck
