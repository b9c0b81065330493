package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlattenAcceptsBothSpellings(t *testing.T) {
	v := Flatten(map[string]any{
		"govibe.model":      "m",
		"compact":           map[string]any{"threshold": 0.5},
		"autoApprove.edits": true,
	})
	if v.String("model") != "m" || v.Float("compact.threshold") != 0.5 || !v.Bool("autoApprove.edits") {
		t.Fatalf("flattened %v", v)
	}
	if got := (Values{}).Float("compact.threshold"); got != 0.7 {
		t.Fatalf("default threshold %v", got)
	}
	if got := (Values{"maxInteractions": "5"}).Int("maxInteractions"); got != 5 {
		t.Fatalf("string number %v", got)
	}
}

func TestParseAssignment(t *testing.T) {
	for in, want := range map[string]any{
		"contextWindow=8000":              float64(8000),
		"govibe.editReview.enabled=false": false,
		"model=deepseek-chat":             "deepseek-chat",
		`permissions.allow=["Bash(ls*)"]`: []any{"Bash(ls*)"},
	} {
		k, v, err := ParseAssignment(in)
		if err != nil || k == "" {
			t.Fatalf("%s: %v", in, err)
		}
		if strings.Contains(k, "govibe.") {
			t.Fatalf("%s: prefix kept: %s", in, k)
		}
		if s, ok := want.([]any); ok {
			got, _ := v.([]any)
			if len(got) != len(s) || got[0] != s[0] {
				t.Fatalf("%s: %v", in, v)
			}
			continue
		}
		if v != want {
			t.Fatalf("%s: got %#v want %#v", in, v, want)
		}
	}
	for _, bad := range []string{"noequals", "=value", ""} {
		if _, _, err := ParseAssignment(bad); err == nil || !strings.Contains(err.Error(), "KEY=VALUE") {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	if v, err := LoadFile(filepath.Join(dir, "missing.json")); err != nil || len(v) != 0 {
		t.Fatalf("a missing file is empty settings: %v %v", v, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"model": `), 0o600)
	if _, err := LoadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("a malformed file must be an error naming it: %v", err)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"model": "x", "shell": {"timeoutMs": 5000}, "bogus": 1}`), 0o600)
	v, err := LoadFile(good)
	if err != nil || v.String("model") != "x" || v.Int("shell.timeoutMs") != 5000 {
		t.Fatalf("%v %v", v, err)
	}
	if u := UnknownKeys(v); len(u) != 1 || u[0] != "bogus" {
		t.Fatalf("unknown keys %v", u)
	}
}
