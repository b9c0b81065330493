package llm

import (
	"net/url"
	"strings"
)

// Provider names understood by the client. They select wire quirks, not
// endpoints: every provider speaks OpenAI-compatible chat completions.
const (
	ProviderDeepSeek = "deepseek"
	ProviderOpenAI   = "openai"
	ProviderGeneric  = "generic"
)

// Profile is one configured model endpoint. It is a plain value: copy freely.
type Profile struct {
	Name            string
	BaseURL         string
	Model           string
	APIKey          string
	ContextWindow   int
	MaxOutputTokens int
	// Provider is "deepseek", "openai" or "generic"; empty means detect it
	// from BaseURL (see ResolvedProvider).
	Provider string
	// Prices are in currency units per million tokens.
	PriceInput       float64
	PriceCachedInput float64
	PriceOutput      float64
	// ReasoningEffort ("low", "medium", "high") is sent as reasoning_effort
	// when set; empty leaves the provider's default. Temperature is sent
	// when non-nil. Neither touches the messages, so switching them keeps
	// the prompt prefix (and the provider's cache) intact.
	ReasoningEffort string
	Temperature     *float64
	// Wire is the provider preset's conventions (headers, usage, reasoning
	// fields); the zero value suits most OpenAI-compatible servers.
	Wire Wire
}

// DefaultProfile is DeepSeek's reasoning model on its public endpoint.
func DefaultProfile() Profile {
	return Profile{
		Name:            "DeepSeek",
		BaseURL:         "https://api.deepseek.com",
		Model:           "deepseek-reasoner",
		ContextWindow:   128000,
		MaxOutputTokens: 32000,
		Provider:        ProviderDeepSeek,
	}
}

// ResolvedProvider returns Provider when set, otherwise the provider implied
// by the BaseURL's host. Unknown hosts (local servers, gateways) are generic:
// a gateway in front of DeepSeek does not necessarily forward its quirks.
func (p Profile) ResolvedProvider() string {
	if p.Provider != "" {
		return strings.ToLower(p.Provider)
	}
	u, err := url.Parse(p.BaseURL)
	if err != nil {
		return ProviderGeneric
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "deepseek.com" || strings.HasSuffix(host, ".deepseek.com"):
		return ProviderDeepSeek
	case host == "openai.com" || strings.HasSuffix(host, ".openai.com"):
		return ProviderOpenAI
	default:
		return ProviderGeneric
	}
}

// Priced reports whether the profile has prices at all: without them a
// request's cost is unknown and only its tokens are shown.
func (p Profile) Priced() bool {
	return p.PriceInput > 0 || p.PriceCachedInput > 0 || p.PriceOutput > 0
}

// Cost is the price of one request's usage. Cached prompt tokens are billed
// at PriceCachedInput (or PriceInput when that is zero).
func (p Profile) Cost(u Usage) float64 {
	cached := u.CachedTokens
	if cached > u.PromptTokens {
		cached = u.PromptTokens
	}
	cachedPrice := p.PriceCachedInput
	if cachedPrice == 0 {
		cachedPrice = p.PriceInput
	}
	fresh := u.PromptTokens - cached
	return (float64(fresh)*p.PriceInput + float64(cached)*cachedPrice + float64(u.CompletionTokens)*p.PriceOutput) / 1e6
}
