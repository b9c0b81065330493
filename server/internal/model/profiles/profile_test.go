package profiles

import (
	"testing"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
)

func TestResolveProfileAppliesThePresetWire(t *testing.T) {
	v := config.Values{
		"model": "or",
		"models": []any{
			map[string]any{"name": "or", "preset": "openrouter", "baseUrl": "http://127.0.0.1:9/v1", "model": "x/y"},
			map[string]any{"name": "kimi", "baseUrl": "https://api.moonshot.cn/v1", "model": "kimi-k2"},
			map[string]any{"name": "local", "baseUrl": "http://127.0.0.1:9/v1", "model": "q"},
			map[string]any{"name": "typo", "preset": "deepsek", "baseUrl": "https://api.deepseek.com", "model": "deepseek-chat"},
		},
	}
	// A named preset wins over the host: a tunnel to OpenRouter keeps its
	// headers.
	p := resolve(v, nil)
	if p.Wire.Headers["HTTP-Referer"] == "" || p.Wire.ReasoningField != "reasoning" || p.Provider != llm.ProviderGeneric {
		t.Errorf("openrouter profile wire = %+v provider %q", p.Wire, p.Provider)
	}
	// No preset named: the hosted preset is found from the base URL.
	p = resolve(v.Merge(config.Values{"model": "kimi"}), nil)
	if p.Wire.CacheField != llm.CacheFieldMoonshot || p.Wire.ReasoningReplay != llm.ReplayToolTurns {
		t.Errorf("moonshot profile wire = %+v", p.Wire)
	}
	// A local server without a preset keeps the client's defaults.
	p = resolve(v.Merge(config.Values{"model": "local"}), nil)
	if p.Wire.CacheField != "" || p.Wire.NoStreamUsage || len(p.Wire.Headers) != 0 || p.Provider != "" {
		t.Errorf("local profile wire = %+v provider %q", p.Wire, p.Provider)
	}
	// A misspelt preset falls back to the host.
	p = resolve(v.Merge(config.Values{"model": "typo"}), nil)
	if p.Provider != llm.ProviderDeepSeek || p.Wire.CacheField != llm.CacheFieldDeepSeek {
		t.Errorf("typo profile = %+v provider %q", p.Wire, p.Provider)
	}
}

// TestHandWrittenProfileTakesThePresetsFigures: a profile naming a preset
// and a model it knows gets that model's window, output cap and prices
// when it sets none; figures the profile sets win; an unknown model keeps
// the settings' defaults.
func TestHandWrittenProfileTakesThePresetsFigures(t *testing.T) {
	v := config.Values{
		"model": "glm", "contextWindow": float64(64000),
		"models": []any{
			map[string]any{"name": "glm", "preset": "zhipu", "model": "glm-4.5"},
			map[string]any{"name": "own", "preset": "zhipu", "model": "glm-4.5", "contextWindow": float64(32000), "priceOutput": float64(9)},
			map[string]any{"name": "new", "preset": "zhipu", "model": "glm-9"},
		},
	}
	p := resolve(v, nil)
	if p.ContextWindow != 128000 || p.MaxOutputTokens != 96000 || p.PriceInput != 0.6 || p.PriceCachedInput != 0.11 || p.PriceOutput != 2.2 {
		t.Errorf("glm-4.5 from the preset: %+v", p.Profile)
	}
	p = resolve(v.Merge(config.Values{"model": "own"}), nil)
	if p.ContextWindow != 32000 || p.MaxOutputTokens != 96000 || p.PriceOutput != 9 || p.PriceInput != 0 {
		t.Errorf("the profile's own figures: %+v", p.Profile)
	}
	p = resolve(v.Merge(config.Values{"model": "new"}), nil)
	if p.ContextWindow != 64000 {
		t.Errorf("an unknown model's window = %d, want the setting's 64000", p.ContextWindow)
	}
}
