package recovery

import (
	"reflect"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
	"github.com/govibe/govibe/server/internal/storage/store"
)

func TestUnansweredCalls(t *testing.T) {
	call := func(ids ...string) llm.Message {
		m := llm.Message{Role: llm.RoleAssistant}
		for _, id := range ids {
			m.ToolCalls = append(m.ToolCalls, llm.ToolCall{ID: id, Name: "x"})
		}
		return m
	}
	res := func(id string) llm.Message { return llm.Message{Role: llm.RoleTool, ToolCallID: id} }
	en := func(src string, ms ...llm.Message) []store.LLMEntry {
		var out []store.LLMEntry
		for i, m := range ms {
			out = append(out, store.LLMEntry{Position: i, Message: m, SourceMessageID: src})
		}
		return out
	}
	user := llm.Message{Role: llm.RoleUser, Content: "hi"}
	cases := []struct {
		name    string
		entries []store.LLMEntry
		want    []string
	}{
		{"first call parked", en("m", user, call("a", "b")), []string{"a", "b"}},
		{"after a finished call", en("m", user, call("a", "b", "c"), res("a")), []string{"b", "c"}},
		{"out of order results", en("m", user, call("a", "b", "c"), res("b")), []string{"a", "c"}},
		{"all answered", en("m", user, call("a"), res("a")), nil},
		{"round of another message", en("other", user, call("a")), nil},
		{"something after the round", en("m", user, call("a"), user), nil},
		{"no tool calls", en("m", user, llm.Message{Role: llm.RoleAssistant, Content: "x"}), nil},
		{"empty track", nil, nil},
	}
	for _, c := range cases {
		var got []string
		for _, x := range unansweredCalls(c.entries, "m") {
			got = append(got, x.ID)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
