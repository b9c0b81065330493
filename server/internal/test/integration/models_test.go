package integration

import (
	"strings"
	"testing"

	"github.com/govibe/govibe/protocol"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestModelsMethods drives "Add Model"'s server side over the real sidecar:
// presets, the endpoint's model list, a probe, and a rejected key coming
// back as advice the user can act on.
func TestModelsMethods(t *testing.T) {
	modes(t, func(t *testing.T, bin string) {
		model := scripted.Start(t, scripted.Reply{Text: "OK", Reasoning: "r"})
		ed := connect(t, bin, model, nil)
		var pre protocol.ModelsPresetsResult
		if err := ed.Call("models/presets", nil, &pre); err != nil || len(pre.Presets) != 14 {
			t.Fatalf("presets = %d, err %v", len(pre.Presets), err)
		}
		ep := protocol.ModelsEndpointParams{Preset: "deepseek", BaseURL: model.URL(), APIKey: "sk-right"}
		var list protocol.ModelsListResult
		if err := ed.Call("models/list", ep, &list); err != nil || len(list.Models) != 1 || list.Models[0].ID != "scripted" {
			t.Fatalf("list = %+v, err %v", list, err)
		}
		var probe protocol.ModelsProbeResult
		if err := ed.Call("models/probe", protocol.ModelsProbeParams{Preset: ep.Preset, BaseURL: ep.BaseURL, APIKey: ep.APIKey, Model: "deepseek-chat"}, &probe); err != nil {
			t.Fatal(err)
		}
		if !probe.Streaming || !probe.Tools || !probe.Usage || !probe.Cached || !probe.Reasoning {
			t.Fatalf("probe = %+v", probe)
		}
		model.SetConfig(scripted.Config{APIKey: "sk-other"})
		err := ed.Call("models/probe", protocol.ModelsProbeParams{Preset: ep.Preset, BaseURL: ep.BaseURL, APIKey: ep.APIKey, Model: "deepseek-chat"}, &probe)
		if err == nil || !strings.Contains(err.Error(), "Add Model") {
			t.Fatalf("rejected key: err = %v", err)
		}
		if err := ed.Call("models/list", protocol.ModelsEndpointParams{Preset: "nope"}, &list); err == nil || !strings.Contains(err.Error(), "openrouter") {
			t.Fatalf("unknown preset: err = %v", err)
		}
		// A custom OpenAI-compatible endpoint: the user's URL, no preset.
		model.SetConfig(scripted.Config{})
		custom := protocol.ModelsEndpointParams{Preset: "custom", BaseURL: model.URL() + "/"}
		if err := ed.Call("models/list", custom, &list); err != nil || len(list.Models) != 1 || list.Models[0].ID != "scripted" {
			t.Fatalf("custom list = %+v, err %v", list, err)
		}
		if err := ed.Call("models/probe", protocol.ModelsProbeParams{Preset: "custom", BaseURL: model.URL(), Model: "scripted"}, &probe); err != nil || !probe.Streaming {
			t.Fatalf("custom probe = %+v, err %v", probe, err)
		}
		if err := ed.Call("models/list", protocol.ModelsEndpointParams{Preset: "custom"}, &list); err == nil || !strings.Contains(err.Error(), "base URL") {
			t.Fatalf("custom endpoint without a URL: err = %v", err)
		}
	})
}
