package profiles

import (
	"cmp"

	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/providers"
)

// Profile is a resolved model profile plus GoVibe's own options: the
// tool-call protocol and the tool profile.
type Profile struct {
	llm.Profile
	ToolCalling string
	// ToolProfile restricts the tools offered (agent.ParseToolProfile).
	ToolProfile string
}

// resolve picks the profile named by govibe.model from
// govibe.models, else builds one from apiBaseUrl/model. Keys come from
// SecretStorage (keys), falling back to a key in plain settings.
func resolve(v config.Values, keys map[string]string) Profile {
	def := llm.DefaultProfile()
	p := Profile{Profile: def}
	p.BaseURL = cmp.Or(config.Typed(v).APIBaseURL, def.BaseURL)
	p.Model = cmp.Or(config.Typed(v).Model, def.Model)
	p.ContextWindow = firstPositive(config.Typed(v).ContextWindow, def.ContextWindow)
	p.MaxOutputTokens = firstPositive(config.Typed(v).MaxOutputTokens, def.MaxOutputTokens)
	p.Name = ""
	presetID := ""
	var entry *config.ModelProfile // the govibe.models entry in use, if any
	for _, mp := range config.Typed(v).ModelProfiles() {
		if mp.Name != p.Model && mp.Model != p.Model {
			continue
		}
		entry = &mp
		p.Name = mp.Name
		p.BaseURL = cmp.Or(mp.BaseURL, p.BaseURL)
		p.Model = cmp.Or(mp.Model, p.Model)
		p.ContextWindow = firstPositive(mp.ContextWindow, p.ContextWindow)
		p.MaxOutputTokens = firstPositive(mp.MaxOutputTokens, p.MaxOutputTokens)
		p.ToolCalling = mp.ToolCalling
		p.ToolProfile = mp.ToolProfile
		presetID = mp.Preset
		p.PriceInput = mp.PriceInput
		p.PriceCachedInput = mp.PriceCachedInput
		p.PriceOutput = mp.PriceOutput
		p.ReasoningEffort = mp.ReasoningEffort
		p.Temperature = mp.Temperature
		if mp.APIKey != "" {
			p.APIKey = mp.APIKey
		}
		break
	}
	if p.Name != "" && keys[p.Name] != "" {
		p.APIKey = keys[p.Name]
	} else if keys[""] != "" {
		p.APIKey = keys[""]
	} else if p.APIKey == "" {
		p.APIKey = config.Typed(v).APIKey
	}
	p.Provider = ""
	if pr, ok := applyPreset(&p, presetID); ok && entry != nil {
		fillFromPreset(&p, pr, entry)
	}
	return p
}

// fillFromPreset gives a profile written by hand ({"preset": "zhipu",
// "model": "glm-4.6"}) the window, output cap and prices its preset knows
// for the model, where the entry sets none: govibe.contextWindow's default
// is no figure for that model. What the entry sets always wins.
func fillFromPreset(p *Profile, pr providers.Preset, entry *config.ModelProfile) {
	m, ok := pr.Model(p.Model)
	if !ok {
		return
	}
	if entry.ContextWindow <= 0 {
		p.ContextWindow = m.ContextWindow
	}
	if entry.MaxOutputTokens <= 0 {
		p.MaxOutputTokens = m.MaxOutputTokens
	}
	if entry.PriceInput == 0 && entry.PriceCachedInput == 0 && entry.PriceOutput == 0 {
		p.PriceInput, p.PriceCachedInput, p.PriceOutput = m.PriceInput, m.PriceCachedInput, m.PriceOutput
	}
}

// applyPreset gives p its provider's wire conventions: the preset the
// profile names (Add Model writes it), else the hosted preset its base URL
// belongs to. Without one the client keeps its defaults (quirks detected
// from the host). An unknown preset name is ignored, as the quirks still
// work without it.
func applyPreset(p *Profile, id string) (providers.Preset, bool) {
	pr, err := providers.Get(id)
	if id == "" || err != nil {
		var ok bool
		if pr, ok = providers.Detect(p.BaseURL); !ok {
			return providers.Preset{}, false
		}
	}
	p.Wire = pr.Wire()
	p.Provider = pr.Quirks
	return pr, true
}

func firstPositive(xs ...int) int {
	for _, x := range xs {
		if x > 0 {
			return x
		}
	}
	return 0
}
