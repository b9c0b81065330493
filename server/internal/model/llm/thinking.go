package llm

// Thinking dialects: how a provider takes the profile's ReasoningEffort
// when it does not read OpenAI's reasoning_effort alone (Wire.Thinking).
const (
	// ThinkingDeepSeek sends thinking {"type":"enabled"} beside
	// reasoning_effort, low or high ("medium" is sent as "high", which is
	// what DeepSeek maps it to). api-docs.deepseek.com/guides/thinking_mode,
	// "Thinking Mode Toggle and Effort Control": the toggle goes in the
	// body (extra_body in OpenAI's SDK), the effort takes low/high/max.
	ThinkingDeepSeek = "deepseek"
	// ThinkingQwen sends enable_thinking true and a thinking_budget in
	// tokens for low and medium (high leaves the model's own maximum).
	// alibabacloud.com/help/en/model-studio/deep-thinking: hybrid models
	// switch with enable_thinking (not an OpenAI parameter, so it goes in
	// the body), thinking_budget caps the chain of thought; Qwen does not
	// take reasoning_effort on chat completions.
	ThinkingQwen = "qwen"
)

// Qwen's thinking budgets per effort. Its hybrid models default to the
// model's maximum chain of thought (tens of thousands of tokens), so
// "high" sends none.
const (
	qwenBudgetLow    = 4096
	qwenBudgetMedium = 16384
)

// thinkingFields are the body fields the wire's thinking dialect adds for
// effort, and whether OpenAI's reasoning_effort field is sent as well
// (with the value effortField).
func thinkingFields(dialect, effort string) (extra map[string]any, effortField string) {
	if effort == "" {
		return nil, ""
	}
	switch dialect {
	case ThinkingDeepSeek:
		e := "high"
		if effort == "low" {
			e = "low"
		}
		return map[string]any{"thinking": map[string]any{"type": "enabled"}}, e
	case ThinkingQwen:
		extra = map[string]any{"enable_thinking": true}
		switch effort {
		case "low":
			extra["thinking_budget"] = qwenBudgetLow
		case "medium":
			extra["thinking_budget"] = qwenBudgetMedium
		}
		return extra, ""
	}
	return nil, effort
}
