package mcpclient

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsServer is a real MCP server (the test binary, over stdio) that
// asks the client for its roots and counts the client's
// notifications/roots/list_changed, and has a prompt that embeds a
// resource, as the MCP spec's prompts/get allows. On protocol 2026-07-28
// a server asks for roots with an input request in its result (SEP-2322,
// which the SDK's client fulfils with roots/list's answer and retries);
// the SDK's server turns that into a roots/list request for older
// clients.
func rootsServer() *mcp.Server {
	var mu sync.Mutex
	changes := 0
	changed := make(chan struct{}, 16)
	s := mcp.NewServer(&mcp.Implementation{Name: "rootsrv", Version: "1"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
			mu.Lock()
			changes++
			mu.Unlock()
			changed <- struct{}{}
		},
	})
	type rootsIn struct {
		Changes int `json:"changes" jsonschema:"wait for this many roots/list_changed notifications first"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "roots", Description: "Lists the client's roots"},
		func(ctx context.Context, req *mcp.CallToolRequest, in rootsIn) (*mcp.CallToolResult, any, error) {
			wait, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			for {
				mu.Lock()
				n := changes
				mu.Unlock()
				if n >= in.Changes {
					break
				}
				select {
				case <-changed:
				case <-wait.Done():
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no roots/list_changed came"}}}, nil, nil
				}
			}
			r, ok := req.Params.InputResponses["roots"].(*mcp.ListRootsResult)
			if !ok {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}}, nil, nil
			}
			var uris []string
			for _, x := range r.Roots {
				uris = append(uris, x.URI+" "+x.Name)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(uris, "\n")}}}, nil, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "brief", Description: "Brief with the style guide attached"},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Follow the attached style guide."}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///docs/style.md", MIMEType: "text/markdown", Text: "Tabs, not spaces.\x1b[31m"}}},
				{Role: "user", Content: &mcp.ResourceLink{URI: "file:///docs/more.md", Name: "more"}},
			}}, nil
		})
	return s
}

func rootsConfig(t *testing.T) ServerConfig {
	c := stdioConfig(t, "rs")
	c.Env = map[string]string{"GOVIBE_MCP_TEST_SERVER": "roots"}
	c.ExcludeTools = nil
	return c
}

// The workspace folders are the client's roots; changing them notifies
// connected servers (roots/list_changed), which then list the new ones.
func TestRootsAreTheWorkspaceFolders(t *testing.T) {
	a, b, c := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "with space")
	m := New([]ServerConfig{rootsConfig(t)}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}, Roots: []string{a, b}})
	defer m.Close()
	ctx := context.Background()
	r, err := m.Call(ctx, "rs", "roots", json.RawMessage(`{"changes":0}`))
	if err != nil || r.IsError {
		t.Fatalf("roots: %+v %v", r, err)
	}
	want := rootURI(a) + " " + filepath.Base(a) + "\n" + rootURI(b) + " " + filepath.Base(b)
	if r.Text != want {
		t.Fatalf("roots:\n%s\nwant:\n%s", r.Text, want)
	}
	m.SetRoots([]string{b, c})
	r, err = m.Call(ctx, "rs", "roots", json.RawMessage(`{"changes":1}`))
	if err != nil || r.IsError {
		t.Fatalf("roots after the change: %+v %v", r, err)
	}
	if !strings.Contains(r.Text, rootURI(b)) || !strings.Contains(r.Text, "with%20space with space") || strings.Contains(r.Text, rootURI(a)) {
		t.Fatalf("roots after the change:\n%s", r.Text)
	}
}

// A prompt's embedded resource reaches the model's text, cleaned and
// wrapped as a tool result's is; a resource link is a note.
func TestPromptEmbeddedResourcesReachTheText(t *testing.T) {
	m := New([]ServerConfig{rootsConfig(t)}, Options{Env: []string{"PATH=" + os.Getenv("PATH")}})
	defer m.Close()
	text, err := m.GetPrompt(context.Background(), "rs", "brief", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "Follow the attached style guide.\n\n<resource uri=\"file:///docs/style.md\" mimeType=\"text/markdown\">\nTabs, not spaces.\n</resource>\n\n[resource link: file:///docs/more.md more]"
	if text != want {
		t.Fatalf("prompt text:\n%q\nwant\n%q", text, want)
	}
}
