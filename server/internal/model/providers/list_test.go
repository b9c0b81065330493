package providers

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestModelsTakeWindowsFromTheList: Groq's context_window and
// max_completion_tokens, OpenRouter's and Together's context_length and
// vLLM's max_model_len fill the window; the list's figure wins over the
// table, whose prices stay.
func TestModelsTakeWindowsFromTheList(t *testing.T) {
	for _, tc := range []struct {
		preset, body, id string
		window, output   int
		price            float64
	}{
		{"groq", `{"object":"list","data":[{"id":"llama-3.3-70b-versatile","object":"model","context_window":131072,"max_completion_tokens":32768}]}`, "llama-3.3-70b-versatile", 131072, 32768, 0.59},
		{"openrouter", `{"data":[{"id":"qwen/qwen3-coder","context_length":262144,"top_provider":{"max_completion_tokens":65536}}]}`, "qwen/qwen3-coder", 262144, 65536, 0},
		{"together", `{"object":"list","data":[{"id":"openai/gpt-oss-120b","context_length":128000}]}`, "openai/gpt-oss-120b", 128000, 0, 0},
		{"vllm", `{"object":"list","data":[{"id":"Qwen/Qwen3-8B","object":"model","max_model_len":32768}]}`, "Qwen/Qwen3-8B", 32768, 0, 0},
		// An output cap larger than the window is ignored, not trusted.
		{"vllm", `{"data":[{"id":"m","max_model_len":4096,"max_completion_tokens":8192}]}`, "m", 4096, 0, 0},
	} {
		p, _ := Get(tc.preset)
		srv := scripted.Start(t)
		srv.SetConfig(scripted.Config{ModelsBody: tc.body})
		ms, fromPreset, err := Endpoint{Preset: p, BaseURL: srv.URL(), APIKey: "k"}.Models(context.Background())
		if err != nil || fromPreset || len(ms) != 1 {
			t.Fatalf("%s: %+v %v %v", tc.preset, ms, fromPreset, err)
		}
		m := ms[0]
		if m.ID != tc.id || m.ContextWindow != tc.window || m.MaxOutputTokens != tc.output || m.PriceInput != tc.price {
			t.Errorf("%s: %+v, want window %d output %d price %v", tc.preset, m, tc.window, tc.output, tc.price)
		}
	}
}

// TestModelsFallBackToThePresetWithoutAList: an endpoint without GET
// /models (404) still offers the preset's models; a rejected key, a
// garbled list without known models, or an unreachable server stays an
// error.
func TestModelsFallBackToThePresetWithoutAList(t *testing.T) {
	zhipu, _ := Get("zhipu")
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{ModelsStatus: 404, ModelsBody: `{"error":{"code":"404","message":"Not Found"}}`})
	ms, fromPreset, err := Endpoint{Preset: zhipu, BaseURL: srv.URL(), APIKey: "k"}.Models(context.Background())
	if err != nil || !fromPreset || len(ms) != len(zhipu.Models) || ms[0].ContextWindow == 0 {
		t.Fatalf("404 list: %+v %v %v", ms, fromPreset, err)
	}

	srv.SetConfig(scripted.Config{ModelsStatus: 401, ModelsBody: `{"error":{"code":"1000","message":"Authentication Failed"}}`})
	if _, _, err := (Endpoint{Preset: zhipu, BaseURL: srv.URL(), APIKey: "k"}).Models(context.Background()); err == nil {
		t.Fatal("a rejected key was read as a missing list")
	} else if e, ok := err.(*Error); !ok || e.Kind != KindAuth {
		t.Fatalf("401: %v", err)
	}

	ollama, _ := Get("ollama") // knows no models: nothing to fall back to
	srv.SetConfig(scripted.Config{ModelsBody: `<html>not json</html>`})
	if _, _, err := (Endpoint{Preset: ollama, BaseURL: srv.URL()}).Models(context.Background()); err == nil {
		t.Fatal("a garbled list with no known models was accepted")
	}

	if _, _, err := (Endpoint{Preset: zhipu, BaseURL: "http://127.0.0.1:1", APIKey: "k"}).Models(context.Background()); err == nil {
		t.Fatal("an unreachable server was read as a missing list")
	} else if e, ok := err.(*Error); !ok || e.Kind != KindUnreachable {
		t.Fatalf("unreachable: %v", err)
	}
}

// TestCustomEndpoint: an endpoint without a preset is listed and probed at
// the user's base URL (a pasted trailing slash is dropped), without a key
// when none is given; a missing or non-http URL is refused with a reason.
func TestCustomEndpoint(t *testing.T) {
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{ModelsBody: `{"object":"list","data":[{"id":"my-model"}]}`})
	p, err := Custom(srv.URL() + "/")
	if err != nil || p.ID != CustomID || p.BaseURL != srv.URL() {
		t.Fatalf("Custom(%q) = %+v, %v", srv.URL()+"/", p, err)
	}
	ms, fromPreset, err := Endpoint{Preset: p}.Models(context.Background())
	if err != nil || fromPreset || len(ms) != 1 || ms[0].ID != "my-model" {
		t.Fatalf("custom list: %+v %v %v", ms, fromPreset, err)
	}
	for _, bad := range []string{"", "  ", "ftp://host/v1", "localhost:8000/v1", "http://"} {
		if _, err := Custom(bad); err == nil {
			t.Errorf("Custom(%q) accepted", bad)
		}
	}
}
