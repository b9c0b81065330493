package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/bench/benchclient"
)

// fixture is what every sidecar in a run shares: one workspace with a few
// real files and the scripted model's URL. Each sidecar gets its own
// storage directory so every cold start really is cold.
type fixture struct {
	root      string
	workspace string
	modelURL  string
	bin       string
	n         int
}

func newFixture(root, bin, modelURL string) (*fixture, error) {
	ws := filepath.Join(root, "workspace")
	if err := os.MkdirAll(filepath.Join(ws, "pkg"), 0o755); err != nil {
		return nil, err
	}
	files := map[string]string{
		"go.mod":     "module example.com/bench\n\ngo 1.26\n",
		"main.go":    "package main\n\nimport \"example.com/bench/pkg\"\n\nfunc main() { pkg.Hello() }\n",
		"pkg/pkg.go": "package pkg\n\nimport \"fmt\"\n\n// Hello greets.\nfunc Hello() { fmt.Println(\"hello\") }\n",
		"README.md":  "# bench\n\nA small workspace for rpcbench.\n",
		".gitignore": "/bin/\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644); err != nil {
			return nil, err
		}
	}
	return &fixture{root: root, workspace: ws, modelURL: modelURL, bin: bin}, nil
}

// storageDir returns a fresh, empty storage directory.
func (f *fixture) storageDir() (string, error) {
	f.n++
	dir := filepath.Join(f.root, fmt.Sprintf("storage-%03d", f.n))
	return dir, os.MkdirAll(dir, 0o755)
}

// initializeParams mirrors what the extension sends (extension.ts), with
// the model pointed at the scripted server.
func (f *fixture) initializeParams(storage string) protocol.InitializeParams {
	return protocol.InitializeParams{
		ProtocolVersion:  protocol.Version,
		ClientInfo:       protocol.ClientInfo{Name: "rpcbench", Version: "bench"},
		WorkspaceFolders: []protocol.WorkspaceFolder{{Name: "workspace", Path: f.workspace}},
		StorageDir:       storage,
		Locale:           "en",
		Settings: protocol.Settings{
			Values:  map[string]any{"apiBaseUrl": f.modelURL, "model": "scripted-model"},
			APIKeys: map[string]string{"": "sk-rpcbench-0123456789"},
		},
		Capabilities: protocol.ClientCapabilities{ApplyEdit: true, DirtyBuffer: true, Diagnostics: true, Confirm: true},
		Trusted:      true,
		Host:         protocol.HostInfo{OS: "linux", Shell: "bash"},
	}
}

// start spawns `govibe serve --stdio` without initializing it.
func (f *fixture) start() (*benchclient.Peer, string, error) {
	storage, err := f.storageDir()
	if err != nil {
		return nil, "", err
	}
	c, err := benchclient.StartSidecarPeer(f.bin, f.workspace)
	return c, storage, err
}

// initialize sends initialize and checks the reply.
func (f *fixture) initialize(c *benchclient.Peer, storage string) error {
	m, err := c.Call("initialize", f.initializeParams(storage))
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	if m.Error != nil {
		return fmt.Errorf("initialize failed: %s", m.Error.Message)
	}
	return nil
}

// started is start plus initialize, for the benchmarks that need a ready
// sidecar.
func (f *fixture) started() (*benchclient.Peer, error) {
	c, storage, err := f.start()
	if err != nil {
		return nil, err
	}
	if err := f.initialize(c, storage); err != nil {
		_ = c.Close(0)
		return nil, err
	}
	return c, nil
}
