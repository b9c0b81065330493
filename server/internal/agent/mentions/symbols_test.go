package mentions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/workspace/tools"
)

// TestSymbolMentions: @#Name attaches each declaration's whole body
// (braces or indentation), @#Type.Member prefers the member of that type,
// ignored and Read-denied files are never searched, and a bad or unknown
// name is a clear error.
func TestSymbolMentions(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"engine.go":    "package e\n\ntype Engine struct{}\n\nfunc (e *Engine) Send(x int) error {\n\tif x > 0 {\n\t\treturn nil\n\t}\n\treturn nil\n}\n\nfunc after() {}\n",
		"other.go":     "package e\n\ntype Other struct{}\n\nfunc (o *Other) Send() {}\n",
		"tool.py":      "import os\n\nclass Parser:\n    def parse(self, s):\n        return s.strip()\n\n    def other(self):\n        pass\n\ndef helper():\n    pass\n",
		"web/app.ts":   "export interface Config {\n  port: number;\n}\n\nexport function start(c: Config) {}\n",
		".gitignore":   "ignored/\n",
		"ignored/x.go": "package x\n\nfunc Hidden() {}\n",
		"secret/s.go":  "package s\n\nfunc Denied() {}\n",
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := &tools.Env{Roots: []string{root}, Files: tools.NewFileTracker(), Readable: func(abs string) error {
		if strings.Contains(abs, "secret") {
			return errors.New("denied by a Read rule")
		}
		return nil
	}}
	atts := Expand(context.Background(), env, "@#Engine.Send @#Send @#parse @#Config @#Hidden @#Denied @#no-such!", Sources{})
	if len(atts) != 7 {
		t.Fatalf("attachments: %+v", atts)
	}
	es := atts[0]
	if es.Error != "" || !strings.Contains(es.Content, "func (e *Engine) Send(x int) error {") || !strings.Contains(es.Content, "\treturn nil\n") ||
		strings.Contains(es.Content, "after()") || strings.Contains(es.Content, "Other") {
		t.Fatalf("@#Engine.Send: %+v", es)
	}
	if s := atts[1]; s.Error != "" || !strings.Contains(s.Content, "(e *Engine) Send") || !strings.Contains(s.Content, "(o *Other) Send") {
		t.Fatalf("@#Send lists both: %+v", s)
	}
	if p := atts[2]; p.Error != "" || !strings.Contains(p.Content, "def parse(self, s):") || !strings.Contains(p.Content, "return s.strip()") || strings.Contains(p.Content, "def other") {
		t.Fatalf("@#parse: %+v", p)
	}
	if c := atts[3]; c.Error != "" || !strings.Contains(c.Content, "port: number;") || strings.Contains(c.Content, "function start") {
		t.Fatalf("@#Config: %+v", c)
	}
	for _, a := range atts[4:6] {
		if a.Error == "" || !strings.Contains(a.Error, "no declaration") {
			t.Fatalf("%s must not be found (ignored or denied): %+v", a.Raw, a)
		}
	}
	if a := atts[6]; !strings.Contains(a.Error, "@#Name") {
		t.Fatalf("bad name: %+v", a)
	}
}
