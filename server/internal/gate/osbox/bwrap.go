package osbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

var (
	emptyOnce sync.Once
	emptyPath = "/dev/null"
)

// emptyFile is an empty, read-only regular file that masks a secret file:
// a regular file, not /dev/null, so git and other tools that refuse a
// device in place of a tracked file still work (they see it emptied).
func emptyFile() string {
	emptyOnce.Do(func() {
		dir, err := os.MkdirTemp("", "govibe-mask-")
		if err != nil {
			return
		}
		p := filepath.Join(dir, "empty")
		if os.WriteFile(p, nil, 0o444) == nil {
			emptyPath = p
		}
	})
	return emptyPath
}

// Paths inside the sandbox where the helper finds what the sidecar hands it.
const (
	insideProxy = "/tmp/.govibe/proxy.sock"
	httpPort    = 3128
	socksPort   = 1080
)

// bwrapArgs builds bubblewrap's arguments for p. Order matters: later
// mounts cover earlier ones, so the system goes read-only first, then the
// private /tmp and the masks, then the workspace on top (it may live under
// /tmp or a masked folder), then the protected and secret paths inside it.
// It returns the protected paths that did not exist (see Sweep).
func bwrapArgs(p Policy, cwd, helper string) (args, missing []string) {
	a := []string{
		"--ro-bind", "/", "/",
		"--dev", "/dev",
		"--proc", "/proc",
		"--tmpfs", "/tmp",
		"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--unshare-net", // only loopback: the proxy is reached through a socket
		"--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
	}
	// What lives under the host's /tmp is hidden by the private one; the
	// home folder and the PATH's folders that live there (a test's HOME, a
	// toolchain unpacked under /tmp) stay readable, or tools could not
	// even start. Masks below still cover the home folder's secrets.
	for _, d := range underTmp(p.Home, os.Getenv("PATH")) {
		a = append(a, "--ro-bind", d, d)
	}
	mask := func(path string) {
		fi, err := os.Lstat(path)
		if err != nil {
			return
		}
		if fi.IsDir() {
			a = append(a, "--tmpfs", path, "--remount-ro", path)
		} else {
			a = append(a, "--ro-bind", emptyFile(), path)
		}
	}
	// The user's runtime folder holds the session's sockets (ssh-agent,
	// keyrings, the editor's IPC); /run holds the system's (docker).
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" {
		mask(rt)
	}
	for _, s := range []string{"/run/docker.sock", "/var/run/docker.sock", "/run/podman", "/run/containerd"} {
		mask(s)
	}
	for _, m := range HomeSecrets(p.Home) {
		mask(m)
	}
	for _, m := range p.Mask {
		mask(m)
	}
	for _, c := range p.Caches {
		a = append(a, "--bind", c, c)
	}
	for _, r := range p.Roots {
		if p.Access == WorkspaceWrite {
			a = append(a, "--bind", r, r)
		} else {
			a = append(a, "--ro-bind", r, r)
		}
	}
	for _, r := range p.Roots {
		if p.Access == WorkspaceWrite {
			exist, miss := protectedIn(r, p.GitWrite)
			for _, e := range exist {
				a = append(a, "--ro-bind", e, e)
			}
			missing = append(missing, miss...)
		}
		for _, s := range rootSecrets(r) {
			a = append(a, "--ro-bind", emptyFile(), s)
		}
	}
	// The helper is this very binary; it may live in a folder the mounts
	// above hid (a test binary under /tmp), so it is bound where it was.
	a = append(a, "--ro-bind", helper, helper)
	if p.Network != nil {
		a = append(a, "--bind", p.Network.Proxy, insideProxy)
	}
	if cwd != "" {
		a = append(a, "--chdir", cwd)
	}
	return a, missing
}

// proxyEnv points every common client at the forwarder inside the sandbox.
func proxyEnv() []string {
	h := "http://127.0.0.1:" + strconv.Itoa(httpPort)
	s := "socks5h://127.0.0.1:" + strconv.Itoa(socksPort)
	return []string{
		"HTTP_PROXY=" + h, "HTTPS_PROXY=" + h, "http_proxy=" + h, "https_proxy=" + h,
		"ALL_PROXY=" + s, "all_proxy=" + s, "NO_PROXY=", "no_proxy=",
		"npm_config_proxy=" + h, "npm_config_https_proxy=" + h,
	}
}

// helperPath is the binary that runs inside the sandbox as its helper.
func helperPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(exe)
}

// underTmp returns home and the PATH's folders that lie under /tmp and
// exist (each once, a folder already covered by another left out).
func underTmp(home, path string) []string {
	var out []string
	cands := append([]string{home}, filepath.SplitList(path)...)
	for _, c := range cands {
		c = filepath.Clean(c)
		if c == "" || !strings.HasPrefix(c, "/tmp/") {
			continue
		}
		covered := false
		for _, o := range out {
			if c == o || strings.HasPrefix(c, o+"/") {
				covered = true
			}
		}
		if fi, err := os.Stat(c); err == nil && fi.IsDir() && !covered {
			out = append(out, c)
		}
	}
	return out
}
