package osbox

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mechanisms returns the mechanisms this machine offers; CI installs
// bubblewrap and its kernel offers Landlock, so there both run.
func mechanisms(t *testing.T) []Mechanism {
	var ms []Mechanism
	if bwrapWorks() == "" {
		ms = append(ms, Bubblewrap)
	} else if os.Getenv("CI") != "" {
		t.Fatalf("CI must provide bubblewrap: %s", bwrapWorks())
	}
	if landlockWorks() == "" {
		ms = append(ms, Landlock)
	}
	if len(ms) == 0 {
		t.Skip("no sandbox mechanism on this machine: " + bwrapWorks())
	}
	return ms
}

type fixture struct {
	root, home, outside string
}

func newFixture(t *testing.T) fixture {
	base := t.TempDir()
	f := fixture{root: filepath.Join(base, "ws"), home: filepath.Join(base, "home"), outside: filepath.Join(base, "outside")}
	for _, d := range []string{f.root, f.home, f.outside, filepath.Join(f.root, ".git", "hooks"), filepath.Join(f.home, ".ssh"), filepath.Join(f.root, "sub")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	write(t, filepath.Join(f.root, "main.go"), "package main\n")
	write(t, filepath.Join(f.root, ".git", "config"), "[core]\n")
	write(t, filepath.Join(f.root, ".env"), "API_TOKEN=planted-secret-1\n")
	write(t, filepath.Join(f.root, "sub", ".env.local"), "DB_PASSWORD=planted-secret-2\n")
	write(t, filepath.Join(f.home, ".ssh", "id_rsa"), "planted-secret-3\n")
	write(t, filepath.Join(f.home, ".netrc"), "machine x password planted-secret-4\n")
	write(t, filepath.Join(f.outside, "notes.txt"), "outside\n")
	return f
}

func (f fixture) policy(a Access) Policy {
	return Policy{Roots: []string{f.root}, Access: a, Home: f.home, MaxProcesses: 512, MaxMemoryMB: 4096}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, p, s string) { must(t, os.WriteFile(p, []byte(s), 0o644)) }

// run runs script with bash in the sandbox and returns its output and exit code.
func run(t *testing.T, m Mechanism, p Policy, cwd, script string) (string, int) {
	t.Helper()
	pr, err := Prepare(Status{Mechanism: m}, p, cwd, []string{"bash", "-c", script})
	must(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pr.Path, pr.Args[1:]...)
	cmd.Dir = cwd
	cmd.Env = append([]string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + p.Home}, pr.Env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.ExtraFiles = pr.Files
	err = cmd.Run()
	pr.After()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func TestReadOnlyWorkspaceRefusesWritesButNotTmp(t *testing.T) {
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			out, code := run(t, m, f.policy(ReadOnly), f.root, `cat main.go && echo x > ${TMPDIR:-/tmp}/scratch && cat ${TMPDIR:-/tmp}/scratch && echo y > new.txt`)
			if code == 0 || !strings.Contains(out, "package main") || !strings.Contains(out, "x\n") {
				t.Fatalf("code %d, out %q", code, out)
			}
			if !strings.Contains(out, "Read-only file system") && !strings.Contains(out, "Permission denied") {
				t.Fatalf("the write was not refused by the sandbox: %q", out)
			}
			if _, err := os.Stat(filepath.Join(f.root, "new.txt")); err == nil {
				t.Fatal("a read-only command wrote to the workspace")
			}
			out, code = run(t, m, f.policy(ReadOnly), f.root, `echo z > `+filepath.Join(f.outside, "w.txt"))
			if code == 0 {
				t.Fatalf("wrote outside the workspace: %q", out)
			}
		})
	}
}

func TestWorkspaceWriteKeepsRepositoryConfigAndHooksReadOnly(t *testing.T) {
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			out, code := run(t, m, f.policy(WorkspaceWrite), f.root, `echo y > new.txt && cat new.txt`)
			if code != 0 || out != "y\n" {
				t.Fatalf("workspace-write could not write: %d %q", code, out)
			}
			if m == Landlock {
				// The fallback's documented limit (Status.Limits): a
				// writable root is writable whole.
				return
			}
			for _, script := range []string{
				`echo '[core] fsmonitor=./evil' >> .git/config`,
				`printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit`,
				`echo x > ` + filepath.Join(f.outside, "w.txt"),
			} {
				if out, code := run(t, m, f.policy(WorkspaceWrite), f.root, script); code == 0 {
					t.Errorf("%s: ran: %q", script, out)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(f.root, ".git", "config")); string(b) != "[core]\n" {
				t.Fatalf(".git/config changed: %q", b)
			}
			// A protected folder that did not exist is removed after the command.
			run(t, m, f.policy(WorkspaceWrite), f.root, `mkdir -p .vscode && echo '{}' > .vscode/tasks.json`)
			if _, err := os.Stat(filepath.Join(f.root, ".vscode")); err == nil {
				t.Fatal(".vscode created by a command survived it")
			}
		})
	}
}

func TestSecretsAreMasked(t *testing.T) {
	for _, m := range mechanisms(t) {
		for _, a := range []Access{ReadOnly, WorkspaceWrite} {
			t.Run(string(m)+"/"+a.String(), func(t *testing.T) {
				f := newFixture(t)
				if m == Landlock && a == WorkspaceWrite {
					// Documented limit: only ~/ secrets are masked here.
					write(t, filepath.Join(f.root, ".env"), "")
					write(t, filepath.Join(f.root, "sub", ".env.local"), "")
				}
				out, _ := run(t, m, f.policy(a), f.root, `cat .env sub/.env.local ~/.ssh/id_rsa ~/.netrc 2>&1; grep -r planted . ~ 2>&1; cat `+filepath.Join(f.outside, "notes.txt"))
				if strings.Contains(out, "planted-secret") {
					t.Fatalf("a masked secret was read: %q", out)
				}
				if !strings.Contains(out, "outside") {
					t.Fatalf("a non-secret file outside the workspace should be readable: %q", out)
				}
			})
		}
	}
}

func TestNoNetworkAndNoHostSockets(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("reached\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			sock := filepath.Join(f.outside, "agent.sock")
			ul, err := net.Listen("unix", sock)
			must(t, err)
			defer ul.Close()
			go func() {
				for {
					c, err := ul.Accept()
					if err != nil {
						return
					}
					c.Write([]byte("reached\n"))
					c.Close()
				}
			}()
			script := `exec 3<>/dev/tcp/127.0.0.1/` + itoa(port) + ` && cat <&3; ` +
				`python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('` + sock + `'); print(s.recv(9).decode())" 2>&1; ` +
				`python3 -c "import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', ` + itoa(port) + `))" 2>&1; echo done`
			out, _ := run(t, m, f.policy(WorkspaceWrite), f.root, script)
			if strings.Contains(out, "reached") {
				t.Fatalf("the sandbox reached a host socket: %q", out)
			}
			if !strings.Contains(out, "done") {
				t.Fatalf("script did not finish: %q", out)
			}
		})
	}
}

func TestDaemonsDoNotOutliveTheCommand(t *testing.T) {
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			marker := "govibe-daemon-" + itoa(os.Getpid()) + string(m)
			script := `(setsid bash -c 'exec -a ` + marker + ` sleep 600' &) ; nohup bash -c 'exec -a ` + marker + `x sleep 600' >/dev/null 2>&1 & disown; echo started`
			out, code := run(t, m, f.policy(WorkspaceWrite), f.root, script)
			if code != 0 || !strings.Contains(out, "started") {
				t.Fatalf("%d %q", code, out)
			}
			if pids := findProcs(marker); len(pids) > 0 {
				t.Fatalf("daemons outlived the command: %v", pids)
			}
		})
	}
}

func TestProcessInspectionRefused(t *testing.T) {
	for _, m := range mechanisms(t) {
		t.Run(string(m), func(t *testing.T) {
			f := newFixture(t)
			out, _ := run(t, m, f.policy(ReadOnly), f.root,
				`python3 -c "import ctypes,os; l=ctypes.CDLL(None, use_errno=True); r=l.ptrace(16, os.getppid(), 0, 0); print('ptrace', r, ctypes.get_errno())"; cat /proc/self/status | grep -E 'NoNewPrivs|Seccomp:'`)
			if !strings.Contains(out, "ptrace -1 1") {
				t.Fatalf("ptrace(PTRACE_ATTACH) was not refused with EPERM: %q", out)
			}
			if !strings.Contains(out, "NoNewPrivs:\t1") || !strings.Contains(out, "Seccomp:\t2") {
				t.Fatalf("no_new_privs or the seccomp filter is missing: %q", out)
			}
		})
	}
}

func itoa(n int) string { return formatInt(n) }
func unusedItoa(n int) string {
	return strings.TrimSpace(strings.Replace(string(rune('0'+0)), "0", "", 1) + formatInt(n))
}

func formatInt(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// findProcs returns the pids whose command line starts with marker.
func findProcs(marker string) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.HasPrefix(string(b), marker) {
			out = append(out, e.Name())
		}
	}
	return out
}

// A home folder under the host's /tmp (as in tests and CI) stays readable
// under the private /tmp, its secrets still masked.
func TestHomeUnderTmpStaysReadable(t *testing.T) {
	for _, m := range mechanisms(t) {
		if m != Bubblewrap {
			continue
		}
		f := newFixture(t)
		write(t, filepath.Join(f.home, ".gitconfig"), "[user]\n\tname = Ada\n")
		out, _ := run(t, m, f.policy(ReadOnly), f.root, "cat ~/.gitconfig; cat ~/.ssh/id_rsa")
		if !strings.Contains(out, "name = Ada") || strings.Contains(out, "planted-secret") {
			t.Fatalf("home under /tmp: %q", out)
		}
	}
}
