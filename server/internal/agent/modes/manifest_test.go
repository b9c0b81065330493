package modes

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// seedManifest is the VibeOS seed's snake-game manifest (§5.2) as written
// there, plus the command the auditor runs.
const seedManifest = `{
  "metadata": {"name": "snake-game", "version": "1.0.0"},
  "spec": {
    "intent": "a classic snake game",
    "constraints": {"framework": "React", "language": "TypeScript", "testing": ["Jest", "React Testing Library"]},
    "visualSpec": {"style": "minimalist", "elements": ["canvas", "score-display", "game-over-screen"]},
    "functionalSpec": {
      "states": ["playing", "game-over", "paused"],
      "behaviors": ["moves one cell per frame", "grows when it eats", "collision ends the game", "score updates live"]
    },
    "testCommand": "npx jest --json"
  },
  "status": {"phase": "Pending", "currentLoop": 0}
}`

// The manifest has the seed's fields under the seed's names: the seed's
// own example parses, and is written back with the same names and shapes
// (testing and elements are lists, behaviors is spelled as the seed does).
func TestManifestHasTheSeedsFields(t *testing.T) {
	m, err := ParseManifest([]byte(seedManifest))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual([]string(m.Spec.Constraints.Testing), []string{"Jest", "React Testing Library"}) ||
		m.Spec.VisualSpec.Style != "minimalist" || len(m.Spec.VisualSpec.Elements) != 3 ||
		len(m.Spec.FunctionalSpec.Behaviors) != 4 || m.Metadata.Version != "1.0.0" {
		t.Fatalf("%+v", m)
	}
	b, err := EncodeManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	spec := got["spec"].(map[string]any)
	fs := spec["functionalSpec"].(map[string]any)
	if _, ok := fs["behaviors"]; !ok {
		t.Errorf("written without behaviors: %s", b)
	}
	if _, ok := spec["constraints"].(map[string]any)["testing"].([]any); !ok {
		t.Errorf("testing is not a list: %s", b)
	}
	for _, k := range []string{"phase", "currentLoop"} {
		if _, ok := got["status"].(map[string]any)[k]; !ok {
			t.Errorf("status.%s missing: %s", k, b)
		}
	}
}

// Manifests written before the seed's names still load: testing as one
// string, "behaviours", and visual details beyond style and elements
// (kept as they were).
func TestManifestReadsEarlierShapes(t *testing.T) {
	old := `{"apiVersion":"vibe/v1","kind":"VibeManifest","metadata":{"name":"snake","approved":true},
"spec":{"intent":"snake","constraints":{"testing":"vitest"},"visualSpec":{"canvas":"400x400","cell":20},
"functionalSpec":{"behaviours":["dies on wall"]},"testCommand":"npx vitest run --reporter=json"},"status":{"phase":"Pending","currentLoop":0,"diff":0}}`
	m, err := ParseManifest([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual([]string(m.Spec.Constraints.Testing), []string{"vitest"}) || !reflect.DeepEqual(m.Spec.FunctionalSpec.Behaviors, []string{"dies on wall"}) {
		t.Fatalf("%+v", m.Spec)
	}
	b, _ := EncodeManifest(m)
	if !strings.Contains(string(b), `"canvas": "400x400"`) || !strings.Contains(string(b), `"cell": 20`) || strings.Contains(string(b), "behaviours") {
		t.Fatalf("written back as %s", b)
	}
	for in, want := range map[string]string{
		`{"metadata":{"name":"ok"},"spec":{"intent":"x","testCommand":"t","functionalSpec":{"behaviors":["a"],"behaviours":["b"]}}}`: "both behaviors and behaviours",
		`{"metadata":{"name":"ok"},"spec":{"intent":"x","testCommand":"t","functionalSpec":{"behaviour":["a"]}}}`:                    "unknown field",
		`{"metadata":{"name":"ok"},"spec":{"intent":"x","testCommand":"t","constraints":{"testing":3}}}`:                             "testing",
		`{"metadata":{"name":"ok"},"spec":{"intent":"x","testCommand":"t","visualSpec":{"elements":"canvas"}}}`:                      "elements",
	} {
		if _, err := ParseManifest([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
