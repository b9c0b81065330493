package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolPrefix starts the name of every MCP tool the model sees.
const ToolPrefix = "mcp__"

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// ToolName is the model-visible name of a server's tool: providers accept
// [A-Za-z0-9_-]{1,64}.
func ToolName(server, tool string) string {
	n := ToolPrefix + unsafeName.ReplaceAllString(server, "_") + "__" + unsafeName.ReplaceAllString(tool, "_")
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// Tool is one MCP tool as offered to the model.
type Tool struct {
	Name        string // mcp__server__tool
	Server      string
	Remote      string // the tool's own name on the server
	Description string
	Schema      json.RawMessage
	ReadOnly    bool // the server's readOnlyHint; it still needs confirmation
	// OpenWorld is the server's openWorldHint (true when it says
	// nothing, as MCP defines it): the tool reaches beyond the server.
	OpenWorld bool
}

func schemaChars(t *mcp.Tool) int {
	b, _ := json.Marshal(t.InputSchema)
	return len(b) + len(t.Description) + len(t.Name)
}

// Tools connects the servers that are not connected yet (in parallel) and
// lists every allowed tool, sorted by name so the tool list, and with it
// the request prefix, is stable.
func (m *Manager) Tools(ctx context.Context) []Tool {
	m.Start(ctx)
	var out []Tool
	for _, n := range m.order {
		s := m.servers[n]
		s.mu.Lock()
		if s.state == StateConnected {
			for _, t := range s.tools {
				if !s.cfg.allowed(t.Name) {
					continue
				}
				schema, _ := json.Marshal(t.InputSchema)
				if len(schema) == 0 || string(schema) == "null" {
					schema = []byte(`{"type":"object","properties":{}}`)
				}
				desc := t.Description
				if desc == "" {
					desc = t.Title
				}
				ro := t.Annotations != nil && t.Annotations.ReadOnlyHint
				open := t.Annotations == nil || t.Annotations.OpenWorldHint == nil || *t.Annotations.OpenWorldHint
				out = append(out, Tool{Name: ToolName(n, t.Name), Server: n, Remote: t.Name,
					Description: fmt.Sprintf("[MCP server %s] %s", n, desc), Schema: schema, ReadOnly: ro, OpenWorld: open})
			}
		}
		s.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Call runs a tool on its server. A crashed server is reconnected (with
// backoff) on the next call; a panic inside the SDK is turned into an
// error, so an MCP server can never take the sidecar down.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (res Result, err error) {
	s, ok := m.servers[server]
	if !ok {
		return Result{}, fmt.Errorf("no MCP server named %q", server)
	}
	if !s.cfg.allowed(tool) {
		return Result{}, fmt.Errorf("the tool %s is excluded for the MCP server %s", tool, server)
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the MCP server %s failed: %v", server, r)
		}
	}()
	sess, err := m.ensure(ctx, s)
	if err != nil {
		return Result{}, err
	}
	var a map[string]any
	if len(args) > 0 && string(args) != "null" {
		if err := json.Unmarshal(args, &a); err != nil {
			return Result{}, fmt.Errorf("the arguments are not a JSON object: %v", err)
		}
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	r, err := sess.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: a})
	if err != nil {
		if cctx.Err() != nil && ctx.Err() == nil {
			return Result{}, fmt.Errorf("the MCP server %s did not answer within %s", server, s.cfg.Timeout)
		}
		return Result{}, fmt.Errorf("the MCP server %s: %v", server, err)
	}
	return m.convert(r), nil
}

// Prompt is an MCP prompt offered as /mcp:<server>:<prompt>.
type Prompt struct {
	Command     string // mcp:server:prompt
	Server      string
	Name        string
	Description string
	Arguments   []string // names, required ones marked with '*'
}

// Prompts lists the connected servers' prompts.
func (m *Manager) Prompts() []Prompt {
	var out []Prompt
	for _, n := range m.order {
		s := m.servers[n]
		s.mu.Lock()
		for _, p := range s.prompts {
			pr := Prompt{Command: "mcp:" + n + ":" + p.Name, Server: n, Name: p.Name, Description: p.Description}
			for _, a := range p.Arguments {
				name := a.Name
				if a.Required {
					name += "*"
				}
				pr.Arguments = append(pr.Arguments, name)
			}
			out = append(out, pr)
		}
		s.mu.Unlock()
	}
	return out
}

// GetPrompt expands a prompt with arguments (name=value pairs, or values in
// the order the prompt declares them) into the text of its messages.
func (m *Manager) GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error) {
	s, ok := m.servers[server]
	if !ok {
		return "", fmt.Errorf("no MCP server named %q", server)
	}
	sess, err := m.ensure(ctx, s)
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	r, err := sess.GetPrompt(cctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s: %v", server, err)
	}
	var b strings.Builder
	for _, msg := range r.Messages {
		t := promptContent(msg.Content)
		if t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
		if b.Len() > maxResultText {
			break
		}
	}
	out := b.String()
	if len(out) > maxResultText {
		out = strings.ToValidUTF8(out[:maxResultText], "") + fmt.Sprintf("\n[cut at %d characters]", maxResultText)
	}
	return out, nil
}

// promptContent is one prompt message as the model reads it: its text; an
// embedded resource (a file the prompt attaches) as a tool result shows
// it, in a <resource> wrapper; a resource link or an image as a note.
func promptContent(c mcp.Content) string {
	switch x := c.(type) {
	case *mcp.TextContent:
		return x.Text
	case *mcp.EmbeddedResource:
		return resourceText(x.Resource)
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource link: %s %s]", clean(x.URI, 2000), clean(x.Name, 200))
	case *mcp.ImageContent:
		return fmt.Sprintf("[The prompt includes an image (%s, %d bytes), which is not shown.]", clean(x.MIMEType, 100), len(x.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[The prompt includes audio (%s, %d bytes), which is not shown.]", clean(x.MIMEType, 100), len(x.Data))
	}
	return ""
}

// ReadResource reads a resource for an @mcp:<server>:<uri> mention.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) (string, error) {
	s, ok := m.servers[server]
	if !ok {
		return "", fmt.Errorf("no MCP server named %q", server)
	}
	sess, err := m.ensure(ctx, s)
	if err != nil {
		return "", err
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	r, err := sess.ReadResource(cctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", fmt.Errorf("the MCP server %s: %v", server, err)
	}
	var b strings.Builder
	for _, c := range r.Contents {
		if c.Text != "" {
			b.WriteString(c.Text)
		} else {
			fmt.Fprintf(&b, "[%s: %d bytes of binary data]", c.MIMEType, len(c.Blob))
		}
	}
	return b.String(), nil
}
