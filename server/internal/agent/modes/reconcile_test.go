package modes

import (
	"strings"
	"testing"
)

func TestIsTestPath(t *testing.T) {
	yes := []string{"src/game.test.ts", "a/b_test.go", "tests/x.py", "test_foo.py", "src/__tests__/a.tsx", "e2e/play.spec.ts", `src\game.spec.tsx`}
	no := []string{"src/game.ts", "testing.go", "src/contest.ts", "latest/x.go", "README.md"}
	for _, p := range yes {
		if !IsTestPath(p) {
			t.Errorf("%s should be a test path", p)
		}
	}
	for _, p := range no {
		if IsTestPath(p) {
			t.Errorf("%s should not be a test path", p)
		}
	}
}

func TestCheckWrite(t *testing.T) {
	if err := CheckWrite(Coder, "src/game.test.ts"); err == nil || !strings.Contains(err.Error(), "may not change tests") {
		t.Errorf("coder touching tests: %v", err)
	}
	if err := CheckWrite(Coder, "src/game.ts"); err != nil {
		t.Error(err)
	}
	if err := CheckWrite(Specifier, "src/game.ts"); err == nil {
		t.Error("specifier writing code must be refused")
	}
	if err := CheckWrite(Specifier, "src/game.test.ts"); err != nil {
		t.Error(err)
	}
	if err := CheckWrite(Auditor, "x"); err == nil {
		t.Error("the auditor never writes")
	}
}

func TestDecide(t *testing.T) {
	l := Limits{}
	cases := []struct {
		base  int
		diffs []int
		want  string
	}{
		{5, []int{3, 0}, PhaseReady},
		{5, []int{4}, PhaseReconciling},
		{100, []int{95, 94, 93, 92}, PhaseReconciling},         // 4 stagnant
		{100, []int{95, 94, 93, 92, 91}, PhaseFailed},          // 5 without a 10% fall
		{100, []int{95, 94, 93, 92, 80}, PhaseReconciling},     // the fifth falls ≥10%
		{10, []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 1}, PhaseFailed}, // the cap
		{10, []int{12, 12, 12, 12, 12}, PhaseFailed},           // rising is stagnation too
	}
	for i, c := range cases {
		if v := Decide(c.base, c.diffs, l); v.Phase != c.want {
			t.Errorf("case %d: %+v, want %s", i, v, c.want)
		}
	}
	if v := Decide(10, []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 1}, l); !strings.Contains(v.Reason, "cap") {
		t.Errorf("reason %q", v.Reason)
	}
}

func TestParseManifest(t *testing.T) {
	good := `{"apiVersion":"vibe/v1","kind":"VibeManifest","metadata":{"name":"snake-game","approved":false},
"spec":{"intent":"a snake game","constraints":{"framework":"react","language":"typescript","testing":"vitest"},
"visualSpec":{"canvas":"400x400"},"functionalSpec":{"inputs":["arrow keys"],"states":["playing","dead"],"behaviours":["dies on wall"]},
"testCommand":"npx vitest run --reporter=json"},"status":{"phase":"Pending","currentLoop":0,"diff":0}}`
	m, err := ParseManifest([]byte(good))
	if err != nil || m.Spec.Constraints.Framework != "react" || ManifestPath(m.Metadata.Name) != ".govibe/manifests/snake-game.json" {
		t.Fatalf("%+v %v", m, err)
	}
	for in, want := range map[string]string{
		`{`:                                    "not valid JSON",
		`{"metadata":{"name":"Bad Name"}}`:     "metadata.name",
		`{"metadata":{"name":"ok"},"extra":1}`: "unknown field",
		`{"metadata":{"name":"ok"},"spec":{"intent":"x"}}`: "testCommand is empty",
	} {
		if _, err := ParseManifest([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

func TestWriteRules(t *testing.T) {
	draft := WriteRule("")
	if err := draft(".govibe/manifests/snake.json"); err != nil {
		t.Error(err)
	}
	for _, p := range []string{"src/app.ts", ".govibe/manifests/../x.json", ".govibe/manifests/snake.txt"} {
		if err := draft(p); err == nil {
			t.Errorf("drafting may not write %s", p)
		}
	}
	if err := WriteRule(Coder)("a/b_test.go"); err == nil {
		t.Error("coder rule")
	}
}
