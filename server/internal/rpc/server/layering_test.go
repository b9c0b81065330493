package server

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDomainPackagesNeverImportProtocol keeps the wire contract at the
// edge: under server/internal only this package, the framing (wire) and
// the test and benchmark clients may import protocol. Domain packages
// speak their own types (the event vocabulary, protocol/kinds, is a leaf
// they may share); this package converts.
func TestDomainPackagesNeverImportProtocol(t *testing.T) {
	allowed := []string{"rpc/server", "rpc/wire", "test", "bench", "devtools"}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for _, a := range allowed {
			if under(rel, a) {
				return nil
			}
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); path == "github.com/govibe/govibe/protocol" {
				t.Errorf("%s imports protocol: domain packages use their own types and server converts", filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCapabilityPackagesNeverImportEngine keeps the engine a hub: the
// capability packages (compact/compaction, scheduler/planrun,
// modes/moderun, approval, review/reviewers, usage, skills, hooks,
// mcpclient, trust, memory, titles, slashcmd, rollback, sessions…) and every other domain package see the engine only through
// the interfaces they declare, never *engine.Engine. Outside tests, only this package,
// the engine itself (and its enginetest helper) and the benchmarks import
// it, which also rules out an import cycle through a capability package.
// The capabilities moved out of the engine are named, so a rename cannot
// take one out of the walk unnoticed.
func TestCapabilityPackagesNeverImportEngine(t *testing.T) {
	allowed := map[string]bool{"rpc/server": true, "engine": true, "bench": true}
	capabilities := []string{"agent/dialogs", "agent/compact/compaction", "agent/scheduler/planrun", "agent/modes/moderun", "gate/approval", "agent/review/reviewers", "model/usage", "agent/skills", "gate/hooks",
		"workspace/mcpclient", "gate/trust", "agent/subagent", "agent/memory", "agent/titles", "agent/slashcmd", "agent/slashcmd/customcmd", "util/lazyload", "workspace/rollback",
		"agent/compact/sessioncompact", "model/usage/budgetgate", "model/profiles", "storage/sessions", "rpc/eventbus", "agent/humanerr", "agent/recovery", "agent/turntools", "agent/turninput"}
	walked := map[string]bool{}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		for a := range allowed {
			if under(rel, a) {
				return nil
			}
		}
		walked[filepath.ToSlash(filepath.Dir(rel))] = true
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if path == "github.com/govibe/govibe/server/internal/engine" || strings.HasPrefix(path, "github.com/govibe/govibe/server/internal/engine/") {
				t.Errorf("%s imports %s: a capability takes the narrow interface it declares, not the engine", filepath.ToSlash(rel), path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range capabilities {
		if !walked[c] {
			t.Errorf("capability package %s was not checked: renamed or removed? update this list and docs/architecture.md", c)
		}
	}
}

// under reports whether the file rel (relative to server/internal) lies in
// the package folder dir or below it.
func under(rel, dir string) bool {
	return strings.HasPrefix(filepath.ToSlash(rel), dir+"/")
}
