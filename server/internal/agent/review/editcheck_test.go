package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goFile = `package calc

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts.
func Sub(a, b int) int { return a - b }

func helper() {}
`

func hasProblem(ps []Problem, sev, substr string) bool {
	for _, p := range ps {
		if p.Severity == sev && strings.Contains(p.Message, substr) {
			return true
		}
	}
	return false
}

func TestCheckEditSyntax(t *testing.T) {
	cases := []struct {
		name, path, before, after string
		isNew, wantErr            bool
	}{
		{"go valid", "calc.go", goFile, strings.Replace(goFile, "a + b", "b + a", 1), false, false},
		{"go broken", "calc.go", goFile, strings.Replace(goFile, "return a + b }", "return a + b", 1), false, true},
		{"go new broken", "n.go", "", "package n\nfunc (", true, true},
		{"go already broken", "calc.go", "package calc\nfunc (", "package calc\nfunc ( // still", false, false},
		{"json valid", "p.json", `{"a": 1}`, `{"a": 2}`, false, false},
		{"json trailing comma", "p.json", `{"a": 1}`, "{\n\"a\": 1,\n}", false, true},
		{"json two values", "p.json", `{"a": 1}`, `{"a": 1} {}`, false, true},
		{"jsonc tsconfig skipped", "tsconfig.json", `{"a": 1}`, "{ // c\n\"a\": 1,\n}", false, false},
		{"yaml valid", "c.yaml", "a: 1\n", "a: 1\nb: [1, 2]\n---\nc: 3\n", false, false},
		{"yaml broken", "c.yml", "a: 1\n", "a: [1, 2\nb: 3\n", false, true},
		{"unknown type", "x.rs", "fn main() {}", "fn main() {", false, false},
	}
	for _, c := range cases {
		st := CheckEdit(EditCheck{Path: "/w/" + c.path, RelPath: c.path, Original: c.before, Proposed: c.after, IsNew: c.isNew})
		if got := hasProblem(st.Problems, SeverityError, "does not parse"); got != c.wantErr {
			t.Errorf("%s: syntax error reported %v, want %v (%+v)", c.name, got, c.wantErr, st.Problems)
		}
	}
	st := CheckEdit(EditCheck{RelPath: "p.json", Original: `{"a": 1}`, Proposed: "{\n\"a\": 1,\n}"})
	if !strings.Contains(st.Problems[0].Message, "line 3") {
		t.Errorf("JSON error has no line: %q", st.Problems[0].Message)
	}
}

func TestCheckEditPlaceholders(t *testing.T) {
	bad := []string{
		"    // ... rest of code unchanged",
		"# ... rest of the file remains the same",
		"  /* existing code remains unchanged */",
		"// ... existing methods ...",
		"<!-- ... unchanged ... -->",
		"    ...  (rest of the function)",
		"// Rest of the implementation stays the same",
		"// code omitted for brevity",
	}
	for _, line := range bad {
		after := strings.Replace(goFile, "func helper() {}", "func helper() {\n"+line+"\n}", 1)
		st := CheckEdit(EditCheck{RelPath: "calc.go", Original: goFile, Proposed: after})
		if !Blocking(st.Problems) || !hasProblem(st.Problems, SeverityError, "placeholder") {
			t.Errorf("%q not caught: %+v", line, st.Problems)
			continue
		}
		for _, p := range st.Problems {
			if strings.Contains(p.Message, "placeholder") && !strings.HasPrefix(p.Location, "calc.go:1") {
				t.Errorf("no line location: %+v", p)
			}
		}
	}
	fine := []string{
		"\targs := []string{\"a\", \"...\"}",
		"\t// the rest of the args are flags",
		"\tfmt.Println(\"loading...\")",
		"\t// keep existing behaviour when the flag is unset",
	}
	for _, line := range fine {
		after := strings.Replace(goFile, "func helper() {}", "func helper() {\n"+line+"\n}", 1)
		st := CheckEdit(EditCheck{RelPath: "calc.go", Original: goFile, Proposed: after})
		if hasProblem(st.Problems, SeverityError, "placeholder") {
			t.Errorf("false placeholder on %q", line)
		}
	}
	// A placeholder phrase that was already in the file is not the edit's.
	withDoc := goFile + "// ... rest of code unchanged is what models write\n"
	st := CheckEdit(EditCheck{RelPath: "calc.go", Original: withDoc, Proposed: strings.Replace(withDoc, "a + b", "b + a", 1)})
	if Blocking(st.Problems) {
		t.Errorf("existing text flagged: %+v", st.Problems)
	}
}

func TestCheckEditDeletions(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		b.WriteString("line of text\n")
	}
	orig := b.String()
	st := CheckEdit(EditCheck{RelPath: "notes.txt", Original: orig, Proposed: "line of text\nshort\n"})
	if !hasProblem(st.Problems, SeverityWarning, "removes 59 lines") || Blocking(st.Problems) {
		t.Fatalf("%+v", st.Problems)
	}
	if st := CheckEdit(EditCheck{RelPath: "notes.txt", Original: orig, Proposed: ""}); !hasProblem(st.Problems, SeverityWarning, "empties") {
		t.Fatalf("%+v", st.Problems)
	}
	if st := CheckEdit(EditCheck{RelPath: "notes.txt", Original: orig, Delete: true}); !hasProblem(st.Problems, SeverityWarning, "deletes the whole file") {
		t.Fatalf("%+v", st.Problems)
	}
	if st := CheckEdit(EditCheck{RelPath: "notes.txt", Original: orig, Proposed: strings.Replace(orig, "line", "LINE", 3)}); len(st.Problems) != 0 {
		t.Fatalf("a small edit was flagged: %+v", st.Problems)
	}
	if st := CheckEdit(EditCheck{RelPath: "notes.txt", Original: orig, Proposed: orig + "x\n"}); !strings.Contains(st.Diff, "+x") {
		t.Fatalf("diff %q", st.Diff)
	}
}

func TestCheckEditCallers(t *testing.T) {
	ws := t.TempDir()
	write := func(rel, s string) string {
		p := filepath.Join(ws, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	self := write("calc/calc.go", goFile)
	write("main.go", "package main\n\nimport \"x/calc\"\n\nfunc main() {\n\tprintln(calc.Add(1, 2))\n\tprintln(calc.Subtract(1))\n}\n")
	write("node_modules/dep/a.go", "package dep\nvar _ = calc.Add\n")
	write("web/app.ts", "import { render } from './ui';\nrender(1);\n")
	write("web/other.ts", "import { render } from './ui';\nrender(2, 3);\n")
	ui := write("web/ui.ts", "export function render(x: number) {}\n")

	// Changing Add's signature: main.go still calls it; node_modules is not searched.
	after := strings.Replace(goFile, "func Add(a, b int) int", "func Add(a, b, c int) int", 1)
	st := CheckEdit(EditCheck{Path: self, RelPath: "calc/calc.go", Original: goFile, Proposed: after, Roots: []string{ws}})
	if !hasProblem(st.Problems, SeverityWarning, "changes the signature of exported Add, which is still referenced at main.go:6") {
		t.Fatalf("%+v", st.Problems)
	}
	for _, p := range st.Problems {
		if strings.Contains(p.Message, "node_modules") {
			t.Fatalf("searched node_modules: %+v", p)
		}
	}
	// Removing Sub: nothing references it (main.go calls Subtract).
	after = strings.Replace(goFile, "// Sub subtracts.\nfunc Sub(a, b int) int { return a - b }\n", "", 1)
	if st := CheckEdit(EditCheck{Path: self, RelPath: "calc/calc.go", Original: goFile, Proposed: after, Roots: []string{ws}}); len(st.Problems) != 0 {
		t.Fatalf("an unreferenced removal was flagged: %+v", st.Problems)
	}
	// Unexported changes are not searched for.
	after = strings.Replace(goFile, "func helper() {}", "func helper(x int) {}", 1)
	if st := CheckEdit(EditCheck{Path: self, RelPath: "calc/calc.go", Original: goFile, Proposed: after, Roots: []string{ws}}); len(st.Problems) != 0 {
		t.Fatalf("%+v", st.Problems)
	}
	// TypeScript: renaming an exported function.
	st = CheckEdit(EditCheck{Path: ui, RelPath: "web/ui.ts", Original: "export function render(x: number) {}\n", Proposed: "export function draw(x: number) {}\n", Roots: []string{ws}})
	if !hasProblem(st.Problems, SeverityWarning, "removes exported render") || !strings.Contains(st.Problems[0].Message, "web/app.ts:1") {
		t.Fatalf("%+v", st.Problems)
	}
	// Deleting the Go file: callers are reported too.
	st = CheckEdit(EditCheck{Path: self, RelPath: "calc/calc.go", Original: goFile, Delete: true, Roots: []string{ws}})
	if !hasProblem(st.Problems, SeverityWarning, "removes exported Add") {
		t.Fatalf("%+v", st.Problems)
	}
}

func TestSymbols(t *testing.T) {
	g := goSymbols("package p\ntype T struct{}\nfunc (t *T) M(x int) {}\nfunc (t *t2) N() {}\ntype t2 struct{}\nvar V, w = 1, 2\nconst C = 1\n")
	for _, k := range []string{"T", "T.M", "V", "C"} {
		if _, ok := g[k]; !ok {
			t.Errorf("missing %s in %v", k, g)
		}
	}
	if _, ok := g["t2.N"]; ok {
		t.Error("method of an unexported type listed")
	}
	if goSymbols("package p\nfunc (") != nil {
		t.Error("unparseable source gave symbols")
	}
	p := pySymbols("def run(a, b):\n    pass\nclass Model:\n    def inner(self): pass\n")
	if p["run"] != "def(a, b):" && p["run"] != "def(a, b)" {
		t.Errorf("py %v", p)
	}
	if _, ok := p["inner"]; ok {
		t.Error("nested def listed")
	}
}
