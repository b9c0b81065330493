// Package osbox runs the agent's commands inside an operating-system
// sandbox: the kernel, not a list of bad commands, decides what a command
// may touch. (Package sandbox, by contrast, confines the paths the file
// tools are given.)
//
// What it promises, under bubblewrap (Linux, user namespaces):
//   - The whole system is read-only. A private /tmp and the toolchain
//     caches (Go, npm, pip, cargo, yarn, pnpm, Maven, Gradle) are writable.
//   - The workspace roots are writable only under Access WorkspaceWrite;
//     even then .git (unless GitWrite), .govibe, .vscode, .claude, .gemini,
//     .cursor, .mcp.json, .github/hooks, .idea and .devcontainer stay
//     read-only, and any of them a command creates is removed after it.
//   - Secrets are masked by empty files or folders: .env* files in the
//     roots, ~/.ssh, ~/.aws, ~/.config/gcloud, ~/.netrc,
//     ~/.docker/config.json, ~/.kube and the other credential stores in
//     policy.go, VS Code's and GoVibe's storage, the runtime folder's
//     sockets, and the user's own list.
//   - No network namespace access: the only way out is the sidecar's
//     allowlisting proxy (package netproxy), reached through a Unix socket
//     bound into the sandbox and a forwarder the helper runs inside.
//   - Its own PID namespace (no daemon survives the command), no new
//     privileges, no capabilities, death with the parent, a new session
//     (no TIOCSTI), and a seccomp filter refusing ptrace and the other
//     process-inspection calls, new namespaces, kernel attack surface, and
//     socket(AF_UNIX) (a read-only mount does not stop connect() on a
//     socket file such as docker.sock).
//   - Process and memory limits: RLIMIT_DATA, and RLIMIT_NPROC, which the
//     kernel does not apply to root; for root the process limit is a pids
//     cgroup (v1 or v2) the command joins before it starts.
//
// What it does not promise: reads of non-secret files outside the
// workspace are allowed (as in Codex); the toolchain caches are shared with
// the user's own builds; a command allowed to write can change the
// workspace's code, which runs later outside the sandbox when someone
// builds it.
//
// The Landlock fallback (bwrap missing, kernel ABI ≥ 4) keeps the
// read-only system, the masks of home secrets, no network at all (Landlock
// refuses TCP, seccomp the other Internet sockets) and the seccomp filter;
// a subreaper kills what the command leaves behind. Its limit is in
// Status.Limits. Where neither works, Detect says why and how to fix it,
// and the approval layer makes every command ask.
//
// The sidecar never builds a shell string for the sandbox: Prepare returns
// an argv that runs bwrap (or the helper directly) and then this same
// binary as the helper (HelperArg, `govibe sandbox-exec`), which sets the
// limits, loads Landlock and seccomp, and execs the command.
package osbox
