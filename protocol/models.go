package protocol

// ModelPreset is one provider preset, as "Add Model" offers it.
type ModelPreset struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	BaseURL string `json:"baseUrl"`
	Local   bool   `json:"local"`
	KeyEnv  string `json:"keyEnv,omitempty"`
	// ReasoningEffort: the endpoint accepts reasoning_effort.
	ReasoningEffort bool `json:"reasoningEffort"`
}

type ModelsPresetsResult struct {
	Presets []ModelPreset `json:"presets"`
}

// ModelsEndpointParams names an endpoint: a preset, optionally another base
// URL (a region, a local port) and the key (from SecretStorage; never
// stored by the sidecar). Preset "custom" is an OpenAI-compatible endpoint
// GoVibe has no preset for: BaseURL is then required.
type ModelsEndpointParams struct {
	Preset  string `json:"preset"`
	BaseURL string `json:"baseUrl,omitempty"`
	APIKey  string `json:"apiKey,omitempty"`
}

// ModelInfo is one model the endpoint lists, with its window from the list
// itself where the list says (Groq, OpenRouter, Together, vLLM) and what
// the preset knows.
type ModelInfo struct {
	ID               string  `json:"id"`
	ContextWindow    int     `json:"contextWindow,omitempty"`
	MaxOutputTokens  int     `json:"maxOutputTokens,omitempty"`
	PriceInput       float64 `json:"priceInput,omitempty"`
	PriceCachedInput float64 `json:"priceCachedInput,omitempty"`
	PriceOutput      float64 `json:"priceOutput,omitempty"`
}

type ModelsListResult struct {
	Models []ModelInfo `json:"models"`
	// FromPreset: the endpoint has no model list (or none that answered
	// 404); these are the models the preset knows.
	FromPreset bool `json:"fromPreset,omitempty"`
}

// ModelsProbeParams is ModelsEndpointParams plus the model (flat: the
// TypeScript generator does not flatten embedded structs).
type ModelsProbeParams struct {
	Preset  string `json:"preset"`
	BaseURL string `json:"baseUrl,omitempty"`
	APIKey  string `json:"apiKey,omitempty"`
	Model   string `json:"model"`
}

// ModelsProbeResult says what one one-token request showed.
type ModelsProbeResult struct {
	Streaming  bool   `json:"streaming"`
	Tools      bool   `json:"tools"`
	Usage      bool   `json:"usage"`
	Cached     bool   `json:"cached"`
	Reasoning  bool   `json:"reasoning"`
	ToolsError string `json:"toolsError,omitempty"`
}
