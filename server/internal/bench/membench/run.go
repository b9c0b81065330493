package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/govibe/govibe/protocol"
)

// sidecar is a `govibe serve --stdio` spoken to with LSP framing.
type sidecar struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	nextID int
}

func start(bin, dir string) (*sidecar, error) {
	cmd := exec.Command(bin, "serve", "--stdio")
	cmd.Dir = dir
	cmd.Stderr = io.Discard
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
	return &sidecar{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// send writes one request whose body is already encoded.
func (s *sidecar) send(method string, params []byte) (int, int, error) {
	s.nextID++
	var b bytes.Buffer
	b.Grow(len(params) + 100)
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":`, s.nextID, method)
	b.Write(params)
	b.WriteByte('}')
	if _, err := fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n", b.Len()); err != nil {
		return 0, 0, err
	}
	_, err := s.in.Write(b.Bytes())
	return s.nextID, b.Len(), err
}

type reply struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// await reads frames until the reply to id (notifications are skipped).
func (s *sidecar) await(id int) (reply, error) {
	for {
		n := -1
		for {
			line, err := s.out.ReadString('\n')
			if err != nil {
				return reply{}, err
			}
			line = strings.TrimSpace(line)
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
			if line == "" && n >= 0 {
				break
			}
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(s.out, body); err != nil {
			return reply{}, err
		}
		var r reply
		if err := json.Unmarshal(body, &r); err != nil {
			return reply{}, err
		}
		if r.ID != nil && *r.ID == id && r.Method == "" {
			return r, nil
		}
	}
}

func (s *sidecar) call(method string, params any) (reply, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return reply{}, err
	}
	id, _, err := s.send(method, p)
	if err != nil {
		return reply{}, err
	}
	return s.await(id)
}

func (s *sidecar) close() {
	if r, err := s.call("shutdown", nil); err == nil && r.Error == nil {
		fmt.Fprintf(s.in, "Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}")
	}
	s.in.Close()
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}

// status reads one "Vm…:" field of /proc/PID/status in bytes.
func status(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}

// sampler records the highest VmRSS seen until stopped: the peak where
// the kernel's VmHWM cannot be reset.
type sampler struct {
	mu   sync.Mutex
	peak int64
	stop chan struct{}
	done chan struct{}
}

func sample(pid int) *sampler {
	s := &sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if v, err := status(pid, "VmRSS"); err == nil {
				s.mu.Lock()
				s.peak = max(s.peak, v)
				s.mu.Unlock()
			}
			select {
			case <-s.stop:
				return
			case <-t.C:
			}
		}
	}()
	return s
}

func (s *sampler) end() int64 {
	close(s.stop)
	<-s.done
	return s.peak
}

func run(o options) (missed int, err error) {
	tmp, err := os.MkdirTemp("", "membench-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	ws, storage := filepath.Join(tmp, "workspace"), filepath.Join(tmp, "storage")
	for _, d := range []string{ws, storage} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return 0, err
		}
	}
	s, err := start(o.bin, ws)
	if err != nil {
		return 0, err
	}
	defer s.close()
	pid := s.cmd.Process.Pid
	r, err := s.call("initialize", protocol.InitializeParams{
		ProtocolVersion: protocol.Version, ClientInfo: protocol.ClientInfo{Name: "membench", Version: "bench"},
		WorkspaceFolders: []protocol.WorkspaceFolder{{Name: "workspace", Path: ws}}, StorageDir: storage, Locale: "en", Trusted: true,
	})
	if err == nil && r.Error != nil {
		err = fmt.Errorf("initialize: %s", r.Error.Message)
	}
	if err != nil {
		return 0, err
	}
	// The store opens in the background; a first read waits for it.
	if _, err := s.call("session/list", protocol.SessionListParams{}); err != nil {
		return 0, err
	}
	before, err := status(pid, "VmRSS")
	if err != nil {
		return 0, err
	}
	// A fresh high-water mark, so the peak is this request's (Linux ≥ 4.0).
	hwmReset := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0) == nil

	query := bytes.Repeat([]byte("needle in a large haystack "), o.mb<<20/27)
	params, _ := json.Marshal(protocol.SessionSearchParams{Query: string(query)})
	smp := sample(pid)
	start := time.Now()
	id, size, err := s.send("session/search", params)
	if err != nil {
		smp.end()
		return 0, err
	}
	params, query = nil, nil
	r, err = s.await(id)
	took := time.Since(start)
	peak := smp.end()
	if err != nil {
		return 0, err
	}
	if hwm, err := status(pid, "VmHWM"); err == nil && hwmReset {
		peak = max(peak, hwm)
	}
	answer := "answered"
	if r.Error != nil {
		answer = fmt.Sprintf("refused (%d)", r.Error.Code)
	}
	ratio := float64(peak) / float64(size)
	ok := ratio <= o.goal
	if !ok {
		missed++
	}
	fmt.Printf("%-26s peak=%s body=%s ratio=%.2fx rss_before=%s growth=%.2fx(body) took=%s %s goal<=%.1fx %s\n",
		"mem.large_request_peak", mb(peak), mb(int64(size)), ratio, mb(before), float64(peak-before)/float64(size),
		took.Round(time.Millisecond), answer, o.goal, verdict(ok))

	// The sidecar is idle now; what it holds after -after is what it
	// kept of the message.
	time.Sleep(o.after)
	after, err := status(pid, "VmRSS")
	if err != nil {
		return missed, err
	}
	kept := after - before
	okAfter := kept <= int64(size)/4
	if !okAfter {
		missed++
	}
	fmt.Printf("%-26s rss=%s rss_before=%s kept=%s (%.2fx body) after=%s goal: kept<=0.25x body %s\n",
		"mem.large_request_after", mb(after), mb(before), mb(kept), float64(kept)/float64(size), o.after, verdict(okAfter))
	if r, err := s.call("session/list", protocol.SessionListParams{}); err != nil || r.Error != nil {
		return missed, fmt.Errorf("the sidecar does not answer after the large request: %v %+v", err, r.Error)
	}
	return missed, nil
}
