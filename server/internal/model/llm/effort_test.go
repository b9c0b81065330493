package llm_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/model/llm/scripted"
	"github.com/tidwall/gjson"
)

// TestEffortTemperatureAndModelSwitchKeepThePrefix sends the same
// conversation under four profiles of one provider (a model switch, a
// reasoning-effort change, a temperature change) and checks on the
// recorded bodies that the messages and tools are byte-identical, so the
// provider's prompt cache survives, while the knobs reach the wire.
func TestEffortTemperatureAndModelSwitchKeepThePrefix(t *testing.T) {
	srv := scripted.Start(t)
	warm := 0.2
	mods := []func(*llm.Profile){
		func(p *llm.Profile) {},
		func(p *llm.Profile) { p.Model = "test-model-small" },
		func(p *llm.Profile) { p.ReasoningEffort = "high" },
		func(p *llm.Profile) { p.Temperature = &warm },
	}
	req := llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "You are GoVibe. Tools follow."},
		{Role: llm.RoleUser, Content: "hello"},
	}, Tools: []llm.ToolDef{{Name: "read_file", Description: "Read a file."}}}
	for _, m := range mods {
		c := newClient(t, srv.URL(), func(p *llm.Profile, _ *llm.Options) { m(p) })
		srv.Enqueue(scripted.Reply{Text: "ok"})
		if _, err := c.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	recs := srv.Requests()
	if len(recs) != len(mods) {
		t.Fatalf("%d requests", len(recs))
	}
	first := gjson.GetBytes(recs[0].Body, "messages").Raw + gjson.GetBytes(recs[0].Body, "tools").Raw
	for i, r := range recs {
		got := gjson.GetBytes(r.Body, "messages").Raw + gjson.GetBytes(r.Body, "tools").Raw
		if !bytes.Equal([]byte(got), []byte(first)) {
			t.Errorf("request %d: prefix differs:\n%s\nvs\n%s", i, got, first)
		}
	}
	if recs[1].Model != "test-model-small" {
		t.Errorf("switch: model = %q", recs[1].Model)
	}
	if e := gjson.GetBytes(recs[2].Body, "reasoning_effort").String(); e != "high" {
		t.Errorf("reasoning_effort = %q", e)
	}
	if gjson.GetBytes(recs[0].Body, "reasoning_effort").Exists() || gjson.GetBytes(recs[0].Body, "temperature").Exists() {
		t.Errorf("unset knobs were sent: %s", recs[0].Body)
	}
	if tmp := gjson.GetBytes(recs[3].Body, "temperature").Float(); tmp != 0.2 {
		t.Errorf("temperature = %v", tmp)
	}
}
