// Package benchclient starts the sidecar (or a reference process such as
// cat) the way the extension does, `govibe serve --stdio`, and speaks
// JSON-RPC to it over its stdin and stdout with LSP framing, for the
// benchmarks that measure the real binary from outside (rpcbench,
// membench, sessionbench). The framing is jsonrpc2's own codec, so every
// benchmark frames messages as the library does, not as each one would.
package benchclient

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// Process is a child process with its stdin and stdout piped to us and the
// tail of its stderr kept for error messages.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tailBuffer
}

// Start starts name with args in dir. extraEnv, if any, is added to this
// process's environment (nil: the child inherits it as is).
func Start(dir string, extraEnv []string, name string, args ...string) (*Process, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if extraEnv != nil {
		cmd.Env = append(os.Environ(), extraEnv...)
	}
	tail := &tailBuffer{max: 8 << 10}
	cmd.Stderr = tail
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Process{cmd: cmd, stdin: in, stdout: out, stderr: tail}, nil
}

// StartSidecar starts `bin serve --stdio` in workspace, as the extension does.
func StartSidecar(bin, workspace string, extraEnv []string) (*Process, error) {
	return Start(workspace, extraEnv, bin, "serve", "--stdio")
}

// Pid is the child's process id, for procstat.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stream frames JSON-RPC messages over the child's stdout and stdin with
// LSP headers. Closing it closes the child's stdin only. Call it once: each
// stream buffers what it reads.
func (p *Process) Stream() jsonrpc2.ObjectStream {
	return jsonrpc2.NewBufferedStream(pipes{p.stdout, p.stdin}, jsonrpc2.VSCodeObjectCodec{})
}

// Stderr is the last 8 KB the child wrote to its stderr.
func (p *Process) Stderr() string { return p.stderr.String() }

// Close ends the child: stdin is closed (the sidecar treats EOF as the
// editor going away), and a child that has not exited after grace is killed.
func (p *Process) Close(grace time.Duration) error {
	_ = p.stdin.Close()
	exited, err := p.wait(grace)
	if !exited {
		return fmt.Errorf("%s did not exit within %s of its stdin closing; killed", p.cmd.Path, grace)
	}
	return err
}

// wait waits up to grace for the child to exit, and kills it (exited
// false) when it has not.
func (p *Process) wait(grace time.Duration) (exited bool, err error) {
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return true, err
	case <-time.After(grace):
		_ = p.cmd.Process.Kill()
		<-done
		return false, nil
	}
}

// pipes joins the child's stdout and stdin into the one ReadWriteCloser
// jsonrpc2 wants; Close closes stdin, and Wait drains and closes stdout.
type pipes struct {
	io.Reader
	io.WriteCloser
}

// tailBuffer keeps the last max bytes a child wrote to stderr, for error
// messages, without growing with a chatty log.
//
// Concurrency: Write (from exec's copying goroutine) and String may run
// concurrently; mu guards buf.
type tailBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if over := t.buf.Len() - t.max; over > 0 {
		t.buf.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
