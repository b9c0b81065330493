package mcpclient

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/zap"
)

// Result is a tool call's outcome converted for the model and the UI.
type Result struct {
	IsError bool
	// Text is what the model reads (and the tool card shows): the
	// server's text, embedded text resources, and a note for everything
	// else (an image, audio, a binary resource).
	Text string
	// Images are the images saved for the chat (images.go).
	Images []Image
}

const maxResultText = 100000

// maxResourceText bounds one embedded text resource.
const maxResourceText = 50000

var ansiEscape = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// convert turns a tool result into text for the model and saved images
// for the chat.
func (m *Manager) convert(r *mcp.CallToolResult) Result {
	out := Result{IsError: r.IsError}
	var b strings.Builder
	for _, c := range r.Content {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch x := c.(type) {
		case *mcp.TextContent:
			b.WriteString(x.Text)
		case *mcp.ImageContent:
			img, err := saveImage(m.opts.ImageDir, x.MIMEType, x.Data)
			if err == nil {
				out.Images = append(out.Images, img)
			} else {
				m.opts.Log.Info("MCP image not shown", zap.String("mimeType", clean(x.MIMEType, 100)), zap.Int("bytes", len(x.Data)), zap.Error(err))
			}
			b.WriteString(imageNote(x.MIMEType, len(x.Data), err))
		case *mcp.AudioContent:
			fmt.Fprintf(&b, "[The tool returned audio (%s, %d bytes), which is not shown.]", clean(x.MIMEType, 100), len(x.Data))
		case *mcp.EmbeddedResource:
			b.WriteString(resourceText(x.Resource))
		case *mcp.ResourceLink:
			fmt.Fprintf(&b, "[resource link: %s %s]", clean(x.URI, 2000), clean(x.Name, 200))
		default:
			raw, _ := json.Marshal(c)
			b.Write(raw)
		}
	}
	if b.Len() == 0 && r.StructuredContent != nil {
		raw, _ := json.Marshal(r.StructuredContent)
		b.Write(raw)
	}
	out.Text = b.String()
	if len(out.Text) > maxResultText {
		out.Text = strings.ToValidUTF8(out.Text[:maxResultText], "") + fmt.Sprintf("\n[cut at %d characters]", maxResultText)
	}
	return out
}

// resourceText shows an embedded resource: a text one as its text, cleaned
// of escape sequences and control characters and unable to close its own
// wrapper early; any other as a note with its URI and MIME type.
func resourceText(rc *mcp.ResourceContents) string {
	if rc == nil {
		return "[an embedded resource without contents]"
	}
	uri, mt := clean(rc.URI, 2000), clean(rc.MIMEType, 100)
	if mt == "" {
		mt = "unknown type"
	}
	if rc.Text == "" || len(rc.Blob) > 0 {
		return fmt.Sprintf("[resource %s (%s, %d bytes): not text, not shown]", uri, mt, len(rc.Blob))
	}
	text := clean(rc.Text, 0)
	cut := ""
	if len(text) > maxResourceText {
		text, cut = strings.ToValidUTF8(text[:maxResourceText], ""), fmt.Sprintf("\n[cut at %d characters]", maxResourceText)
	}
	text = strings.ReplaceAll(text, "</resource>", "<\\/resource>")
	return fmt.Sprintf("<resource uri=%q mimeType=%q>\n%s%s\n</resource>", uri, mt, text, cut)
}

// imageDirFor is the image folder inside a storage directory.
func imageDirFor(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, ImageDirName)
}
