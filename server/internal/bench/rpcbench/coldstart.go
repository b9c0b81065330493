package main

import (
	"fmt"
	"os/exec"
	"time"

	"github.com/govibe/govibe/server/internal/bench/benchclient"
)

// coldStart times spawn → initialize reply with a fresh storage directory.
// The sidecar is then shut down politely, outside the timed part, and must
// exit cleanly.
func coldStart(f *fixture) (time.Duration, error) {
	storage, err := f.storageDir()
	if err != nil {
		return 0, err
	}
	params := f.initializeParams(storage)
	t0 := time.Now()
	c, err := benchclient.StartSidecarPeer(f.bin, f.workspace)
	if err != nil {
		return 0, err
	}
	m, err := c.Call("initialize", params)
	d := time.Since(t0)
	if err != nil {
		_ = c.Close(time.Second)
		return 0, fmt.Errorf("initialize: %w", err)
	}
	if m.Error != nil {
		_ = c.Close(time.Second)
		return 0, fmt.Errorf("initialize failed: %s", m.Error.Message)
	}
	return d, c.Shutdown(5 * time.Second)
}

// spawnExit times starting a process and reaping it.
func spawnExit(name string, args ...string) (time.Duration, error) {
	t0 := time.Now()
	out, err := exec.Command(name, args...).CombinedOutput()
	d := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("%s %v: %v: %s", name, args, err, out)
	}
	return d, nil
}

type coldStartResult struct {
	initialize, version, trueRef sample
}

// measureColdStart interleaves the sidecar's start with both references so
// that a noisy moment on the machine hits all three alike.
func measureColdStart(f *fixture, truePath string, runs int) (coldStartResult, error) {
	var r coldStartResult
	for i := 0; i < runs; i++ {
		d, err := spawnExit(truePath)
		if err != nil {
			return r, err
		}
		r.trueRef = append(r.trueRef, d)
		if d, err = spawnExit(f.bin, "version"); err != nil {
			return r, err
		}
		r.version = append(r.version, d)
		if d, err = coldStart(f); err != nil {
			return r, fmt.Errorf("cold start %d: %w", i+1, err)
		}
		r.initialize = append(r.initialize, d)
	}
	return r, nil
}
