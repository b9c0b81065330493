package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary act as the command, so the signal test runs
// a real process without a separate go build.
func TestMain(m *testing.M) {
	if os.Getenv("SCRIPTEDMODEL_AS_MAIN") == "1" {
		os.Args = append([]string{"scriptedmodel"}, strings.Fields(os.Getenv("SCRIPTEDMODEL_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func writeScript(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rules.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readURL(t *testing.T, r io.Reader) string {
	t.Helper()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("reading ready line: %v (%q)", err, line)
	}
	var ready struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal([]byte(line), &ready); err != nil || !strings.HasPrefix(ready.URL, "http://127.0.0.1:") {
		t.Fatalf("ready line %q: %v", line, err)
	}
	return ready.URL
}

func chat(t *testing.T, url, text string) string {
	t.Helper()
	body := `{"model":"m","messages":[{"role":"user","content":` + mustQuote(text) + `}]}`
	res, err := http.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func mustQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestRunServesScriptAndAdmin(t *testing.T) {
	script := writeScript(t, `{"rules":[{"match":"ping","reply":{"text":"pong"}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--script", script}, pw, &stderr) }()
	url := readURL(t, pr)

	if got := chat(t, url, "ping"); !strings.Contains(got, `"pong"`) {
		t.Fatalf("scripted answer: %s", got)
	}
	if got := chat(t, url, "something else"); !strings.Contains(got, "You said: something else") {
		t.Fatalf("echo default: %s", got)
	}
	admin := strings.TrimSuffix(url, "/v1")
	res, err := http.Post(admin+"/_script", "application/json", strings.NewReader(`{"rules":[{"match":"","reply":{"text":"replaced"}}]}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("POST /_script: %v %v", err, res)
	}
	res.Body.Close()
	if got := chat(t, url, "ping"); !strings.Contains(got, `"replaced"`) {
		t.Fatalf("after /_script: %s", got)
	}
	lr, err := http.Get(admin + "/_requests")
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		Seq      int `json:"seq"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(lr.Body).Decode(&recs); err != nil {
		t.Fatal(err)
	}
	lr.Body.Close()
	if len(recs) != 3 || recs[2].Messages[0].Content != "ping" {
		t.Fatalf("recorded %+v", recs)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if !strings.Contains(stderr.String(), "stopping after 3 request(s)") {
		t.Fatalf("stderr: %s", stderr.String())
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	bad := writeScript(t, `{"rules":[{"match":"x","reply":{"tool_calls":[{"name":"f","arguments":"{oops"}]}}]}`)
	cases := map[string][]string{
		"arguments are not valid JSON": {"--script", bad},
		"reading script":               {"--script", filepath.Join(t.TempDir(), "missing.json")},
		"only serves loopback":         {"--addr", "0.0.0.0:0"},
		"--provider must be":           {"--provider", "anthropic"},
		"unexpected arguments":         {"extra"},
	}
	for want, args := range cases {
		var out bytes.Buffer
		err := run(context.Background(), args, &out, io.Discard)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("run(%v) err = %v, want %q", args, err, want)
		}
		if out.Len() != 0 {
			t.Errorf("run(%v) announced a URL despite failing: %q", args, out.String())
		}
	}
}

func TestProcessStopsOnSIGTERM(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "SCRIPTEDMODEL_AS_MAIN=1", "SCRIPTEDMODEL_ARGS=--addr 127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	url := readURL(t, stdout)
	if got := chat(t, url, "hello"); !strings.Contains(got, "You said: hello") {
		t.Fatalf("answer: %s", got)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatalf("exit: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("process ignored SIGTERM")
	}
	if _, err := http.Get(url + "/models"); err == nil {
		t.Fatal("server still answering after exit")
	}
}
