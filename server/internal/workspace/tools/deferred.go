package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Deferred tools (trait Deferred) are the ones a model rarely needs in a
// turn. Their schemas stay out of the request: one entry, more_tools,
// lists each by name, required arguments and a line; called with a tool's
// name it returns that tool's description and input schema, and called
// with the name and arguments it runs the tool. The request's tool list
// is the same whichever tools are looked up or run, so the prefix the
// provider caches never changes (the MCP pair, mcp_search_tools and
// mcp_call_tool, defers MCP tools the same way).
//
// A call through the entry is the tool's own call everywhere but in the
// model's track: the agent loop resolves it (ResolveDeferred) before the
// tool policy, approvals, hooks and the chat's card see it, so each of
// them sees the real name and arguments. A model that calls a deferred
// tool by its own name is served too.

// DeferredEntryName is the entry that lists, explains and runs the
// deferred tools.
const DeferredEntryName = "more_tools"

// deferredLineMax bounds one tool's line in the entry's description.
const deferredLineMax = 72

// Offer is what a request shows of ts, the tools a run offers: those not
// in deferred as they are, in order, and the one entry standing for those
// in deferred (none when no tool is) in the place of the last of them, so
// that the tools after it (MCP tools, which follow the built-ins) stay
// after it.
func Offer(ts []Tool, deferred map[string]bool) []Tool {
	if len(deferred) == 0 {
		return ts
	}
	last := -1
	var behind []Tool
	for i, t := range ts {
		if deferred[t.Name()] {
			behind = append(behind, t)
			last = i
		}
	}
	if last < 0 {
		return ts
	}
	out := make([]Tool, 0, len(ts)-len(behind)+1)
	for i, t := range ts {
		switch {
		case i == last:
			out = append(out, DeferredEntry(behind))
		case !deferred[t.Name()]:
			out = append(out, t)
		}
	}
	return out
}

// DeferredEntry is the entry standing for ts. Its description depends
// only on ts's names, descriptions and schemas, in order, so it is
// byte-identical for the same tools.
func DeferredEntry(ts []Tool) Tool {
	e := &deferredEntry{byName: make(map[string]Tool, len(ts))}
	var b strings.Builder
	b.WriteString(`More tools. {"tool": NAME} gives one's description and schema; {"tool": NAME, "arguments": {...}} runs it.` + "\n")
	for _, t := range ts {
		e.byName[t.Name()] = t
		e.names = append(e.names, t.Name())
		fmt.Fprintf(&b, "- %s(%s): %s\n", t.Name(), strings.Join(requiredArgs(t.Schema()), ", "), oneLine(t.Description()))
	}
	e.desc = strings.TrimRight(b.String(), "\n")
	return e
}

// ResolveDeferred reads a call of the entry that runs a tool: the tool's
// name and its arguments (a JSON object). ok is false for any other call,
// a look-up (no arguments) included, and for arguments that are not an
// object (the entry's own run explains that to the model). Arguments
// given as a string holding a JSON object, as some models write them, are
// taken as that object.
func ResolveDeferred(name, args string) (tool, toolArgs string, ok bool) {
	if name != DeferredEntryName {
		return "", "", false
	}
	var a struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal([]byte(args), &a) != nil {
		return "", "", false
	}
	tool = strings.TrimSpace(a.Tool)
	obj, isObj := jsonObject(a.Arguments)
	if tool == "" || tool == DeferredEntryName || !isObj {
		return "", "", false
	}
	return tool, obj, true
}

// jsonObject is raw as a JSON object's text, unwrapping a string that
// holds one.
func jsonObject(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		raw = bytes.TrimSpace([]byte(s))
	}
	var m map[string]json.RawMessage
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return "", false
	}
	return string(raw), true
}

type deferredEntry struct {
	desc   string
	names  []string
	byName map[string]Tool
}

var deferredEntrySchema = json.RawMessage(`{"type":"object","properties":{"tool":{"type":"string"},"arguments":{"type":"object"}},"required":["tool"]}`)

func (e *deferredEntry) Name() string            { return DeferredEntryName }
func (e *deferredEntry) Description() string     { return e.desc }
func (e *deferredEntry) Schema() json.RawMessage { return deferredEntrySchema }

// Traits: a look-up reads the entry's own catalogue; a call that runs a
// tool is that tool's call (the loop resolves it first).
func (e *deferredEntry) Traits() Traits { return Catalog }
func (e *deferredEntry) ReadOnly() bool { return true }

// Run answers a look-up with the tool's description and schema. A call
// with arguments reaches it only when they are not a JSON object.
func (e *deferredEntry) Run(_ context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var a struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return FailShown("arguments must be a JSON object: "+err.Error(), badArgsShown(env, DeferredEntryName)), nil
	}
	name := strings.TrimSpace(a.Tool)
	t, ok := e.byName[name]
	if !ok {
		msg := fmt.Sprintf("%s runs these tools: %s; %q is not one of them", DeferredEntryName, strings.Join(e.names, ", "), name)
		if name == "" {
			msg = "missing required argument: tool (one of " + strings.Join(e.names, ", ") + ")"
		}
		return FailShown(msg+".", env.Tr("%s was asked for a tool it does not have: %s.", DeferredEntryName, name)), nil
	}
	if args := bytes.TrimSpace(a.Arguments); len(args) > 0 && string(args) != "null" {
		return FailShown(fmt.Sprintf("arguments must be a JSON object following %s's input schema: %s", name, t.Schema()),
			badArgsShown(env, name)), nil
	}
	return Result{OK: true, Output: fmt.Sprintf("## %s\n%s\nInput schema: %s\nRun it with %s: {\"tool\": %q, \"arguments\": {...}}.",
		name, strings.TrimSpace(t.Description()), t.Schema(), DeferredEntryName, name)}, nil
}

// requiredArgs are the names a schema requires, in its order.
func requiredArgs(schema json.RawMessage) []string {
	var s struct {
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(schema, &s)
	return s.Required
}

// oneLine is a description's lead: its first sentence up to the first
// colon, parenthesis or semicolon, at most deferredLineMax bytes cut at a
// word.
func oneLine(desc string) string {
	s := strings.TrimSpace(desc)
	if i := strings.IndexAny(s, "\n"); i >= 0 {
		s = s[:i]
	}
	for _, stop := range []string{". ", ": ", " (", "; ", ", for "} {
		if i := strings.Index(s, stop); i > 0 {
			s = s[:i]
		}
	}
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if len(s) > deferredLineMax {
		cut := strings.LastIndex(s[:deferredLineMax], " ")
		if cut <= 0 {
			// One long word: cut it at a character's start.
			cut = deferredLineMax
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		s = strings.TrimSpace(s[:cut]) + "…"
	}
	return s
}
