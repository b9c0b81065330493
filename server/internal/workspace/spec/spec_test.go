package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func put(t *testing.T, root, rel, s string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

const currentSpec = `# Auth

## Requirements

### Requirement: Login
The system SHALL let a user log in with email and password.

#### Scenario: Valid credentials
- WHEN a user submits valid credentials
- THEN a session is created

### Requirement: Logout
The system SHALL end the session on logout.

#### Scenario: Logout
- WHEN the user logs out
- THEN the session ends
`

func validChange(t *testing.T) string {
	root := t.TempDir()
	put(t, root, "specs/auth/spec.md", currentSpec)
	put(t, root, "changes/add-2fa/proposal.md", "# Add 2FA\n\n## Why\nSecurity.\n\n## What Changes\n- TOTP\n")
	put(t, root, "changes/add-2fa/tasks.md", "## 1. Backend\n- [ ] 1.1 Add TOTP secret\n- [x] 1.2 Migrations\n")
	put(t, root, "changes/add-2fa/specs/auth/spec.md", `## ADDED Requirements

### Requirement: Two-factor login
Users with 2FA enabled MUST enter a code after their password.

#### Scenario: Code required
- WHEN a 2FA user logs in with a valid password
- THEN the system asks for a code

## MODIFIED Requirements

### Requirement: Login
The system SHALL let a user log in with email and password, then a code when 2FA is on.

#### Scenario: Valid credentials
- WHEN a user submits valid credentials
- THEN a session is created

## RENAMED Requirements
- FROM: Logout TO: Sign out
`)
	return root
}

func TestValidChange(t *testing.T) {
	if ps := ValidateChange(validChange(t), "add-2fa"); len(ps) != 0 {
		t.Fatalf("a valid change has problems: %v", ps)
	}
}

func TestInvalidChanges(t *testing.T) {
	root := validChange(t)
	put(t, root, "changes/add-2fa/specs/auth/spec.md", `## ADDED Requirements

### Requirement: Login
Already exists, and says should.

### Scenario: Wrong level
- WHEN x
- THEN y

## MODIFIED Requirements

### Requirement: Ghost
The system SHALL haunt.

#### Scenario: No then
- WHEN it haunts

## Notes
free text

## RENAMED Requirements
- FROM: Nothing TO: Something
`)
	os.Remove(filepath.Join(root, "changes/add-2fa/tasks.md"))
	put(t, root, "changes/add-2fa/proposal.md", "# x\n## Why\n")
	ps := ValidateChange(root, "add-2fa")
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		`proposal.md: missing the section "## What Changes"`,
		"tasks.md: missing",
		`spec.md:3: requirement "Login" already exists`,
		`spec.md:3: requirement "Login" needs a SHALL or MUST`,
		`spec.md:6: a scenario is '#### Scenario`,
		`spec.md:12: requirement "Ghost" is not in specs/auth/spec.md`,
		`spec.md:15: a scenario is '#### Scenario`,
		`spec.md:18: unknown section "## Notes"`,
		`rename FROM "Nothing"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if ps := ValidateChange(root, "../etc"); len(ps) != 1 || !strings.Contains(ps[0].Message, "kebab-case") {
		t.Fatalf("bad id: %v", ps)
	}
	if ps := ValidateChange(root, "no-such-change"); len(ps) != 1 || !strings.Contains(ps[0].Message, "no such change") {
		t.Fatalf("missing change: %v", ps)
	}
}
