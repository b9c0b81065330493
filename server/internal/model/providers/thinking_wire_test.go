package providers

import (
	"context"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
)

// TestEachPresetSendsItsReasoningControls records the body GoVibe's chat
// client sends for a profile's reasoningEffort under each preset and
// checks the fields that provider documents:
//
//   - DeepSeek, https://api-docs.deepseek.com/guides/thinking_mode
//     ("Thinking Mode Toggle and Effort Control", OpenAI format):
//     {"thinking":{"type":"enabled"}} and reasoning_effort low/high/max.
//   - Qwen, https://www.alibabacloud.com/help/en/model-studio/deep-thinking:
//     enable_thinking (passed in the body, "not a standard OpenAI
//     parameter") and thinking_budget; no reasoning_effort.
//   - OpenAI, https://platform.openai.com/docs/api-reference/chat:
//     reasoning_effort alone.
//
// Unset effort sends none of them, so the provider's default holds.
func TestEachPresetSendsItsReasoningControls(t *testing.T) {
	cases := []struct {
		preset, effort string
		want           map[string]string // gjson path → raw JSON; "" must be absent
	}{
		{"deepseek", "low", map[string]string{"thinking.type": `"enabled"`, "reasoning_effort": `"low"`, "enable_thinking": ""}},
		{"deepseek", "medium", map[string]string{"thinking.type": `"enabled"`, "reasoning_effort": `"high"`}},
		{"deepseek", "high", map[string]string{"thinking.type": `"enabled"`, "reasoning_effort": `"high"`}},
		{"deepseek", "", map[string]string{"thinking": "", "reasoning_effort": ""}},
		{"qwen", "low", map[string]string{"enable_thinking": "true", "thinking_budget": "4096", "reasoning_effort": "", "thinking": ""}},
		{"qwen", "medium", map[string]string{"enable_thinking": "true", "thinking_budget": "16384", "reasoning_effort": ""}},
		{"qwen", "high", map[string]string{"enable_thinking": "true", "thinking_budget": "", "reasoning_effort": ""}},
		{"qwen", "", map[string]string{"enable_thinking": "", "thinking_budget": ""}},
		{"openai", "medium", map[string]string{"reasoning_effort": `"medium"`, "thinking": "", "enable_thinking": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.preset+"/"+tc.effort, func(t *testing.T) {
			p, err := Get(tc.preset)
			if err != nil {
				t.Fatal(err)
			}
			srv := scripted.Start(t, scripted.Reply{Text: "ok"})
			srv.SetConfig(scripted.Config{Dialect: dialectOf(p)})
			prof := p.Profile("m1", "k")
			prof.BaseURL = srv.URL()
			prof.ReasoningEffort = tc.effort
			c, err := llm.New(prof, llm.Options{MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}, nil); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			body := reqs[0].Body
			for path, want := range tc.want {
				got := gjson.GetBytes(body, path)
				switch {
				case want == "" && got.Exists():
					t.Errorf("%s sent (%s): %s", path, got.Raw, body)
				case want != "" && got.Raw != want:
					t.Errorf("%s = %q, want %s: %s", path, got.Raw, want, body)
				}
			}
		})
	}
}
