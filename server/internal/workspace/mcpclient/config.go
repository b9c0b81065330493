package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/govibe/govibe/server/internal/util/problem"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/govibe/govibe/server/internal/workspace/safefile"
)

// Transport kinds.
const (
	KindStdio = "stdio"
	KindHTTP  = "http" // streamable HTTP
	KindSSE   = "sse"  // the legacy HTTP+SSE transport
)

// ServerConfig is one configured server.
type ServerConfig struct {
	Name         string
	Kind         string
	Command      string
	Args         []string
	Env          map[string]string
	Cwd          string
	URL          string
	Headers      map[string]string
	IncludeTools []string
	ExcludeTools []string
	Timeout      time.Duration
	Disabled     bool
	Source       string // the file it came from
	// NeedsInputs lists ${input:id} references without a value yet (VS
	// Code's prompted inputs, stored by the extension in SecretStorage).
	NeedsInputs []string
	// Inputs declare the missing ones (.vscode/mcp.json "inputs"): what
	// the editor asks the user.
	Inputs []Input
}

// Input is a .vscode/mcp.json prompted input.
type Input struct {
	ID          string `json:"id"`
	Description string `json:"description,omitempty"`
	Password    bool   `json:"password,omitempty"`
}

// DefaultTimeout bounds connecting and each call.
const DefaultTimeout = 60 * time.Second

type fileServer struct {
	Type         string            `json:"type"`
	Command      string            `json:"command"`
	Args         []string          `json:"args"`
	Env          map[string]string `json:"env"`
	Cwd          string            `json:"cwd"`
	URL          string            `json:"url"`
	HTTPURL      string            `json:"httpUrl"` // Gemini CLI's spelling
	Headers      map[string]string `json:"headers"`
	IncludeTools []string          `json:"includeTools"`
	ExcludeTools []string          `json:"excludeTools"`
	TimeoutMs    float64           `json:"timeoutMs"`
	Timeout      float64           `json:"timeout"` // Gemini: milliseconds
	Disabled     bool              `json:"disabled"`
}

type file struct {
	MCPServers map[string]fileServer `json:"mcpServers"`
	Servers    map[string]fileServer `json:"servers"` // .vscode/mcp.json
	// Inputs are VS Code's prompted values (type promptString).
	Inputs []Input `json:"inputs"`
}

// Source is one config file.
type Source struct {
	Path    string
	Project bool
}

// Sources lists config files, highest precedence first: the workspace's
// (trusted only) before the user's.
func Sources(home string, roots []string) []Source {
	var out []Source
	for _, r := range roots {
		out = append(out, Source{Path: filepath.Join(r, ".govibe", "mcp.json"), Project: true},
			Source{Path: filepath.Join(r, ".vscode", "mcp.json"), Project: true},
			Source{Path: filepath.Join(r, ".mcp.json"), Project: true})
	}
	if home != "" {
		out = append(out, Source{Path: filepath.Join(home, ".govibe", "mcp.json")})
	}
	return out
}

// Problem is a config entry that was skipped.
type Problem = problem.Problem

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,40}$`)
var varRE = regexp.MustCompile(`\$\{(env|input):([A-Za-z0-9_.-]+)\}`)

// Load reads the sources. inputs resolves ${input:id} (nil: none known).
// In an untrusted workspace, project files are skipped and listed.
func Load(sources []Source, trusted bool, inputs func(id string) (string, bool)) (cfgs []ServerConfig, problems []Problem, skipped []string) {
	seen := map[string]bool{}
	for _, s := range sources {
		data, err := safefile.ReadFile(s.Path, maxConfigFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				problems = append(problems, Problem{Path: s.Path, Message: err.Error()})
			}
			continue
		}
		if s.Project && !trusted {
			skipped = append(skipped, s.Path)
			continue
		}
		var f file
		if err := json.Unmarshal(stripJSONComments(data), &f); err != nil {
			problems = append(problems, Problem{Path: s.Path, Message: "invalid JSON: " + err.Error()})
			continue
		}
		servers := f.MCPServers
		if servers == nil {
			servers = f.Servers
		}
		names := make([]string, 0, len(servers))
		for n := range servers {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if seen[n] {
				problems = append(problems, Problem{Path: s.Path, Message: fmt.Sprintf("server %q is also defined in a file that takes precedence; this one is ignored", n)})
				continue
			}
			c, err := convert(n, servers[n], s.Path, inputs)
			if err != nil {
				problems = append(problems, Problem{Path: s.Path, Message: err.Error()})
				continue
			}
			seen[n] = true
			c.Inputs = declared(f.Inputs, c.NeedsInputs)
			cfgs = append(cfgs, c)
		}
	}
	return cfgs, problems, skipped
}

func convert(name string, fs fileServer, source string, inputs func(string) (string, bool)) (ServerConfig, error) {
	if !nameRE.MatchString(name) {
		return ServerConfig{}, fmt.Errorf("server name %q must be letters, digits, '.', '_' or '-' (at most 40)", name)
	}
	c := ServerConfig{Name: name, Command: fs.Command, Args: fs.Args, Env: fs.Env, Cwd: fs.Cwd, Headers: fs.Headers,
		IncludeTools: fs.IncludeTools, ExcludeTools: fs.ExcludeTools, Disabled: fs.Disabled, Source: source}
	c.URL = fs.URL
	if c.URL == "" {
		c.URL = fs.HTTPURL
	}
	switch strings.ToLower(fs.Type) {
	case "", "local":
		if c.Command != "" {
			c.Kind = KindStdio
		} else if c.URL != "" {
			c.Kind = KindHTTP
			if strings.HasSuffix(strings.TrimRight(c.URL, "/"), "/sse") && fs.HTTPURL == "" {
				c.Kind = KindSSE
			}
		}
	case "stdio":
		c.Kind = KindStdio
	case "http", "streamable-http", "streamablehttp":
		c.Kind = KindHTTP
	case "sse":
		c.Kind = KindSSE
	default:
		return c, fmt.Errorf("server %q: unknown type %q (use stdio, http or sse)", name, fs.Type)
	}
	switch {
	case c.Kind == KindStdio && c.Command == "":
		return c, fmt.Errorf("server %q: a stdio server needs a command", name)
	case (c.Kind == KindHTTP || c.Kind == KindSSE) && !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		return c, fmt.Errorf("server %q: url must be an http(s) URL", name)
	case c.Kind == "":
		return c, fmt.Errorf("server %q: give a command (stdio) or a url (http)", name)
	}
	ms := fs.TimeoutMs
	if ms == 0 {
		ms = fs.Timeout
	}
	c.Timeout = DefaultTimeout
	if ms > 0 {
		c.Timeout = time.Duration(ms) * time.Millisecond
	}
	// ${env:X} and ${input:id} in arguments, environment, headers and URL.
	var missing []string
	sub := func(s string) string {
		return varRE.ReplaceAllStringFunc(s, func(m string) string {
			p := varRE.FindStringSubmatch(m)
			if p[1] == "env" {
				return os.Getenv(p[2])
			}
			if inputs != nil {
				if v, ok := inputs(p[2]); ok {
					return v
				}
			}
			missing = append(missing, p[2])
			return m
		})
	}
	for i := range c.Args {
		c.Args[i] = sub(c.Args[i])
	}
	for k, v := range c.Env {
		c.Env[k] = sub(v)
	}
	for k, v := range c.Headers {
		c.Headers[k] = sub(v)
	}
	c.URL, c.Command = sub(c.URL), sub(c.Command)
	sort.Strings(missing)
	c.NeedsInputs = dedupe(missing)
	return c, nil
}

// declared returns the declarations of ids, in order; an id the file does
// not declare is still asked for, by its name.
func declared(decls []Input, ids []string) []Input {
	var out []Input
	for _, id := range ids {
		in := Input{ID: id, Password: true}
		for _, d := range decls {
			if d.ID == id {
				in = d
				break
			}
		}
		out = append(out, in)
	}
	return out
}

func dedupe(ss []string) []string {
	var out []string
	for i, s := range ss {
		if i == 0 || s != ss[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// stripJSONComments removes // and /* */ comments outside strings:
// .vscode/mcp.json is JSON with comments.
func stripJSONComments(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inStr, esc := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inStr {
			out = append(out, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		if c == '"' {
			inStr = true
			out = append(out, c)
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '/' {
			for i < len(b) && b[i] != '\n' {
				i++
			}
			out = append(out, '\n')
			continue
		}
		if c == '/' && i+1 < len(b) && b[i+1] == '*' {
			i += 2
			for i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/') {
				i++
			}
			i++
			continue
		}
		out = append(out, c)
	}
	return trailingCommas.ReplaceAll(out, []byte("$1"))
}

var trailingCommas = regexp.MustCompile(`,(\s*[}\]])`)

// allowed applies includeTools and excludeTools.
func (c ServerConfig) allowed(tool string) bool {
	if len(c.IncludeTools) > 0 {
		ok := false
		for _, t := range c.IncludeTools {
			if t == tool {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	for _, t := range c.ExcludeTools {
		if t == tool {
			return false
		}
	}
	return true
}

// maxConfigFile bounds the read of an MCP settings file: a FIFO or a device in its place is
// refused by kind, never waited on or read without end (issue 31).
const maxConfigFile = 4 << 20
