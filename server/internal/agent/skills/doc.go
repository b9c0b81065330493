// Package skills finds and reads skills: folders holding a SKILL.md whose
// YAML frontmatter names and describes the skill and whose body is the
// instruction. Loading is lazy: only names and one-line descriptions reach
// the system prompt; the body and the folder's other files are read when
// the model asks for them, through a path sandbox rooted at the skill.
//
// # Manager
//
// Manager is the tools' tools.SkillHost (built by the engine's skills.go from
// ManagerOptions: home, roots, state dir, trust, session state, notices). The
// catalog is loaded lazily (lazyload.Loader) and reloaded on a trust change or
// /skills reload; only sorted names and one-line descriptions enter the system
// prompt, so its bytes do not change until a reload. Active skills live in
// session state (skills.active) and <state>/active-skills.json; skills/list
// and skills/setActive back the chat's skills picker (deactivating removes a
// skill from both lists). Untrusted, project skills, and compat-folder skills
// that carry scripts or allowedTools, are not loaded.
package skills
