// Package permission decides whether a tool call may run without asking,
// from rules written like Claude Code's: Bash(npm test*), Edit(src/**),
// Read(**), WebFetch(domain:go.dev). A Policy holds allow, ask and deny
// lists; deny is checked first, then ask, then allow, and within a list
// the first matching rule wins.
//
// Bash rules are matched against every sub-command shellcheck finds in the
// command line, not against its text, so `ls && rm -rf x` is not allowed
// by Bash(ls*): an allow needs every sub-command allowed, and one denied
// sub-command denies the line.
//
// # Read rules
//
// Read(...) rules apply to every reader (tools' Env.Readable). A shell command
// is checked against the Read rules with the paths it reads: the operands
// shellcheck parsed (wrappers unwrapped, --flag=value values, globs expanded)
// that exist, and its < redirections; a folder counts with everything below
// it, so grep -r KEY . meets Read(.env) (ReadPaths, Policy.EvaluateReads).
// Reads a command makes without naming them count too (implied.go):
// rg/ag/ack/grep -r with no path and find -exec read the cwd, git show
// REV:path reads path, $PWD and $HOME are resolved; git diff/log
// -p/show/grep/blame with no pathspec are judged against the files git tracks
// now or in history (TrackedReads, EvaluateTracked), so an ignored .env leaves
// git diff usable. Interpreters (python3 -c, node -e, a script's arguments)
// and xargs (fed from the same line) count each word of their code or line
// that names an existing file. What a script file or a pipe from another
// program opens is not seen. An ask rule on a read refuses it too (reads have
// no confirmation) and tells the model to ask the user.
//
// # Invalid rules
//
// An invalid rule is left out and reported where it was written (setting and
// entry) as a server notice or an exec warning (headless: its own key, e.g.
// govibe.permissions.workspace.deny, and the --set flags, the environment or
// the settings file, Options.SettingOrigin); the valid rules keep applying. A
// workspace's rules may only add ask and deny rules (permissions.workspace.*):
// its allow rules never count.
package permission
