package server

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol/kinds"
	"github.com/govibe/govibe/server/internal/engine"
)

func engineEvent(kind kinds.Kind) engine.Event { return engine.Event{SessionID: "s", Kind: kind} }

// TestEngineEventKindsMatchTheProtocol keeps the engine's Kind* constants
// (engine/events.go) and the wire vocabulary (protocol/kinds) the same set,
// until the engine uses package kinds directly. It reads the engine's
// source so no engine file needs to change for the check.
func TestEngineEventKindsMatchTheProtocol(t *testing.T) {
	path := filepath.Join("..", "engine", "events.go")
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var engine []string
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Kind") || i >= len(vs.Values) {
					continue
				}
				switch v := vs.Values[i].(type) {
				case *ast.BasicLit:
					s, _ := strconv.Unquote(v.Value)
					engine = append(engine, s)
				case *ast.SelectorExpr: // kinds.X once the engine uses the shared vocabulary
					engine = append(engine, v.Sel.Name)
				}
			}
		}
	}
	var wire []string
	byName := map[string]string{}
	for _, k := range kinds.All {
		wire = append(wire, string(k))
		byName[strings.ToUpper(string(k[:1]))+string(k[1:])] = string(k)
	}
	for i, e := range engine {
		if v, ok := byName[e]; ok {
			engine[i] = v
		}
	}
	sort.Strings(engine)
	sort.Strings(wire)
	if strings.Join(engine, ",") != strings.Join(wire, ",") {
		t.Fatalf("engine kinds %v\nprotocol kinds %v", engine, wire)
	}
}

func TestEveryEngineEventKindConverts(t *testing.T) {
	for _, k := range kinds.All {
		if got := toChatEvent(engineEvent(k)).Kind; got != k {
			t.Errorf("%s converted to %s", k, got)
		}
	}
}

// The user message and the pending reply a turn or plan step opens carry
// its agent's tag, as session/load returns them, so the chat groups a
// step's rows while it runs.
func TestOpenedMessagesCarryTheirTag(t *testing.T) {
	for _, k := range []kinds.Kind{engine.KindMessage, engine.KindTurnStarted} {
		got := toChatEvent(engine.Event{Kind: k, SessionID: "s", TurnID: "t", MessageID: "m", SubAgentTag: "executor:2"})
		if got.Message == nil || got.Message.SubAgentTag != "executor:2" {
			t.Errorf("%s: message %+v, want the tag executor:2", k, got.Message)
		}
	}
}
