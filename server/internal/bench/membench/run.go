package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/bench/benchclient"
	"github.com/govibe/govibe/server/internal/bench/procstat"
)

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
			if v, err := procstat.RSS(pid); err == nil {
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
	s, err := benchclient.StartSidecarPeer(o.bin, ws)
	if err != nil {
		return 0, err
	}
	// The polite LSP ending; how the sidecar exits is not measured.
	defer func() { _ = s.Shutdown(10 * time.Second) }()
	pid := s.Pid()
	r, err := s.Call("initialize", protocol.InitializeParams{
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
	if _, err := s.Call("session/list", protocol.SessionListParams{}); err != nil {
		return 0, err
	}
	before, err := procstat.RSS(pid)
	if err != nil {
		return 0, err
	}
	// A fresh high-water mark, so the peak is this request's (Linux ≥ 4.0).
	hwmReset := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0) == nil

	query := bytes.Repeat([]byte("needle in a large haystack "), o.mb<<20/27)
	params, _ := json.Marshal(protocol.SessionSearchParams{Query: string(query)})
	smp := sample(pid)
	start := time.Now()
	id, size, err := s.SendRaw("session/search", params)
	if err != nil {
		smp.end()
		return 0, err
	}
	params, query = nil, nil
	r, err = s.Await(id)
	took := time.Since(start)
	peak := smp.end()
	if err != nil {
		return 0, err
	}
	if hwm, err := procstat.HWM(pid); err == nil && hwmReset {
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
	after, err := procstat.RSS(pid)
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
	if r, err := s.Call("session/list", protocol.SessionListParams{}); err != nil || r.Error != nil {
		return missed, fmt.Errorf("the sidecar does not answer after the large request: %v %+v", err, r.Error)
	}
	return missed, nil
}
