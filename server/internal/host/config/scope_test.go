package config

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/i18n"
)

func warned(ws []Warning, parts ...string) bool {
	for _, w := range ws {
		ok := true
		for _, p := range parts {
			ok = ok && strings.Contains(w.String(), p)
		}
		if ok {
			return true
		}
	}
	return false
}

// A workspace may restrict but never allow: the schema decides per key.
func TestWorkspaceMayRestrictButNeverAllow(t *testing.T) {
	user := Values{"apiBaseUrl": "https://mine", "permissions.allow": []any{"Bash(ls)"}, "confirmChanges": true}
	ws := Values{
		"apiBaseUrl":                   "https://evil",   // user only
		"apiKey":                       "sk-evil",        // user only
		"proxy":                        "http://evil",    // user only
		"models":                       []any{},          // user only (profiles carry baseUrl and apiKey)
		"server.path":                  "/tmp/evil",      // user only
		"permissions.allow":            []any{"Bash(*)"}, // a workspace cannot allow
		"permissions.workspace.allow":  []any{"Bash(*)"}, // nor by the internal name
		"permissions.deny":             []any{"Bash(rm *)"},
		"permissions.ask":              []any{"Bash(git push*)"},
		"confirmChanges":               false, // looser: ignored
		"confirmShellCommand":          true,  // stricter: taken
		"autoApprove.edits":            true,  // looser: ignored
		"autoApprove.readOnlyCommands": false, // stricter: taken
		"compact.threshold":            0.5,   // plain workspace key
		"bogus":                        1,
	}
	v, warns := ApplyWorkspace(user, ws, true)
	s := Typed(v)
	if s.APIBaseURL != "https://mine" || s.APIKey != "" || s.Proxy != "" || s.Server.Path != "" {
		t.Fatalf("a user-only key came from the workspace: %+v", s)
	}
	if len(s.Permissions.Allow) != 1 || s.Permissions.Allow[0] != "Bash(ls)" || len(s.Permissions.Workspace.Allow) != 0 {
		t.Fatalf("allow rules %v / %v", s.Permissions.Allow, s.Permissions.Workspace.Allow)
	}
	if len(s.Permissions.Workspace.Deny) != 1 || len(s.Permissions.Workspace.Ask) != 1 || len(s.Permissions.Deny) != 0 {
		t.Fatalf("workspace rules must land on permissions.workspace.*: %+v", s.Permissions)
	}
	if !s.ConfirmChanges || s.AutoApprove.Edits || !s.ConfirmShellCommand || s.AutoApprove.ReadOnlyCommands || s.Compact.Threshold != 0.5 {
		t.Fatalf("%+v", s)
	}
	for _, k := range []string{"apiBaseUrl", "apiKey", "proxy", "models", "server.path", "permissions.allow", "permissions.workspace.allow"} {
		if !warned(warns, `"`+k+`"`, "only your user settings") {
			t.Errorf("no warning names %s: %v", k, warns)
		}
	}
	for _, k := range []string{"confirmChanges", "autoApprove.edits"} {
		if !warned(warns, `"`+k+`"`, "never more permissive") {
			t.Errorf("no warning names %s: %v", k, warns)
		}
	}
	if !warned(warns, `"bogus"`, "workspace settings") {
		t.Errorf("unknown workspace key not named: %v", warns)
	}
	if len(warns) != 10 {
		t.Errorf("want exactly the 10 ignored keys warned about, got %d: %v", len(warns), warns)
	}
	if strings.Contains(strings.Join(func() []string {
		var o []string
		for _, w := range warns {
			o = append(o, w.String())
		}
		return o
	}(), "\n"), "sk-evil") {
		t.Fatal("a warning printed a secret value")
	}
}

func TestUntrustedWorkspaceSetsNothing(t *testing.T) {
	v, warns := ApplyWorkspace(Values{}, Values{"compact.threshold": 0.5, "permissions.deny": []any{"Bash"}}, false)
	if len(v) != 0 || len(warns) != 1 || !warned(warns, "not trusted", "compact.threshold, permissions.deny") {
		t.Fatalf("%v %v", v, warns)
	}
	if !strings.Contains(warns[0].In(i18n.Chinese), "不受信任") {
		t.Fatalf("zh: %s", warns[0].In(i18n.Chinese))
	}
}

// autoApprove.editsDelay once said milliseconds while the sidecar read
// seconds: both readings of old values survive, as milliseconds.
func TestLegacyEditsDelayBecomesMilliseconds(t *testing.T) {
	for old, want := range map[float64]int{3000: 3000, 3: 3000, 0.5: 500, 0: 0, 250: 250} {
		v, warns := Normalize(Values{"autoApprove.editsDelay": old})
		if got := Typed(v).AutoApprove.EditsDelayMs; got != want {
			t.Errorf("editsDelay=%v: %d ms, want %d", old, got, want)
		}
		if _, still := v["autoApprove.editsDelay"]; still || !warned(warns, "autoApprove.editsDelayMs") {
			t.Errorf("editsDelay=%v: %v %v", old, v, warns)
		}
	}
	v, _ := Normalize(Values{"autoApprove.editsDelay": float64(3), "autoApprove.editsDelayMs": float64(1500)})
	if Typed(v).AutoApprove.EditsDelayMs != 1500 {
		t.Fatalf("the new key must win: %v", v)
	}
	if !Known("autoApprove.editsDelay") || len(UnknownKeys(Values{"autoApprove.editsDelay": 1})) != 0 {
		t.Fatal("the old key is converted, not unknown")
	}
}

func TestResolveRecordsSources(t *testing.T) {
	r := Resolve(
		Layer{Source: "user file /x.json", Values: Values{"model": "a", "compact.threshold": 0.6, "apiKey": "sk-secret"}},
		Layer{Source: "environment", Values: Values{"model": "b"}},
		Layer{Source: "flag", Values: Values{"permissions.workspace.deny": []any{"Bash(rm *)"}, "nope": true}},
	)
	got := map[string]Entry{}
	for _, e := range r.Entries() {
		got[e.Key] = e
	}
	if got["model"].Value != "b" || got["model"].Source != "environment" || got["compact.threshold"].Source != "user file /x.json" {
		t.Fatalf("%+v %+v", got["model"], got["compact.threshold"])
	}
	if got["language"].Source != "default" || got["language"].Value != "auto" {
		t.Fatalf("%+v", got["language"])
	}
	if got["apiKey"].Value != "set" {
		t.Fatalf("a secret must show as set: %+v", got["apiKey"])
	}
	if got["permissions.workspace.deny"].Source != "flag" || !strings.Contains(got["nope"].Source, "unknown") {
		t.Fatalf("%+v %+v", got["permissions.workspace.deny"], got["nope"])
	}
	if len(r.Warnings) != 1 || !warned(r.Warnings, `"nope"`, "flag") {
		t.Fatalf("only the unknown key is warned about: %v", r.Warnings)
	}
}

// govibe.hooks is an object setting of the user's alone: a workspace's
// hooks setting is ignored with a warning, and a value that is no object
// is refused by Validate.
func TestHooksSettingIsUserOnlyObject(t *testing.T) {
	user := Values{"hooks": map[string]any{"Stop": []any{}}}
	out, warns := ApplyWorkspace(user, Values{"hooks": map[string]any{"SessionStart": []any{map[string]any{"hooks": []any{map[string]any{"command": "curl evil"}}}}}}, true)
	if _, ok := out.Object("hooks")["SessionStart"]; ok {
		t.Fatal("a workspace set hooks")
	}
	if !warned(warns, `"hooks"`, "only your user settings") {
		t.Fatalf("no warning: %v", warns)
	}
	if err := Validate("hooks", []any{"x"}); err == nil || !strings.Contains(err.Error(), "JSON object") {
		t.Fatalf("Validate: %v", err)
	}
	if err := Validate("hooks", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if m := Typed(Values{}).Hooks; m == nil || len(m) != 0 {
		t.Fatalf("default hooks %v", m)
	}
}

// A workspace may set a budget where the user has none, or lower the
// user's; it may never raise or remove it: both set, the lower applies.
func TestWorkspaceMayOnlyLowerABudget(t *testing.T) {
	for _, tt := range []struct {
		name     string
		user, ws Values
		money    float64
		tokens   int
		warned   bool
	}{
		{"workspace lower", Values{"cost.sessionBudget": 5.0, "cost.sessionTokenBudget": 100000.0},
			Values{"cost.sessionBudget": 2.0, "cost.sessionTokenBudget": 50000.0}, 2, 50000, false},
		{"workspace higher", Values{"cost.sessionBudget": 5.0, "cost.sessionTokenBudget": 100000.0},
			Values{"cost.sessionBudget": 50.0, "cost.sessionTokenBudget": 900000.0}, 5, 100000, true},
		{"workspace removes", Values{"cost.sessionBudget": 5.0}, Values{"cost.sessionBudget": 0.0}, 5, 0, true},
		{"user has none", Values{}, Values{"cost.sessionBudget": 3.0, "cost.sessionTokenBudget": 7000.0}, 3, 7000, false},
		{"user's zero is none", Values{"cost.sessionTokenBudget": 0.0}, Values{"cost.sessionTokenBudget": 7000.0}, 0, 7000, false},
		{"not a number", Values{"cost.sessionBudget": 5.0}, Values{"cost.sessionBudget": "lots"}, 5, 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			v, warns := ApplyWorkspace(tt.user, tt.ws, true)
			c := Typed(v).Cost
			if c.SessionBudget != tt.money || c.SessionTokenBudget != tt.tokens {
				t.Fatalf("budget %v, tokens %d; want %v, %d", c.SessionBudget, c.SessionTokenBudget, tt.money, tt.tokens)
			}
			if got := warned(warns, "cost.session", "never raise or remove it"); got != tt.warned {
				t.Fatalf("warned %v, want %v: %v", got, tt.warned, warns)
			}
		})
	}
}
