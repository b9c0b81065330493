package providers

import (
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/govibe/govibe/server/internal/model/llm"
)

// Replay rules say what to do with a reasoning field the model sent when
// the assistant message is replayed in a later request.
// The llm client applies them (llm.Wire.ReasoningReplay).
const (
	ReplayNever     = llm.ReplayNever
	ReplayToolTurns = llm.ReplayToolTurns
)

// Model is one model a preset knows about. Zero prices mean "unknown or
// free" (local servers); a zero window means "ask the user".
type Model struct {
	ID              string
	ContextWindow   int
	MaxOutputTokens int
	// Prices are USD per million tokens, as the provider lists them.
	PriceInput       float64
	PriceCachedInput float64
	PriceOutput      float64
	// Reasoning marks models that think before answering (a reasoning field
	// in the stream, or hidden reasoning tokens).
	Reasoning bool
}

// Preset describes one provider's OpenAI-compatible endpoint.
type Preset struct {
	ID   string // stable key, used in settings ("preset": "deepseek")
	Name string // shown in the picker
	// BaseURL is the chat-completions base (…/chat/completions and
	// …/models are appended).
	BaseURL string
	// AltBaseURLs are other regions of the same service.
	AltBaseURLs []string
	// Local endpoints need no key; a placeholder bearer token is sent.
	Local bool
	// KeyEnv is the environment variable the provider's own SDKs read.
	KeyEnv string
	// Headers are optional extra headers the provider documents (e.g.
	// OpenRouter's attribution headers). Authorization is always
	// "Bearer <key>".
	Headers map[string]string
	// Quirks selects the llm client's wire quirks (llm.Provider*).
	Quirks string
	// CacheField is where the usage object reports cached prompt tokens
	// (a gjson path inside "usage"); empty when the provider reports none.
	CacheField string
	// ReasoningField is the delta field carrying visible reasoning text;
	// empty when reasoning is hidden or absent.
	ReasoningField  string
	ReasoningReplay string
	// ReasoningEffort: the endpoint accepts "reasoning_effort".
	ReasoningEffort bool
	// Thinking is the provider's own reasoning controls for a profile's
	// reasoningEffort (llm.ThinkingDeepSeek, llm.ThinkingQwen).
	Thinking string
	// ToolCallExtra: tool calls carry extra_content (Gemini's thought
	// signature) that must come back with them.
	ToolCallExtra bool
	// Tools: the endpoint accepts "tools" (for models that support them).
	Tools bool
	// IncludeUsage: the endpoint accepts stream_options.include_usage. When
	// false GoVibe leaves the option out (some endpoints reject unknown
	// fields) and reads usage from whatever chunk carries it.
	IncludeUsage bool
	// ModelsPath lists models (GET, relative to BaseURL).
	ModelsPath string
	Models     []Model
	// DocsURL is where the conventions above are documented.
	DocsURL string
}

// Model returns the preset's known model with id, if any.
func (p Preset) Model(id string) (Model, bool) {
	for _, m := range p.Models {
		if m.ID == id {
			return m, true
		}
	}
	return Model{}, false
}

// Profile builds an llm profile for model on this preset, filling window
// and prices from the known-model table.
func (p Preset) Profile(model, key string) llm.Profile {
	prof := llm.Profile{
		Name:     p.Name + " " + model,
		BaseURL:  p.BaseURL,
		Model:    model,
		APIKey:   key,
		Provider: p.Quirks,
	}
	if m, ok := p.Model(model); ok {
		prof.ContextWindow = m.ContextWindow
		prof.MaxOutputTokens = m.MaxOutputTokens
		prof.PriceInput = m.PriceInput
		prof.PriceCachedInput = m.PriceCachedInput
		prof.PriceOutput = m.PriceOutput
	}
	if p.Local && prof.APIKey == "" {
		prof.APIKey = "local"
	}
	prof.Wire = p.Wire()
	return prof
}

// Wire is the preset's conventions in the form the llm client follows.
func (p Preset) Wire() llm.Wire {
	w := llm.Wire{
		ReasoningField:    p.ReasoningField,
		ReasoningReplay:   p.ReasoningReplay,
		CacheField:        p.CacheField,
		NoStreamUsage:     !p.IncludeUsage,
		NoReasoningEffort: !p.ReasoningEffort,
		ToolCallExtra:     p.ToolCallExtra,
		Thinking:          p.Thinking,
	}
	if len(p.Headers) > 0 {
		w.Headers = make(map[string]string, len(p.Headers))
		for k, v := range p.Headers {
			w.Headers[k] = v
		}
	}
	return w
}

// Detect finds the hosted preset whose base URL (or a regional
// alternative) has baseURL's host, so a profile written by hand before
// presets existed still gets its provider's conventions. Local presets are
// never detected: a port on localhost says nothing about the server.
func Detect(baseURL string) (Preset, bool) {
	host := hostOf(baseURL)
	if host == "" {
		return Preset{}, false
	}
	for _, p := range table {
		if p.Local {
			continue
		}
		for _, u := range append([]string{p.BaseURL}, p.AltBaseURLs...) {
			if hostOf(u) == host {
				return p, true
			}
		}
	}
	return Preset{}, false
}

func hostOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// All returns every preset, ordered by ID.
func All() []Preset {
	out := make([]Preset, len(table))
	copy(out, table)
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Get finds a preset by ID (case-insensitive).
func Get(id string) (Preset, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	for _, p := range table {
		if p.ID == id {
			return p, nil
		}
	}
	ids := make([]string, 0, len(table))
	for _, p := range All() {
		ids = append(ids, p.ID)
	}
	return Preset{}, fmt.Errorf("unknown provider preset %q: use one of %s", id, strings.Join(ids, ", "))
}

// Validate checks a preset's internal consistency; the table test runs it
// on every entry.
func (p Preset) Validate() error {
	switch {
	case p.ID == "" || p.Name == "":
		return fmt.Errorf("preset without id or name")
	case !strings.HasPrefix(p.BaseURL, "https://") && !(p.Local && strings.HasPrefix(p.BaseURL, "http://")):
		return fmt.Errorf("%s: base URL %q must be https (http only for local servers)", p.ID, p.BaseURL)
	case strings.HasSuffix(p.BaseURL, "/"):
		return fmt.Errorf("%s: base URL ends with /", p.ID)
	case p.Quirks != llm.ProviderDeepSeek && p.Quirks != llm.ProviderOpenAI && p.Quirks != llm.ProviderGeneric:
		return fmt.Errorf("%s: unknown quirks %q", p.ID, p.Quirks)
	case p.ReasoningReplay != ReplayNever && p.ReasoningReplay != ReplayToolTurns:
		return fmt.Errorf("%s: unknown reasoning replay rule %q", p.ID, p.ReasoningReplay)
	case p.ReasoningField == "" && p.ReasoningReplay != ReplayNever:
		return fmt.Errorf("%s: replays a reasoning field it does not have", p.ID)
	case p.ModelsPath == "":
		return fmt.Errorf("%s: no models path", p.ID)
	case !p.Local && p.KeyEnv == "":
		return fmt.Errorf("%s: hosted preset without a key variable", p.ID)
	}
	seen := map[string]bool{}
	for _, m := range p.Models {
		if m.ID == "" || seen[m.ID] {
			return fmt.Errorf("%s: empty or duplicate model id %q", p.ID, m.ID)
		}
		seen[m.ID] = true
		if m.ContextWindow <= 0 || m.MaxOutputTokens <= 0 || m.MaxOutputTokens > m.ContextWindow {
			return fmt.Errorf("%s/%s: window %d and output cap %d do not fit", p.ID, m.ID, m.ContextWindow, m.MaxOutputTokens)
		}
		if m.PriceCachedInput > m.PriceInput {
			return fmt.Errorf("%s/%s: cached input costs more than input", p.ID, m.ID)
		}
	}
	return nil
}

// CustomID names a custom OpenAI-compatible endpoint in models/list and
// models/probe: no preset, the user's base URL.
const CustomID = "custom"

// Custom is the preset of an endpoint GoVibe has no table entry for, at
// baseURL (http or https: a server on the user's network need not have a
// certificate). It follows the OpenAI API without assumptions: tools are
// offered (the probe says whether they work), usage is read from whatever
// chunk carries it without asking for it (some servers reject the unknown
// stream_options), and no key is sent when none is given.
func Custom(baseURL string) (Preset, error) {
	raw := strings.TrimRight(strings.TrimSpace(baseURL), "/")
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return Preset{}, fmt.Errorf("a custom endpoint needs its base URL (…/v1, where /chat/completions is found)")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return Preset{}, fmt.Errorf("the base URL %q is not an http:// or https:// address", baseURL)
	}
	return Preset{ID: CustomID, Name: u.Host, BaseURL: raw, Quirks: llm.ProviderGeneric, Tools: true, ModelsPath: "/models"}, nil
}
