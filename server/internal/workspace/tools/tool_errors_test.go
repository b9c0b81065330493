package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/workspace/mcpclient"
)

// TestEveryToolErrorIsShownInTheUsersLanguage: every tool the model is
// offered (the built-in registry plus the MCP search pair and an MCP
// tool) is called with inputs built from its schema to fail — not a JSON
// object, required arguments missing, each argument of the wrong type,
// empty, a path that does not exist, a folder, a binary or oversized file,
// a path outside the workspace, a pattern that does not compile, lines
// out of range — under zh-CN. Every failure must carry a Han-script
// Display for the person and leave the model's text English. A tool no
// input makes fail is a gap in the inputs, and fails too.
func TestEveryToolErrorIsShownInTheUsersLanguage(t *testing.T) {
	env, root := newEnv(t)
	env.Translator = func(f string, a ...any) string { return i18n.T(i18n.Chinese, f, a...) }
	env.Settings.ConfirmChanges, env.Settings.ConfirmShell = true, true // no approver: refused, nothing runs
	env.Settings.MaxFileSizeBytes = 1 << 10
	write(t, filepath.Join(root, "a.txt"), "one\ntwo\n")
	write(t, filepath.Join(root, "bin.dat"), "\x00\x01\x02binary\x00")
	write(t, filepath.Join(root, "big.txt"), strings.Repeat("x\n", 1<<10))
	write(t, filepath.Join(root, "sub", "k.txt"), "k\n")
	for _, f := range []string{"a.txt", "bin.dat"} {
		b, _ := os.ReadFile(filepath.Join(root, f))
		env.Files.RecordRead(filepath.Join(root, f), b) // so edits reach the range and content checks
	}
	mcp := mcpclient.Tool{Name: "mcp__s__echo", Server: "s", Remote: "echo", Description: "echo",
		Schema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
	ts := append(Builtin(), MCPSearch([]mcpclient.Tool{mcp}, failingMCP{}, nil)...)
	ts = append(ts, MCPTool(mcp, failingMCP{}))
	reg := NewRegistry(ts...)

	for _, name := range reg.Names() {
		tool, _ := reg.Get(name)
		failures := 0
		for _, in := range badInputs(t, tool.Schema()) {
			res, err := tool.Run(context.Background(), env, json.RawMessage(in))
			if err != nil {
				t.Errorf("%s(%s): Go error %v (a bad input must be a result)", name, in, err)
				continue
			}
			if res.OK {
				continue
			}
			failures++
			if !hasHan(res.Display) {
				t.Errorf("%s(%s): the person reads %q (model text %q)", name, in, res.Display, res.Output)
			}
			if hasHan(res.Output) || res.Output == "" {
				t.Errorf("%s(%s): the model reads %q", name, in, res.Output)
			}
		}
		if failures == 0 {
			t.Errorf("%s: no bad input made it fail; the inputs miss it", name)
		}
	}
}

type failingMCP struct{}

func (failingMCP) Call(context.Context, string, string, json.RawMessage) (mcpclient.Result, error) {
	return mcpclient.Result{}, errors.New("server gone")
}

// badInputs derives failing calls from a schema: each argument replaced,
// in an otherwise plausible call, by values meant to fail.
func badInputs(t *testing.T, schema json.RawMessage) []string {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	plausible := map[string]any{"string": "a.txt", "integer": 1, "number": 1, "boolean": false, "array": []any{"a.txt"}, "object": map[string]any{}}
	bad := map[string][]any{
		"string":  {"", "  ", "missing.txt", "sub", "bin.dat", "big.txt", "../outside.txt", "[", "(", "bogus-severity", strings.Repeat("long ", 200), 42},
		"integer": {-1, 0, 99, 1 << 30, "x"},
		"number":  {-1, "x"},
		"boolean": {"x"},
		"array":   {"x", []any{strings.Repeat("long ", 40)}, []any{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}},
		"object":  {"x", []any{1}},
	}
	base := map[string]any{}
	for _, r := range s.Required {
		base[r] = plausible[s.Properties[r].Type]
	}
	out := []string{`[1]`, `{}`, mustJSON(base)}
	for _, r := range s.Required {
		out = append(out, mustJSON(with(base, r, nil)))
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, v := range bad[s.Properties[n].Type] {
			out = append(out, mustJSON(with(base, n, v)))
		}
	}
	return out
}

// with is base with key set to v (nil removes it).
func with(base map[string]any, key string, v any) map[string]any {
	m := make(map[string]any, len(base)+1)
	for k, x := range base {
		m[k] = x
	}
	if v == nil {
		delete(m, key)
	} else {
		m[key] = v
	}
	return m
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return string(b)
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestWebFetchErrorsAreShownInTheUsersLanguage: with web access on, a
// URL that is not one, a host the policy refuses, a host that does not
// answer and a binary page each fail with a Chinese line for the person.
func TestWebFetchErrorsAreShownInTheUsersLanguage(t *testing.T) {
	env, base := webEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte("\x00\x01\x02"))
	})
	env.Translator = func(f string, a ...any) string { return i18n.T(i18n.Chinese, f, a...) }
	for _, args := range []map[string]any{
		{"url": "missing.txt"}, {"url": "http://127.0.0.1:1/"}, {"url": "http://docs.test:1/"}, {"url": base + "/bin"},
		{"url": base, "offset": -1},
	} {
		r := call(t, WebFetch(), env, args)
		if r.OK || !hasHan(r.Display) || hasHan(r.Output) {
			t.Errorf("%v: ok=%v display %q output %q", args, r.OK, r.Display, r.Output)
		}
	}
}
