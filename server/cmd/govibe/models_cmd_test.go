package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

func TestModelsListAndProbe(t *testing.T) {
	srv := scripted.Start(t, scripted.Reply{Text: "OK", Reasoning: "hm"})
	srv.SetConfig(scripted.Config{APIKey: "sk-1"})
	t.Setenv("TEST_KEY", "sk-1")
	var out, errb bytes.Buffer
	if code := runModels([]string{"list", "--preset", "deepseek", "--base-url", srv.URL(), "--api-key-env", "TEST_KEY"}, &out, &errb); code != 0 {
		t.Fatalf("list: %d %s", code, errb.String())
	}
	if strings.TrimSpace(out.String()) != "scripted" {
		t.Fatalf("list out = %q", out.String())
	}
	out.Reset()
	if code := runModels([]string{"probe", "--preset", "deepseek", "--base-url", srv.URL(), "--api-key-env", "TEST_KEY", "--model", "deepseek-chat", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("probe: %d %s", code, errb.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || res["streaming"] != true || res["tools"] != true || res["usage"] != true || res["cached"] != true || res["reasoning"] != true {
		t.Fatalf("probe = %s (%v)", out.String(), err)
	}
}

func TestModelsBadInput(t *testing.T) {
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{APIKey: "right"})
	t.Setenv("TEST_KEY", "wrong")
	t.Setenv("DEEPSEEK_API_KEY", "")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"delete"}, 2, "unknown subcommand"},
		{[]string{"list"}, 2, "--preset is required"},
		{[]string{"list", "--preset", "nope"}, 2, "use one of"},
		{[]string{"list", "--preset", "deepseek"}, 2, "DEEPSEEK_API_KEY"},
		{[]string{"probe", "--preset", "ollama"}, 2, "--model is required"},
		{[]string{"probe", "--preset", "deepseek", "--model", "m", "--base-url", srv.URL(), "--api-key-env", "TEST_KEY"}, 1, "Add Model"},
	} {
		var out, errb bytes.Buffer
		code := runModels(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: code %d, stderr %q; want %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}

// TestModelsListWithoutAList: a provider without GET /models lists the
// models GoVibe knows for it, says so on stderr, and shows no $0 price
// for a model whose price is unknown.
func TestModelsListWithoutAList(t *testing.T) {
	srv := scripted.Start(t)
	srv.SetConfig(scripted.Config{ModelsStatus: 404, ModelsBody: `{"error":{"message":"Not Found"}}`})
	t.Setenv("TEST_KEY", "k")
	var out, errb bytes.Buffer
	if code := runModels([]string{"list", "--preset", "zhipu", "--base-url", srv.URL(), "--api-key-env", "TEST_KEY"}, &out, &errb); code != 0 {
		t.Fatalf("list: %d %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "has no model list") {
		t.Errorf("stderr = %q", errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "glm-4.6\twindow 200k") || !strings.Contains(lines[0], "$0.6/$2.2") || !strings.Contains(lines[1], "$0.6/$2.2") {
		t.Fatalf("list out = %q", out.String())
	}
	// Qwen's prices are tiered, so the preset has none: no "$0" is shown.
	out.Reset()
	if code := runModels([]string{"list", "--preset", "qwen", "--base-url", srv.URL(), "--api-key-env", "TEST_KEY"}, &out, &errb); code != 0 {
		t.Fatalf("list qwen: %d %s", code, errb.String())
	}
	if !strings.HasPrefix(out.String(), "qwen-plus\twindow 131k") || strings.Contains(out.String(), "$") {
		t.Fatalf("qwen list out = %q", out.String())
	}
}
