package config

import (
	"strings"
	"testing"
)

// Every declaration is complete: a type, a default of that type, both
// descriptions, and a scope; Restrict keys say how a workspace restricts.
func TestSchemaDeclarationsAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Schema {
		if seen[s.Key] {
			t.Errorf("%s declared twice", s.Key)
		}
		seen[s.Key] = true
		if s.EN == "" || s.ZH == "" {
			t.Errorf("%s: a description in both languages is required", s.Key)
		}
		if s.Scope != Workspace && s.Scope != Restrict && s.Scope != UserOnly {
			t.Errorf("%s: scope %q", s.Key, s.Scope)
		}
		if s.Scope == Restrict && s.Stricter == nil && s.WorkspaceKey == "" && !s.Lower {
			t.Errorf("%s: a Restrict key needs Stricter, Lower or WorkspaceKey", s.Key)
		}
		if s.Lower && (s.Scope != Restrict || (s.Type != "number" && s.Type != "integer")) {
			t.Errorf("%s: Lower is for Restrict numbers", s.Key)
		}
		if err := Validate(s.Key, s.Default); err != nil {
			t.Errorf("default does not fit its own declaration: %v", err)
		}
		if strings.HasSuffix(s.Key, "Ms") != (s.Unit == "ms") {
			t.Errorf("%s: a millisecond setting carries its unit in its name (unit %q)", s.Key, s.Unit)
		}
	}
}

// The defaults that once disagreed between package.json and Go: one value
// now, the one the sidecar always used (reviewers are opt-in and alike).
func TestDefaultsThatOnceDrifted(t *testing.T) {
	s := Typed(Values{})
	if s.TodolistReview.Enabled || s.TodolistReview.TimeoutMs != 60000 || s.ShellCommandReview.MaxAttempts != 2 {
		t.Fatalf("%+v %+v", s.TodolistReview, s.ShellCommandReview)
	}
	if s.Compact.Threshold != 0.7 || s.ContextWindow != 0 || !s.Snapshots.Enabled || s.AutoApprove.EditsDelayMs != 0 {
		t.Fatalf("%+v", s)
	}
}

func TestTypedReadsNestedAndFlatSpellings(t *testing.T) {
	v := Flatten(map[string]any{
		"govibe.permissions.workspace.deny": []any{"Bash(rm *)"},
		"compact":                           map[string]any{"keepTokens": "1200"},
		"models":                            []any{map[string]any{"name": "a"}, "junk"},
	})
	s := Typed(v)
	if len(s.Permissions.Workspace.Deny) != 1 || s.Compact.KeepTokens != 1200 || len(s.Models) != 1 || s.Models[0]["name"] != "a" {
		t.Fatalf("%+v", s)
	}
}

func TestValidateNamesTheKeyAndWhatItWants(t *testing.T) {
	for _, c := range []struct {
		key  string
		v    any
		want string
	}{
		{"maxInteractions", "ten", "a number"},
		{"maxInteractions", float64(-2), "at least -1"},
		{"compact.threshold", float64(2), "at most 1"},
		{"shell.timeoutMs", 1.5, "a whole number"},
		{"language", "fr", "one of auto, en, zh-CN"},
		{"confirmChanges", "yes", "true or false"},
		{"permissions.deny", "Bash(rm *)", "a JSON array"},
		{"permissions.deny", []any{float64(1)}, "a list of strings"},
		{"models", []any{"x"}, "a list of profile objects"},
	} {
		err := Validate(c.key, c.v)
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s=%v: %v", c.key, c.v, err)
		}
	}
	if err := Validate("nonsense", 1); err != nil {
		t.Fatalf("unknown keys are warned about elsewhere: %v", err)
	}
}

// A govibe.models entry reads typed: an unset temperature stays unset (0
// is a choice), and the legacy per-profile apiKey is read though never
// offered in package.json.
func TestModelProfiles(t *testing.T) {
	s := Typed(Values{"models": []any{
		map[string]any{"name": "a", "model": "m", "contextWindow": float64(64000), "priceInput": 2.5, "temperature": float64(0), "apiKey": "sk-a"},
		map[string]any{"name": "b", "model": "n"},
		"not an object",
	}})
	ps := s.ModelProfiles()
	if len(ps) != 2 || ps[0].Name != "a" || ps[0].ContextWindow != 64000 || ps[0].PriceInput != 2.5 || ps[0].APIKey != "sk-a" {
		t.Fatalf("profiles %+v", ps)
	}
	if ps[0].Temperature == nil || *ps[0].Temperature != 0 || ps[1].Temperature != nil {
		t.Fatalf("temperature: %v %v", ps[0].Temperature, ps[1].Temperature)
	}
	for _, f := range ModelFields {
		if f.Name == "apiKey" && !f.Internal {
			t.Fatal("the per-profile apiKey must not be offered in package.json")
		}
	}
}
