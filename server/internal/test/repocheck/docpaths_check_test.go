package repocheck

import (
	"reflect"
	"testing"
)

// The check itself, on a made-up tree: what counts as a path, and how
// each form is resolved.
func TestDocPathResolution(t *testing.T) {
	x := newTreeIndex([]string{
		"server/internal/engine/turn.go",
		"server/internal/engine/enginetest/enginetest.go",
		"server/internal/tools/env.go",
		"server/internal/server/mcp.go",
		"extension/webview/src/ui/VirtualList.tsx",
		"protocol/kinds/kinds.go",
	})
	for ref, wantMissing := range map[string]bool{
		"server/internal/engine/turn.go":          false,
		"server/internal/engine/turn.go:79":       false,
		"server/internal/engine/":                 false,
		"server/internal/tools.Env":               false,
		"github.com/govibe/govibe/protocol/kinds": false,
		"internal/engine":                         false,
		"engine/turn.go":                          false,
		"turn.go":                                 false,
		"ui/VirtualList.tsx":                      false,
		"engine/enginetest":                       false,
		"engine/web_confirm.go":                   true,
		"web_confirm.go":                          true,
		"server/internal/engine/gone.go":          true,
		"internal/nosuch":                         true,
		"engine/nosuch":                           true,
		"extension/src/nosuch.ts":                 true,
		"chat/send":                               false, // a JSON-RPC method
		"session/load":                            false,
		"files/complete":                          false,
		"AGENTS.md":                               false, // the user's file
		".vscode/mcp.json":                        false,
		"~/.govibe/agents":                        false,
		"<state>/browser/":                        false,
		"Bash(go test:*)":                         false,
		"a b/c.go":                                false,
		"kinds.Kind":                              false,
	} {
		if got := x.missing(ref) != ""; got != wantMissing {
			t.Errorf("%q: missing = %v, want %v (%s)", ref, got, wantMissing, x.missing(ref))
		}
	}
}

func TestDocRefs(t *testing.T) {
	doc := "See `a/b.go` and ``c`d.go`` or [x](docs/y.md), not [z](https://e.com).\n" +
		"```sh\nmake `fenced/e.go`\n```\n" +
		"a span across\n`lines/f\n.go` and an unmatched ` tick\n"
	want := []string{"a/b.go", "c`d.go", "docs/y.md", "lines/f .go"}
	if got := docRefs(doc); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestUnmapped(t *testing.T) {
	got := unmapped(map[string]bool{"engine": true, "store": true, "wire": true, "tools": true},
		[]string{"internal/engine", "server/internal/store/", "internal/tools/env.go", "wire"})
	if want := []string{"tools", "wire"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
