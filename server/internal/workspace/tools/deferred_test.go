package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func builtinNamed(t *testing.T, names ...string) []Tool {
	t.Helper()
	by := map[string]Tool{}
	for _, x := range Builtin() {
		by[x.Name()] = x
	}
	var out []Tool
	for _, n := range names {
		x, ok := by[n]
		if !ok {
			t.Fatalf("no builtin %s", n)
		}
		out = append(out, x)
	}
	return out
}

// TestOfferPutsDeferredToolsBehindOneEntry: the request keeps the other
// tools in order, with the one entry in the last deferred tool's place
// (MCP tools stay after the built-ins), whose description lists each
// deferred tool with its required arguments and a line, and is the same
// bytes every time; with nothing deferred the list is unchanged.
func TestOfferPutsDeferredToolsBehindOneEntry(t *testing.T) {
	ts := builtinNamed(t, "read_file", "text_diff", "edit", "create_directory", "glob")
	deferred := map[string]bool{"text_diff": true, "create_directory": true}
	got := Offer(ts, deferred)
	var names []string
	for _, x := range got {
		names = append(names, x.Name())
	}
	if strings.Join(names, " ") != "read_file edit more_tools glob" {
		t.Fatalf("offered %v", names)
	}
	desc := got[2].Description()
	for _, want := range []string{
		"\n- text_diff(original, modified): Compute a unified diff between two texts given inline\n",
		"\n- create_directory(dirPath): Create a folder inside the workspace",
	} {
		if !strings.Contains(desc+"\n", want) {
			t.Errorf("the entry lacks %q:\n%s", want, desc)
		}
	}
	if again := Offer(ts, deferred)[2]; again.Description() != desc || string(again.Schema()) != string(got[2].Schema()) {
		t.Error("the entry differs between two requests")
	}
	var schema map[string]any
	if err := json.Unmarshal(got[2].Schema(), &schema); err != nil || !got[2].ReadOnly() {
		t.Fatalf("schema %s: %v", got[2].Schema(), err)
	}
	if n := Offer(ts, nil); len(n) != 5 {
		t.Errorf("nothing deferred: %d tools", len(n))
	}
	if n := Offer(ts, map[string]bool{"ask_human": true}); len(n) != 5 {
		t.Errorf("a deferred tool not offered added the entry: %d tools", len(n))
	}
}

// TestDeferredLookUp: the entry answers a tool's name with its whole
// description and input schema, refuses names it does not list and
// arguments that are not an object, each with what to do.
func TestDeferredLookUp(t *testing.T) {
	entry := DeferredEntry(builtinNamed(t, "text_diff", "create_directory"))
	run := func(args string) Result {
		t.Helper()
		r, err := entry.Run(context.Background(), &Env{}, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run(`{"tool":"text_diff"}`)
	if !r.OK || !strings.Contains(r.Output, "## text_diff\n") || !strings.Contains(r.Output, `"contextLines"`) || !strings.Contains(r.Output, `more_tools: {"tool": "text_diff", "arguments": {...}}`) {
		t.Fatalf("look-up: %+v", r)
	}
	for args, want := range map[string]string{
		`{"tool":"edit"}`:                      `runs these tools: text_diff, create_directory; "edit" is not one of them`,
		`{}`:                                   "missing required argument: tool (one of text_diff, create_directory)",
		`{"tool":"text_diff","arguments":[1]}`: "arguments must be a JSON object following text_diff's input schema",
		`[1]`:                                  "arguments must be a JSON object",
	} {
		if r := run(args); r.OK || !strings.Contains(r.Output, want) || r.Display == "" {
			t.Errorf("%s: %+v, want %q", args, r, want)
		}
	}
}

// TestResolveDeferred: a call of the entry with an object of arguments
// (or a string holding one) is the named tool's call; a look-up, another
// tool's call, arguments that are no object and the entry naming itself
// are not.
func TestResolveDeferred(t *testing.T) {
	for _, c := range []struct {
		name, args, tool, toolArgs string
		ok                         bool
	}{
		{"more_tools", `{"tool":"text_diff","arguments":{"original":"a","modified":"b"}}`, "text_diff", `{"original":"a","modified":"b"}`, true},
		{"more_tools", `{"tool":" web_fetch ","arguments":"{\"url\":\"https://x.test\"}"}`, "web_fetch", `{"url":"https://x.test"}`, true},
		{"more_tools", `{"tool":"get_workspace_info","arguments":{}}`, "get_workspace_info", `{}`, true},
		{"more_tools", `{"tool":"text_diff"}`, "", "", false},
		{"more_tools", `{"tool":"text_diff","arguments":null}`, "", "", false},
		{"more_tools", `{"tool":"text_diff","arguments":[1]}`, "", "", false},
		{"more_tools", `{"tool":"text_diff","arguments":"not json"}`, "", "", false},
		{"more_tools", `{"tool":"more_tools","arguments":{}}`, "", "", false},
		{"more_tools", `{"arguments":{}}`, "", "", false},
		{"more_tools", `not json`, "", "", false},
		{"read_file", `{"tool":"text_diff","arguments":{}}`, "", "", false},
	} {
		tool, args, ok := ResolveDeferred(c.name, c.args)
		if tool != c.tool || args != c.toolArgs || ok != c.ok {
			t.Errorf("%s %s: %q %q %v", c.name, c.args, tool, args, ok)
		}
	}
}

// TestDeferredLine: a tool's line is its description's lead, cut at a
// word and within bounds whatever the description.
func TestDeferredLine(t *testing.T) {
	for desc, want := range map[string]string{
		"Delete one file (not a folder). Subject to confirmation.": "Delete one file",
		"Load a skill by name: returns its full instruction":       "Load a skill by name",
		"Show a note, for something to notice now":                 "Show a note",
		strings.Repeat("word ", 40):                                strings.TrimSpace(strings.Repeat("word ", 14)) + "…",
		strings.Repeat("é", 100):                                   strings.Repeat("é", 36) + "…",
		"":                                                         "",
	} {
		if got := oneLine(desc); got != want {
			t.Errorf("%.30q: %q, want %q", desc, got, want)
		}
	}
}

// TestDeferredTraitIsNotWhatAToolDoes: Deferred changes neither whether a
// tool changes something nor which traits it stays within.
func TestDeferredTraitIsNotWhatAToolDoes(t *testing.T) {
	if !(Computes | Deferred).Within(Looks) || !(Reads | Deferred).ChangesNothing() || (WritesWorkspace | Deferred).ChangesNothing() ||
		Deferred.Within(Looks) || Deferred.ChangesNothing() {
		t.Fatal("Deferred counts as what a tool does")
	}
	if s := (Reads | Deferred).String(); s != "reads|deferred" {
		t.Errorf("String: %s", s)
	}
}

// TestDescribeCountsToolsBehindTheEntry: a clause naming a deferred tool
// stays in a direct tool's description, because the model still reaches
// that tool through the entry (the request lists the entry, not the tool).
func TestDescribeCountsToolsBehindTheEntry(t *testing.T) {
	behind := &define[noArgs]{name: "hidden_tool", desc: "Hidden.", traits: Deferred}
	direct := &define[noArgs]{name: "direct_tool", desc: "Direct.{{hidden_tool: Then call hidden_tool.}}{{absent_tool: Never shown.}}"}
	request := Offer([]Tool{direct, behind}, map[string]bool{"hidden_tool": true})
	got := Describe(direct, request)
	if got != "Direct.Then call hidden_tool." {
		t.Fatalf("description among %d request tools: %q", len(request), got)
	}
}
