package providers

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/host/i18n"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/govibe/govibe/server/internal/model/providers/recorded"
)

// wire is each preset's recorded exchange (package recorded).
var wire = recorded.Exchanges

func TestEveryPresetHasAWireRecord(t *testing.T) {
	if recorded.Auth != KindAuth || recorded.RateLimit != KindRateLimit || recorded.UnknownModel != KindUnknownModel || recorded.ContextLength != KindContextLength {
		t.Fatal("package recorded's kinds are not this package's")
	}
	for _, p := range All() {
		if _, ok := wire[p.ID]; !ok {
			t.Errorf("preset %s has no recorded exchange", p.ID)
		}
	}
}

// TestProbeEachPreset probes the scripted server configured as each
// provider: its reasoning field, its cache-hit field, a tool offered, and
// stream_options only where the provider accepts it.
func TestProbeEachPreset(t *testing.T) {
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) {
			w := wire[p.ID]
			srv := scripted.Start(t)
			key := "sk-test"
			srv.SetConfig(scripted.Config{APIKey: key})
			reply := scripted.Reply{Text: "OK", Usage: &scripted.Usage{PromptTokens: 9, CompletionTokens: 1, CachedTokens: 8, CacheFields: w.CacheStyle}}
			if p.ReasoningField != "" {
				reply.Reasoning, reply.ReasoningField = "thinking", p.ReasoningField
			}
			srv.Enqueue(reply)
			res, err := Endpoint{Preset: p, BaseURL: srv.URL(), APIKey: key}.Probe(context.Background(), "m1")
			if err != nil {
				t.Fatal(err)
			}
			if !res.Streaming || !res.Tools || res.Reasoning != (p.ReasoningField != "") {
				t.Errorf("probe = %+v", res)
			}
			// The scripted server, like OpenAI, sends usage only when asked.
			if res.Usage != p.IncludeUsage || res.Cached != (p.IncludeUsage && p.CacheField != "") {
				t.Errorf("usage/cache = %v/%v for %+v", res.Usage, res.Cached, p)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			r := reqs[0]
			if !r.HasAuth || !r.Stream || r.IncludeUsage != p.IncludeUsage || len(r.Tools) != 1 || r.MaxTokens != 1 {
				t.Errorf("recorded request = %+v", r)
			}
			for k, v := range p.Headers {
				if got := r.Headers[http.CanonicalHeaderKey(k)]; got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestProviderErrorsSayWhatToDo replays each provider's error bodies
// through a real HTTP answer and checks the kind, the counts read from the
// message, and that the advice (en and zh-CN) names an action.
func TestProviderErrorsSayWhatToDo(t *testing.T) {
	actions := map[string][]string{
		KindContextLength: {"compact", "压缩"},
		KindRateLimit:     {"wait", "稍候"},
		KindAuth:          {"Add Model", "Add Model"},
		KindUnknownModel:  {"models list", "models list"},
	}
	for _, p := range All() {
		for _, pe := range wire[p.ID].Errors {
			srv := scripted.Start(t, scripted.Reply{Text: "x", Faults: []scripted.Fault{scripted.StatusFault(pe.Status, pe.Body)}})
			_, err := Endpoint{Preset: p, BaseURL: srv.URL(), APIKey: "k"}.Probe(context.Background(), "m1")
			e, ok := err.(*Error)
			if !ok {
				t.Errorf("%s %d: err = %v", p.ID, pe.Status, err)
				continue
			}
			if e.Kind != pe.Kind || e.Window != pe.Window || e.Requested != pe.Requested {
				t.Errorf("%s %d: got %s window=%d requested=%d, want %s %d %d (%s)", p.ID, pe.Status, e.Kind, e.Window, e.Requested, pe.Kind, pe.Window, pe.Requested, e.Detail)
			}
			for i, lang := range []i18n.Lang{i18n.English, i18n.Chinese} {
				if adv := e.Advice(lang); !strings.Contains(adv, actions[pe.Kind][i]) {
					t.Errorf("%s %s advice (%s) = %q", p.ID, pe.Kind, lang, adv)
				}
			}
		}
	}
}

func TestContextAdviceNamesBothCounts(t *testing.T) {
	e := Classify(400, []byte(`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","n_prompt_tokens":71000,"n_ctx":64000}}`))
	want := "This model's window is 64k; the request was 71k: compact or pick a larger model."
	if got := e.Advice(i18n.English); got != want {
		t.Fatalf("advice = %q, want %q", got, want)
	}
}

func TestListModels(t *testing.T) {
	srv := scripted.Start(t)
	p, _ := Get("vllm")
	ids, err := Endpoint{Preset: p, BaseURL: srv.URL()}.ListModels(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != "scripted" {
		t.Fatalf("ids = %v, err = %v", ids, err)
	}
	_, err = Endpoint{Preset: p, BaseURL: "http://127.0.0.1:1"}.ListModels(context.Background())
	if e, ok := err.(*Error); !ok || e.Kind != KindUnreachable {
		t.Fatalf("unreachable err = %v", err)
	}
}
