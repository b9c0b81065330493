package server

import (
	"context"
	"errors"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/providers"
)

// The models/* methods need no engine: "Add Model" runs before a profile
// (or a key) exists. The key arrives in the params and is not kept.

func (s *Server) ModelsPresets(ctx context.Context) (*protocol.ModelsPresetsResult, error) {
	out := &protocol.ModelsPresetsResult{Presets: []protocol.ModelPreset{}}
	for _, p := range providers.All() {
		out.Presets = append(out.Presets, protocol.ModelPreset{ID: p.ID, Name: p.Name, BaseURL: p.BaseURL, Local: p.Local, KeyEnv: p.KeyEnv, ReasoningEffort: p.ReasoningEffort})
	}
	return out, nil
}

func (s *Server) endpoint(p *protocol.ModelsEndpointParams) (providers.Endpoint, error) {
	get := providers.Get
	if p.Preset == providers.CustomID {
		// A custom OpenAI-compatible endpoint: no preset, the user's URL.
		get = func(string) (providers.Preset, error) { return providers.Custom(p.BaseURL) }
	}
	pr, err := get(p.Preset)
	if err != nil {
		return providers.Endpoint{}, protocol.Errorf(protocol.CodeInvalidParams, "%s", err.Error())
	}
	return providers.Endpoint{Preset: pr, BaseURL: p.BaseURL, APIKey: p.APIKey}, nil
}

func (s *Server) providerErr(err error) error {
	var pe *providers.Error
	if errors.As(err, &pe) {
		return &protocol.Error{Code: protocol.CodeInternalError, Message: pe.Advice(s.lang), Data: map[string]any{"kind": pe.Kind, "status": pe.Status}}
	}
	return protocol.Errorf(protocol.CodeInternalError, "%s", err.Error())
}

func (s *Server) ModelsList(ctx context.Context, p *protocol.ModelsEndpointParams) (*protocol.ModelsListResult, error) {
	ep, err := s.endpoint(p)
	if err != nil {
		return nil, err
	}
	models, fromPreset, err := ep.Models(ctx)
	if err != nil {
		return nil, s.providerErr(err)
	}
	out := &protocol.ModelsListResult{Models: []protocol.ModelInfo{}, FromPreset: fromPreset}
	for _, m := range models {
		out.Models = append(out.Models, protocol.ModelInfo{ID: m.ID, ContextWindow: m.ContextWindow, MaxOutputTokens: m.MaxOutputTokens,
			PriceInput: m.PriceInput, PriceCachedInput: m.PriceCachedInput, PriceOutput: m.PriceOutput})
	}
	return out, nil
}

func (s *Server) ModelsProbe(ctx context.Context, p *protocol.ModelsProbeParams) (*protocol.ModelsProbeResult, error) {
	if p.Model == "" {
		return nil, protocol.Errorf(protocol.CodeInvalidParams, "models/probe needs a model")
	}
	ep, err := s.endpoint(&protocol.ModelsEndpointParams{Preset: p.Preset, BaseURL: p.BaseURL, APIKey: p.APIKey})
	if err != nil {
		return nil, err
	}
	r, err := ep.Probe(ctx, p.Model)
	if err != nil {
		return nil, s.providerErr(err)
	}
	return &protocol.ModelsProbeResult{Streaming: r.Streaming, Tools: r.Tools, Usage: r.Usage, Cached: r.Cached, Reasoning: r.Reasoning, ToolsError: r.ToolsError}, nil
}
