//go:build linux

package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rpcCall writes one framed JSON-RPC request.
func rpcCall(w io.Writer, id int, method, params string) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	_, err := fmt.Fprintf(w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

// rpcRead reads one framed message body.
func rpcRead(r *bufio.Reader) (string, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return "", fmt.Errorf("no Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return string(b), err
}

// startSidecar runs `govibe serve --stdio` with env added to the test's.
func startSidecar(t *testing.T, env ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	cmd := exec.Command(govibeBin, "serve", "--stdio")
	cmd.Env = append(os.Environ(), env...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return cmd, in, bufio.NewReader(out)
}

// TestSidecarEnvironmentHoldsNoSecrets: even when started with credentials
// in its environment (an editor that does not filter them), the sidecar's
// environment block, which any command it runs could read, has none.
func TestSidecarEnvironmentHoldsNoSecrets(t *testing.T) {
	key := randomSecret(t, "sk-side-")
	token := randomSecret(t, "tok-")
	cmd, in, out := startSidecar(t, "GOVIBE_API_KEY="+key, "GITHUB_TOKEN="+token,
		"HTTPS_PROXY=http://user:"+token+"@proxy.invalid:3128", "PLAIN_MARKER=visible", "DO_THING=dop_v1_"+token, "TZ=GoVibeMarker0")
	// The initialize answer proves the re-executed image is serving.
	params := fmt.Sprintf(`{"protocolVersion":0,"clientInfo":{"name":"t","version":"1"},"workspaceFolders":[{"name":"ws","path":%q}],"storageDir":%q,"locale":"en","settings":{"values":{},"apiKeys":{"":%q}},"capabilities":{},"trusted":true,"host":{"os":"linux","shell":"bash"}}`,
		t.TempDir(), t.TempDir(), key)
	if err := rpcCall(in, 1, "initialize", params); err != nil {
		t.Fatal(err)
	}
	if _, err := rpcRead(out); err != nil {
		t.Fatal(err)
	}
	environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(environ)
	if strings.Contains(s, key) || strings.Contains(s, token) {
		t.Fatalf("the sidecar's environment block holds a credential:\n%s", strings.ReplaceAll(s, "\x00", "\n"))
	}
	// The block is the commands' allowlist: a variable outside it, of any
	// shape (PLAIN_MARKER, a credential under a neutral name), is held.
	if strings.Contains(s, "PLAIN_MARKER") || strings.Contains(s, "DO_THING") {
		t.Fatalf("a variable outside the allowlist stayed in the block:\n%s", strings.ReplaceAll(s, "\x00", "\n"))
	}
	if !strings.Contains(s, "TZ=GoVibeMarker0") || !strings.Contains(s, "HTTPS_PROXY=http://proxy.invalid:3128") {
		t.Fatalf("allowlisted variables and the proxy (without its credentials) must stay:\n%s", strings.ReplaceAll(s, "\x00", "\n"))
	}
}
