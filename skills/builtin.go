// Package skills ships GoVibe's built-in skills. Each folder holds a
// SKILL.md (YAML frontmatter: name, description; body: the instruction)
// and any files the skill reads on demand. They are embedded in the
// sidecar binary, so a skill is the same wherever GoVibe runs.
package skills

import "embed"

// FS holds every built-in skill folder.
//
//go:embed */SKILL.md spec-driven/*.md
var FS embed.FS
