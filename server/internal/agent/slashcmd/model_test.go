package slashcmd

import "testing"

func TestModelTier(t *testing.T) {
	for name, want := range map[string]string{
		"haiku": TierSmall, "claude-3-5-haiku-20241022": TierSmall, "claude-haiku-4-5": TierSmall,
		"gemini-2.5-flash": TierSmall, "gemini-2.5-flash-lite": TierSmall, "gpt-4.1-mini": TierSmall, "o4-mini": TierSmall,
		"sonnet": TierMain, "opus": TierMain, "inherit": TierMain, "claude-sonnet-4-5-20250929": TierMain,
		"gemini-2.5-pro": TierMain, "gpt-4.1": TierMain, "deepseek-chat": TierMain, "minimax-m2": TierMain,
	} {
		if got := ModelTier(name); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
}
