package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The scripted model is built once per test binary, not `go run` per test:
// compiling on every start would dominate the suite on two cores.
var modelBuild struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func scriptedModelBinary(t *testing.T, root string) string {
	t.Helper()
	modelBuild.once.Do(func() {
		modelBuild.dir, modelBuild.err = os.MkdirTemp("", "govibe-e2e-model-")
		if modelBuild.err != nil {
			return
		}
		modelBuild.bin = filepath.Join(modelBuild.dir, "scriptedmodel")
		cmd := exec.Command("go", "build", "-o", modelBuild.bin, "./server/internal/devtools/scriptedmodel")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			modelBuild.err = fmt.Errorf("go build ./server/internal/devtools/scriptedmodel: %v\n%s", err, out)
		}
	})
	if modelBuild.err != nil {
		t.Fatal(modelBuild.err)
	}
	return modelBuild.bin
}

func stopSharedModelBuild() {
	if modelBuild.dir != "" {
		os.RemoveAll(modelBuild.dir)
	}
}

// scriptedModel is a running scripted OpenAI-compatible server owned by one test.
type scriptedModel struct {
	URL     string // the OpenAI base URL it announced, ending in /v1
	LogPath string
}

// adminURL is where /_requests and /_script live: at the server's root, not
// under the API's /v1.
func (m *scriptedModel) adminURL() string { return strings.TrimSuffix(m.URL, "/v1") }

// startScriptedModel writes rules to a file, starts the server on loopback
// with it and waits for the one JSON line announcing its URL.
func startScriptedModel(t *testing.T, root string, rules any, artifacts string) *scriptedModel {
	t.Helper()
	bin := scriptedModelBinary(t, root)
	data, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		t.Fatalf("encode model script: %v", err)
	}
	script := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(script, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m := &scriptedModel{LogPath: filepath.Join(artifacts, "scriptedmodel.log")}
	logf, err := os.Create(m.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--script", script)
	cmd.Stderr = logf
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	mark := newMark()
	if err := startGroup(cmd, mark); err != nil {
		t.Fatalf("start scripted model: %v", err)
	}
	t.Cleanup(func() {
		if escaped := stopGroup(cmd, mark, 0, 5*time.Second); len(escaped) > 0 {
			t.Errorf("scripted model left processes behind: %v", escaped)
		}
		logf.Close()
	})
	first := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		first <- line
		// Keep draining so the server never blocks on a full pipe.
		_, _ = io.Copy(logf, r)
	}()
	select {
	case line := <-first:
		var ready struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal([]byte(line), &ready); err != nil || ready.URL == "" {
			out, _ := os.ReadFile(m.LogPath)
			t.Fatalf("scripted model printed %q instead of {\"url\": ...} (%v); stderr:\n%s", line, err, out)
		}
		m.URL = ready.URL
	case <-time.After(30 * time.Second):
		t.Fatal("scripted model did not announce its URL within 30s")
	}
	return m
}

// Requests returns the raw JSON of the requests the model has recorded.
func (m *scriptedModel) Requests(t *testing.T) json.RawMessage {
	t.Helper()
	resp, err := http.Get(m.adminURL() + "/_requests")
	if err != nil {
		t.Fatalf("GET /_requests: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /_requests: %v %s %s", err, resp.Status, body)
	}
	return body
}

// SetScript replaces the model's rules.
func (m *scriptedModel) SetScript(t *testing.T, rules any) {
	t.Helper()
	data, err := json.Marshal(rules)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(m.adminURL()+"/_script", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatalf("POST /_script: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST /_script: %s %s", resp.Status, body)
	}
}
