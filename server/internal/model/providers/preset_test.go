package providers

import (
	"strings"
	"testing"
)

func TestPresetTableIsConsistent(t *testing.T) {
	want := []string{"deepseek", "gemini", "groq", "llamacpp", "lmstudio", "mistral", "moonshot", "ollama", "openai", "openrouter", "qwen", "together", "vllm", "zhipu"}
	all := All()
	if len(all) != len(want) {
		t.Fatalf("got %d presets, want %d", len(all), len(want))
	}
	for i, p := range all {
		if p.ID != want[i] {
			t.Errorf("preset %d = %q, want %q", i, p.ID, want[i])
		}
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
	}
}

func TestGetUnknownPresetNamesTheChoices(t *testing.T) {
	if _, err := Get("DeepSeek"); err != nil {
		t.Fatalf("case-insensitive lookup: %v", err)
	}
	_, err := Get("anthropic")
	if err == nil || !strings.Contains(err.Error(), "openrouter") {
		t.Fatalf("err = %v, want one listing the presets", err)
	}
}

func TestPresetProfileFillsKnownModel(t *testing.T) {
	p, _ := Get("deepseek")
	prof := p.Profile("deepseek-reasoner", "k")
	if prof.ContextWindow != 128000 || prof.PriceCachedInput != 0.028 || prof.ResolvedProvider() != "deepseek" {
		t.Fatalf("profile = %+v", prof)
	}
	local, _ := Get("ollama")
	lp := local.Profile("qwen2.5-coder:7b", "")
	if lp.APIKey == "" || lp.ContextWindow != 0 {
		t.Fatalf("local profile = %+v: want a placeholder key and no guessed window", lp)
	}
}

func TestValidateRejectsBadEntries(t *testing.T) {
	good, _ := Get("openai")
	cases := map[string]func(p *Preset){
		"http hosted":     func(p *Preset) { p.BaseURL = "http://api.openai.com/v1" },
		"trailing slash":  func(p *Preset) { p.BaseURL += "/" },
		"bad quirks":      func(p *Preset) { p.Quirks = "anthropic" },
		"replay no field": func(p *Preset) { p.ReasoningReplay = ReplayToolTurns },
		"no key env":      func(p *Preset) { p.KeyEnv = "" },
		"cap over window": func(p *Preset) { p.Models = []Model{{ID: "m", ContextWindow: 10, MaxOutputTokens: 20}} },
		"dup model": func(p *Preset) {
			p.Models = []Model{{ID: "m", ContextWindow: 10, MaxOutputTokens: 5}, {ID: "m", ContextWindow: 10, MaxOutputTokens: 5}}
		},
	}
	for name, mut := range cases {
		p := good
		p.Models = append([]Model(nil), good.Models...)
		mut(&p)
		if err := p.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
