package engine_test

import (
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/engine/enginetest"
	"github.com/govibe/govibe/server/internal/host/config"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/tidwall/gjson"
)

// TestModelSwitchKeepsTheRequestPrefixByteStable: a session switched to
// another model of the same provider (with its own reasoning effort and
// temperature) sends, on the recorded wire, exactly the bytes it sent
// before for the system prompt, the earlier messages and the tool
// definitions, so the provider's prefix cache keeps hitting; only the
// model and the knobs differ.
func TestModelSwitchKeepsTheRequestPrefixByteStable(t *testing.T) {
	models := []any{
		map[string]any{"name": "fast", "model": "fast-model"},
		map[string]any{"name": "strong", "model": "strong-model", "reasoningEffort": "high", "temperature": 0.3},
	}
	x := enginetest.New(t, config.Values{"models": models, "model": "fast"})
	x.Model.Enqueue(scripted.Reply{Text: "one"}, scripted.Reply{Text: "two"})
	sid, _ := x.Turn("", "first")
	if err := x.E.Sessions.SetModel(context.Background(), sid, "strong"); err != nil {
		t.Fatal(err)
	}
	x.Turn(sid, "second")
	reqs := x.Model.Requests()
	if len(reqs) != 2 || reqs[0].Model != "fast-model" || reqs[1].Model != "strong-model" {
		t.Fatalf("requests: %+v", reqs)
	}
	before, after := gjson.ParseBytes(reqs[0].Body), gjson.ParseBytes(reqs[1].Body)
	n := len(before.Get("messages").Array())
	if n < 2 {
		t.Fatalf("first request has %d messages", n)
	}
	for i, m := range before.Get("messages").Array() {
		if got := after.Get("messages").Array()[i].Raw; got != m.Raw {
			t.Errorf("message %d changed across the switch:\n%s\nvs\n%s", i, got, m.Raw)
		}
	}
	if before.Get("tools").Raw != after.Get("tools").Raw || before.Get("tools").Raw == "" {
		t.Error("the tool definitions changed across the switch")
	}
	if after.Get("reasoning_effort").String() != "high" || after.Get("temperature").Float() != 0.3 || before.Get("reasoning_effort").Exists() {
		t.Errorf("the knobs did not follow the profiles: %s / %s", reqs[0].Body, reqs[1].Body)
	}
}
