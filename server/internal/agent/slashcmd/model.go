package slashcmd

import (
	"regexp"
	"strings"
)

// A command's `model:` is usually written for the tool the file comes
// from: Claude Code's aliases (haiku, sonnet, opus, inherit) and model ids
// (claude-3-5-haiku-20241022), Gemini's (gemini-2.5-flash), OpenAI's.
// GoVibe talks to the user's own providers, so such a name is never sent
// as it is (a real endpoint would answer 404): the engine uses it only
// when one of the user's profiles or the provider's preset knows it, and
// otherwise maps it to a role by the tier it names (ModelTier).

// Model tiers a foreign model name may name.
const (
	// TierSmall is a small, fast model (haiku, flash, mini): GoVibe's
	// reviewer role is configured for that case.
	TierSmall = "small"
	// TierMain is the session's own model (sonnet, opus, inherit, a
	// large model of another vendor).
	TierMain = "main"
)

var smallModel = regexp.MustCompile(`(?i)(^|[-_.])(haiku|flash|flash-lite|mini|nano|lite|small)($|[-_.0-9])`)

// ModelTier is the tier a model name written for another tool names.
func ModelTier(name string) string {
	n := strings.TrimSpace(name)
	if smallModel.MatchString(n) {
		return TierSmall
	}
	return TierMain
}
