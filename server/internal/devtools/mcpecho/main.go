// Command mcpecho is a tiny stdio MCP server for tests and manual runs:
// tools echo (text back), add (two numbers), fail (an error result) and
// picture (a 640×240 PNG and a line of text), and a prompt, greet. It is what the integration tests and the e2e MCP
// confirmation test start as a real MCP server process.
//
// With MCPECHO_REQUIRE_TOKEN set, the server refuses to start unless its
// environment holds MCPECHO_TOKEN with that value: the e2e test of
// .vscode/mcp.json inputs checks a prompted secret reaches the server.
//
// With MCPECHO_STARTS set to a file, each start appends its process id
// there, so a test can tell a restart (a new process) from a reconnect.
// MCPECHO_EXTRA_TOOLS=n adds n tools with long descriptions (extra_1 …),
// enough to put the definitions over GoVibe's schema budget.
package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Text string `json:"text" jsonschema:"what to echo"`
}

type addIn struct {
	A float64 `json:"a" jsonschema:"first addend"`
	B float64 `json:"b" jsonschema:"second addend"`
}

func main() {
	if want := os.Getenv("MCPECHO_REQUIRE_TOKEN"); want != "" && os.Getenv("MCPECHO_TOKEN") != want {
		fmt.Fprintln(os.Stderr, "mcpecho: MCPECHO_TOKEN is missing or wrong")
		os.Exit(4)
	}
	if f := os.Getenv("MCPECHO_STARTS"); f != "" {
		w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpecho:", err)
			os.Exit(5)
		}
		fmt.Fprintln(w, os.Getpid())
		w.Close()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mcpecho", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text back"},
		func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Add two numbers"},
		func(ctx context.Context, req *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it failed on purpose"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "picture", Description: "Draws a picture"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a picture of stripes"},
				&mcp.ImageContent{MIMEType: "image/png", Data: stripes(640, 240)}}}, nil, nil
		})
	n, _ := strconv.Atoi(os.Getenv("MCPECHO_EXTRA_TOOLS"))
	for i := 1; i <= n; i++ {
		desc := fmt.Sprintf("Extra tool number %d. ", i) + strings.Repeat("It does nothing useful and says so at length. ", 30)
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("extra_%d", i), Description: desc},
			func(ctx context.Context, req *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "extra: " + in.Text}}}, nil, nil
			})
	}
	s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greet someone", Arguments: []*mcp.PromptArgument{{Name: "name", Required: true}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hello to " + req.Params.Arguments["name"]}}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "mcpecho:", err)
		os.Exit(1)
	}
}

// stripes is a w×h PNG of diagonal stripes: wider than a sidebar, so the
// chat has to scale it down.
func stripes(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		for y := 0; y < h; y++ {
			c := color.RGBA{R: 30, G: 110, B: 200, A: 255}
			if (x+y)/40%2 == 0 {
				c = color.RGBA{R: 250, G: 180, B: 40, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}
