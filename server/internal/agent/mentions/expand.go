package mentions

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// Caps on what mentions attach.
const (
	MaxAttachment = 64 << 10  // characters per attachment
	MaxTotal      = 192 << 10 // characters for all attachments of a message
	maxFolderFile = 16 << 10  // a folder's file is attached whole only below this
	maxFolderRead = 20        // files read from one folder
)

// Sources reach what is not a workspace file. Any may be nil: the mention
// then says it is not available here.
type Sources struct {
	Terminal    func(ctx context.Context) (string, error)
	MCPResource func(ctx context.Context, server, uri string) (string, error)
}

// Attachment is a mention's expansion.
type Attachment struct {
	Mention
	Title     string `json:"title"`
	Content   string `json:"-"`
	Chars     int    `json:"chars"`
	Truncated bool   `json:"truncated,omitempty"`
	// Error says why nothing was attached (refused, missing, unavailable).
	Error string `json:"error,omitempty"`
}

// Expand resolves every mention of text. env is the tool environment of
// the turn: its sandbox, Read rules and editor apply.
func Expand(ctx context.Context, env *tools.Env, text string, src Sources) []Attachment {
	var out []Attachment
	left := MaxTotal
	for _, m := range Parse(text) {
		a := Attachment{Mention: m, Title: m.Raw}
		if left <= 0 {
			// Said, not dropped: the user and the model see what is missing.
			a.Error = fmt.Sprintf("not attached: this message's attachments already fill the %d-character cap; read it with the tools", MaxTotal)
			out = append(out, a)
			continue
		}
		switch m.Kind {
		case KindFile:
			a.Content, a.Error = runTool(ctx, env, tools.ReadFile(), map[string]any{"filePath": m.Target})
		case KindFolder:
			a.Content, a.Error = folder(ctx, env, m.Target)
		case KindSymbol:
			a.Content, a.Error = symbolAttachment(ctx, env, m.Target)
		case KindProblems:
			a.Content, a.Error = runTool(ctx, env, tools.GetDiagnostics(), map[string]any{})
		case KindGitChanges:
			a.Content, a.Error = gitChanges(ctx, env.Roots)
		case KindURL:
			typed := *env
			typed.Approver = typedURL{env.Approver}
			a.Content, a.Error = runTool(ctx, &typed, tools.WebFetch(), map[string]any{"url": m.Target})
		case KindTerminal:
			if src.Terminal == nil {
				a.Error = "the terminal's output is not available here (it needs VS Code's shell integration)"
			} else if s, err := src.Terminal(ctx); err != nil {
				a.Error = err.Error()
			} else if s == "" {
				a.Error = "the terminal shows no output"
			} else {
				a.Content = ScrubSecrets(s)
			}
		case KindMCP:
			server, uri, ok := strings.Cut(m.Target, ":")
			switch {
			case !ok || server == "" || uri == "":
				a.Error = "write @mcp:<server>:<resource uri>"
			case src.MCPResource == nil:
				a.Error = "no MCP servers are available"
			default:
				s, err := src.MCPResource(ctx, server, uri)
				if err != nil {
					a.Error = err.Error()
				} else {
					a.Content = s
				}
			}
		}
		if a.Error == "" {
			limit := min(MaxAttachment, left)
			if len(a.Content) > limit {
				a.Content, a.Truncated = cutUTF8(a.Content, limit)+fmt.Sprintf("\n[cut at %d characters: the message's attachments are capped; read the rest with the tools]", limit), true
			}
			left -= len(a.Content)
			a.Chars = len(a.Content)
		}
		out = append(out, a)
	}
	return out
}

// typedURL is the turn's approver for an @url mention: the fetch is
// marked as typed by the user, so the approver's deny rules apply but no
// one is asked. Without an approver (tests, tools off) the SSRF policy
// alone decides.
type typedURL struct{ tools.Approver }

func (t typedURL) ConfirmFetch(ctx context.Context, p tools.FetchProposal) (tools.FetchDecision, error) {
	p.Typed = true
	if fa, ok := t.Approver.(tools.FetchApprover); ok && t.Approver != nil {
		return fa.ConfirmFetch(ctx, p)
	}
	return tools.FetchDecision{Allowed: true, Rule: "@url"}, nil
}

func runTool(ctx context.Context, env *tools.Env, t tools.Tool, args map[string]any) (string, string) {
	raw, _ := json.Marshal(args)
	r, err := t.Run(ctx, env, raw)
	if err != nil {
		return "", err.Error()
	}
	if !r.OK {
		return "", r.Output
	}
	return r.Output, ""
}

// folder attaches the listing and the contents of the first small files.
func folder(ctx context.Context, env *tools.Env, path string) (string, string) {
	listing, errMsg := runTool(ctx, env, tools.ListFiles(), map[string]any{"path": path, "recursive": true, "maxEntries": 300})
	if errMsg != "" {
		return "", errMsg
	}
	var b strings.Builder
	b.WriteString(listing)
	read, large := 0, 0
	for _, line := range strings.Split(listing, "\n") {
		p := strings.TrimSpace(line)
		if p == "" || strings.HasSuffix(p, "/") || strings.Contains(p, " ") || read >= maxFolderRead {
			continue
		}
		p = strings.TrimSuffix(strings.ReplaceAll(path, "\\", "/"), "/") + "/" + p
		content, e := runTool(ctx, env, tools.ReadFile(), map[string]any{"filePath": p})
		if e != "" {
			continue
		}
		if len(content) > maxFolderFile {
			large++
			continue
		}
		read++
		fmt.Fprintf(&b, "\n\n<file path=%q>\n%s\n</file>", p, content)
	}
	if read >= maxFolderRead {
		fmt.Fprintf(&b, "\n\n[only the first %d small files were attached; read others with read_file]", maxFolderRead)
	}
	if large > 0 {
		fmt.Fprintf(&b, "\n\n[%d listed files are over %d characters and were not attached; read them with read_file]", large, maxFolderFile)
	}
	return b.String(), ""
}

// gitChanges is the working tree's diff against HEAD in every root that is
// a git repository (untracked files listed by name).
func gitChanges(ctx context.Context, roots []string) (string, string) {
	var b strings.Builder
	for _, r := range roots {
		diff, err := git(ctx, r, "diff", "HEAD", "--no-color", "--no-ext-diff", "--no-textconv")
		if err != nil {
			continue
		}
		untracked, _ := git(ctx, r, "ls-files", "--others", "--exclude-standard")
		if strings.TrimSpace(diff) == "" && strings.TrimSpace(untracked) == "" {
			continue
		}
		if len(roots) > 1 {
			fmt.Fprintf(&b, "# %s\n", r)
		}
		b.WriteString(diff)
		if u := strings.TrimSpace(untracked); u != "" {
			fmt.Fprintf(&b, "\nUntracked files:\n%s\n", u)
		}
	}
	if b.Len() == 0 {
		return "No changes in the working tree (or no git repository).", ""
	}
	return b.String(), ""
}

// git runs read-only git with the repository's code-running config
// neutralised: no pager, external diff, textconv or fsmonitor.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	full := append([]string{"-c", "core.fsmonitor=false", "-c", "diff.external=", "-c", "core.pager=cat", "--no-optional-locks"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Dir = dir
	cmd.Env = []string{"GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	out, err := cmd.Output()
	return string(out), err
}

func cutUTF8(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Render formats the attachments for the user message the model reads.
func Render(atts []Attachment) string {
	if len(atts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("<attachments>\n")
	for _, a := range atts {
		if a.Error != "" {
			fmt.Fprintf(&b, "<attachment mention=%q error=%q/>\n", a.Raw, a.Error)
			continue
		}
		fmt.Fprintf(&b, "<attachment mention=%q kind=%q>\n%s\n</attachment>\n", a.Raw, a.Kind, a.Content)
	}
	b.WriteString("</attachments>")
	return b.String()
}
