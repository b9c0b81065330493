package hooks

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/govibe/govibe/server/internal/gate/sandbox"
	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// A hook script written for Claude Code reads tool_input in Claude
// Code's field names (file_path, old_string/new_string, command…), and one
// written for Copilot CLI reads toolArgs in Copilot's (path, file_text,
// old_str/new_str). GoVibe's tools take other arguments (filePath,
// startLine/endLine/newContent…), so each call is shown to a hook in the
// shape its format documents, and an updatedInput the hook returns in
// that shape is mapped back. The tool names come from the one table in
// package tools (tools.ForeignToolOf).

// view is a tool call as one hook format sees it.
type view struct {
	Name  string
	Input map[string]any
}

// maxOldString bounds what an Edit's old_string reads from the file.
const maxOldString = 1 << 20

// claudeView shows a GoVibe call as Claude Code's tool_name and
// tool_input. Paths are absolute, as Claude Code documents. A tool Claude
// Code has no name for keeps its GoVibe name and arguments.
func claudeView(tool string, raw json.RawMessage, roots []string) view {
	args := decodeArgs(raw)
	v := view{Name: tools.ClaudeName(tool), Input: map[string]any{}}
	str := func(k string) string { s, _ := args[k].(string); return s }
	num := func(k string) int { f, _ := args[k].(float64); return int(f) }
	switch {
	case tool == "run_shell_command":
		v.Input["command"] = str("command")
		if t := num("timeoutMs"); t > 0 {
			v.Input["timeout"] = t
		}
	case tool == "read_file":
		v.Input["file_path"] = absPath(str("filePath"), roots)
		start, end := num("startLine"), num("endLine")
		if start > 0 {
			v.Input["offset"] = start
		}
		if end > 0 {
			v.Input["limit"] = end - max(start, 1) + 1
		}
	case tool == "write_file":
		v.Input["file_path"] = absPath(str("filePath"), roots)
		v.Input["content"] = str("content")
	case tool == "edit":
		p := absPath(str("filePath"), roots)
		v.Input["file_path"] = p
		v.Input["old_string"] = linesOf(p, num("startLine"), num("endLine"))
		v.Input["new_string"] = str("newContent")
		v.Input["replace_all"] = false
	case tool == "glob":
		v.Input["pattern"] = str("pattern")
	case tool == "grep_search":
		v.Input["pattern"] = str("pattern")
		if p := str("path"); p != "" {
			v.Input["path"] = absPath(p, roots)
		}
		if g := str("includePattern"); g != "" {
			v.Input["glob"] = g
		}
		if cs, _ := args["caseSensitive"].(bool); !cs {
			v.Input["-i"] = true
		}
		v.Input["output_mode"] = "content"
	case tool == "list_files":
		v.Input["path"] = absPath(str("path"), roots)
	case tool == "web_fetch":
		v.Input["url"] = str("url")
		v.Input["prompt"] = ""
	case tools.IsSubAgentTool(tool):
		obj := str("objective")
		v.Input["prompt"] = obj
		v.Input["description"] = firstWords(obj, 60)
		v.Input["subagent_type"] = strings.TrimPrefix(tool, "agent_")
	default:
		v.Input = args
	}
	return v
}

// copilotView shows a GoVibe call as Copilot CLI's toolName and toolArgs.
func copilotView(tool string, raw json.RawMessage, roots []string) view {
	args := decodeArgs(raw)
	v := view{Name: tools.CopilotName(tool), Input: map[string]any{}}
	str := func(k string) string { s, _ := args[k].(string); return s }
	num := func(k string) int { f, _ := args[k].(float64); return int(f) }
	switch tool {
	case "run_shell_command":
		v.Input["command"] = str("command")
	case "read_file":
		v.Input["path"] = absPath(str("filePath"), roots)
	case "write_file":
		v.Input["path"] = absPath(str("filePath"), roots)
		v.Input["file_text"] = str("content")
	case "edit":
		p := absPath(str("filePath"), roots)
		v.Input["path"] = p
		v.Input["old_str"] = linesOf(p, num("startLine"), num("endLine"))
		v.Input["new_str"] = str("newContent")
	case "glob", "grep_search":
		v.Input["pattern"] = str("pattern")
		if p := str("path"); p != "" {
			v.Input["path"] = absPath(p, roots)
		}
	case "web_fetch":
		v.Input["url"] = str("url")
	default:
		v.Input = args
	}
	return v
}

// fromView maps a hook's updatedInput (in the view's field names, or in
// GoVibe's own) back onto the call's GoVibe arguments. Fields the view
// does not carry keep their values; a change GoVibe's tool cannot take
// (another old_string for its line-based edit) is an error that names it.
func fromView(tool string, raw json.RawMessage, updated map[string]any, shown view) (json.RawMessage, error) {
	args := decodeArgs(raw)
	// field pairs: the view's name → GoVibe's.
	var pairs map[string]string
	switch tool {
	case "run_shell_command":
		pairs = map[string]string{"command": "command", "timeout": "timeoutMs"}
	case "read_file":
		pairs = map[string]string{"file_path": "filePath", "path": "filePath"}
	case "write_file":
		pairs = map[string]string{"file_path": "filePath", "path": "filePath", "content": "content", "file_text": "content"}
	case "edit":
		for _, k := range []string{"old_string", "old_str"} {
			if v, ok := updated[k]; ok && !reflect.DeepEqual(v, shown.Input[k]) {
				return nil, fmt.Errorf("updatedInput changes %s; GoVibe's edit replaces whole lines and cannot take it (change new_string instead)", k)
			}
		}
		pairs = map[string]string{"file_path": "filePath", "path": "filePath", "new_string": "newContent", "new_str": "newContent"}
	case "glob":
		pairs = map[string]string{"pattern": "pattern"}
	case "grep_search":
		pairs = map[string]string{"pattern": "pattern", "path": "path", "glob": "includePattern"}
	case "list_files":
		pairs = map[string]string{"path": "path"}
	case "web_fetch":
		pairs = map[string]string{"url": "url"}
	default:
		if tools.IsSubAgentTool(tool) {
			pairs = map[string]string{"prompt": "objective"}
		}
	}
	for k, v := range updated {
		switch {
		case pairs[k] != "":
			if !reflect.DeepEqual(v, shown.Input[k]) {
				args[pairs[k]] = v
			}
		case shown.Input[k] != nil:
			// A field of the view with no GoVibe counterpart (replace_all,
			// output_mode): nothing to change.
		default:
			// GoVibe's own field names are taken as they are.
			args[k] = v
		}
	}
	return json.Marshal(args)
}

func decodeArgs(raw json.RawMessage) map[string]any {
	args := map[string]any{}
	_ = json.Unmarshal(raw, &args)
	if args == nil {
		args = map[string]any{}
	}
	return args
}

// absPath is a tool's path as the absolute path hooks are documented to
// receive: resolved in the workspace as the tool resolves it, or joined
// to the first root when the sandbox refuses it (the tool will refuse it
// too, after the hooks).
func absPath(p string, roots []string) string {
	if p == "" && len(roots) > 0 {
		return roots[0]
	}
	if abs, err := sandbox.New(roots).Resolve(p); err == nil {
		return abs
	}
	if filepath.IsAbs(p) || len(roots) == 0 {
		return p
	}
	return filepath.Join(roots[0], p)
}

// linesOf is lines start..end (1-based, inclusive) of a file, joined by
// newlines: what GoVibe's edit replaces, as Claude's old_string. An
// insertion (end < start) and an unreadable file give "".
func linesOf(path string, start, end int) string {
	if start < 1 || end < start {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxOldString)
	var b strings.Builder
	for n := 1; sc.Scan() && n <= end; n++ {
		if n < start {
			continue
		}
		if n > start {
			b.WriteByte('\n')
		}
		b.Write(sc.Bytes())
		if b.Len() > maxOldString {
			break
		}
	}
	return b.String()
}

func firstWords(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i]
	}
	return s[:n]
}
