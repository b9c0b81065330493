package compact

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/govibe/govibe/server/internal/model/llm"
)

func words(n int, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	vocab := []string{"parser", "handler", "returns", "error", "when", "the", "file", "is", "missing", "config", "value", "test", "build", "module", "retry", "timeout"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(vocab[r.IntN(len(vocab))])
		fmt.Fprintf(&b, "%d ", r.IntN(100))
	}
	return b.String()
}

func TestEstimatorCountsWithTheEmbeddedEncoding(t *testing.T) {
	e := NewEstimator()
	if got := e.Text("hello world"); got != 2 {
		t.Fatalf("cl100k counts %q as 2 tokens, got %d", "hello world", got)
	}
	if e.Text("") != 0 {
		t.Fatal("empty text has tokens")
	}
	m := llm.Message{Role: llm.RoleAssistant, Content: "hello world", ToolCalls: []llm.ToolCall{{ID: "1", Name: "read_file", Arguments: `{"filePath":"a.go"}`}}}
	want := messageOverhead + 2 + messageOverhead + e.Text("read_file") + e.Text(`{"filePath":"a.go"}`)
	if got := e.Message(m); got != want {
		t.Fatalf("message tokens %d, want %d", got, want)
	}
	if e.Messages([]llm.Message{m, m}) != 2*want {
		t.Fatal("messages do not add up")
	}
	// The cache returns the same answer as a fresh count.
	s := words(500, 1)
	if a, b := e.Text(s), NewEstimator().Text(s); a != b || a < 500 {
		t.Fatalf("cached %d vs fresh %d", a, b)
	}
}

// track builds user/assistant/tool exchanges with sizable outputs.
func track(turns int, seed uint64) []llm.Message {
	r := rand.New(rand.NewPCG(seed, 3))
	var out []llm.Message
	id := 0
	for t := 0; t < turns; t++ {
		out = append(out, llm.Message{Role: llm.RoleUser, Content: "<context>\nEdit: ON\n</context>\n\n" + words(10+r.IntN(30), seed+uint64(t))})
		for k := r.IntN(3); k > 0; k-- {
			calls := 1 + r.IntN(3)
			a := llm.Message{Role: llm.RoleAssistant, Content: words(5, uint64(id))}
			for c := 0; c < calls; c++ {
				id++
				a.ToolCalls = append(a.ToolCalls, llm.ToolCall{ID: fmt.Sprintf("call_%d", id), Name: "read_file", Arguments: `{"filePath":"x.go"}`})
			}
			out = append(out, a)
			for _, c := range a.ToolCalls {
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: words(20+r.IntN(400), uint64(id)*31)})
			}
		}
		out = append(out, llm.Message{Role: llm.RoleAssistant, Content: words(30, uint64(t)*17)})
	}
	return out
}

func pairsOK(msgs []llm.Message) error {
	open := map[string]bool{}
	for i, m := range msgs {
		switch {
		case m.Role == llm.RoleTool:
			if !open[m.ToolCallID] {
				return fmt.Errorf("message %d: orphan tool result %s", i, m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		default:
			if len(open) > 0 {
				return fmt.Errorf("message %d: calls %v unanswered", i, open)
			}
			for _, c := range m.ToolCalls {
				open[c.ID] = true
			}
		}
	}
	return nil
}

func TestSplitNeverOrphansAToolResult(t *testing.T) {
	e := NewEstimator()
	for seed := uint64(1); seed <= 60; seed++ {
		msgs := track(25, seed)
		for _, keep := range []int{1, 200, 1500, 5000} {
			n := Split(msgs, keep, len(msgs), e.Message)
			if n == 0 {
				continue
			}
			if err := pairsOK(msgs[:n]); err != nil {
				t.Fatalf("seed %d keep %d cut %d: summarised part: %v", seed, keep, n, err)
			}
			if err := pairsOK(msgs[n:]); err != nil {
				t.Fatalf("seed %d keep %d cut %d: kept part: %v", seed, keep, n, err)
			}
			if got := e.Messages(msgs[n:]); got < keep {
				t.Fatalf("seed %d: kept %d tokens, want at least %d", seed, got, keep)
			}
		}
	}
}

func TestSplitPrefersARequestAndKeepsAPendingCall(t *testing.T) {
	e := NewEstimator()
	msgs := track(12, 5)
	n := Split(msgs, 300, len(msgs), e.Message)
	if n == 0 || !isRequest(msgs[n]) {
		t.Fatalf("cut %d does not start at a user request: %+v", n, msgs[n])
	}
	// A trailing assistant message whose call has no result yet (the compact
	// tool is running) is never summarised.
	pending := append(append([]llm.Message(nil), msgs...), llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c-last", Name: "compact", Arguments: "{}"}}})
	n = Split(pending, 1, len(pending), e.Message)
	if n == 0 || n > len(pending)-1 {
		t.Fatalf("cut %d", n)
	}
	if err := pairsOK(pending[:n]); err != nil {
		t.Fatal(err)
	}
}

func TestSplitHonoursLimitAndSmallTracks(t *testing.T) {
	e := NewEstimator()
	msgs := track(10, 9)
	if n := Split(msgs, 1<<30, len(msgs), e.Message); n != 0 {
		t.Fatalf("everything fits in keepTokens, yet cut %d", n)
	}
	if n := Split(msgs[:1], 1, 1, e.Message); n != 0 {
		t.Fatalf("a single message cannot be split, cut %d", n)
	}
	if n := Split(msgs, 1, 4, e.Message); n > 4 {
		t.Fatalf("cut %d beyond limit 4", n)
	}
	if n := Split(msgs, 1, 0, e.Message); n != 0 {
		t.Fatalf("limit 0 must forbid any cut, got %d", n)
	}
}

func TestCurrentRequestSkipsResultsAndNotes(t *testing.T) {
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "<context>\nEdit: ON\n</context>\n\nfix the bug"},
		{Role: llm.RoleAssistant, Content: "ok"},
		{Role: llm.RoleUser, Content: "<context>\nFiles were restored to snapshot 3\n</context>"},
		{Role: llm.RoleUser, Content: `<tool_result tool="read_file" status="ok">x</tool_result>`},
	}
	if got := CurrentRequest(msgs); got != 0 {
		t.Fatalf("current request %d, want 0", got)
	}
	if CurrentRequest(msgs[1:]) != -1 {
		t.Fatal("no request expected")
	}
}

func TestTruncateToolOutputsKeepsTheNewestBudget(t *testing.T) {
	e := NewEstimator()
	msgs := track(30, 11)
	budget := 2000
	out, saved := TruncateToolOutputs(msgs, budget, e)
	if len(out) != len(msgs) || saved <= 0 {
		t.Fatalf("len %d→%d, saved %d", len(msgs), len(out), saved)
	}
	seen := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if out[i].Role != msgs[i].Role || out[i].ToolCallID != msgs[i].ToolCallID {
			t.Fatalf("message %d changed shape", i)
		}
		if msgs[i].Role != llm.RoleTool {
			if out[i].Content != msgs[i].Content {
				t.Fatalf("non-tool message %d changed", i)
			}
			continue
		}
		seen += e.Text(msgs[i].Content)
		if seen <= budget && out[i].Content != msgs[i].Content {
			t.Fatalf("newest output %d (within budget) was truncated", i)
		}
		if strings.Contains(out[i].Content, TruncatedMarker) && len(out[i].Content) >= len(msgs[i].Content) {
			t.Fatalf("truncated output %d grew", i)
		}
	}
	if e.Messages(out) != e.Messages(msgs)-saved {
		t.Fatalf("saved %d does not match the difference %d", saved, e.Messages(msgs)-e.Messages(out))
	}
	again, saved2 := TruncateToolOutputs(out, budget, e)
	if saved2 != 0 || e.Messages(again) != e.Messages(out) {
		t.Fatalf("truncation is not idempotent: saved %d more", saved2)
	}
}

func TestFitCutsDownMechanically(t *testing.T) {
	e := NewEstimator()
	msgs := track(20, 13)
	total := e.Messages(msgs)
	budget := total / 3
	out, cut, err := Fit(msgs, 100, budget, e)
	if err != nil || !cut {
		t.Fatalf("cut %v err %v", cut, err)
	}
	if got := 100 + e.Messages(out); got > budget {
		t.Fatalf("still %d tokens over budget %d", got, budget)
	}
	if err := pairsOK(out); err != nil {
		t.Fatal(err)
	}
	same, cut, err := Fit(msgs, 0, total, e)
	if err != nil || cut || len(same) != len(msgs) {
		t.Fatal("a fitting request was changed")
	}
	// Dropping whole exchanges when shortening is not enough.
	tiny := 60
	out, _, err = Fit(msgs, 0, tiny+e.Messages(msgs[len(msgs)-1:]), e)
	if err != nil {
		t.Fatalf("dropping exchanges: %v", err)
	}
	if err := pairsOK(out); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Fit(msgs, 10_000, 50, e); !errors.Is(err, ErrCannotFit) {
		t.Fatalf("want ErrCannotFit, got %v", err)
	}
}

func TestExtractSnapshot(t *testing.T) {
	good := "<scratchpad>thinking</scratchpad>\n<state_snapshot>\n<overall_goal>Fix it</overall_goal>\n<current_plan>1. [DONE] x</current_plan>\n</state_snapshot>\ntrailing"
	s, err := ExtractSnapshot(good)
	if err != nil || !strings.HasPrefix(s, "<state_snapshot>") || !strings.HasSuffix(s, "</state_snapshot>") || strings.Contains(s, "scratchpad") {
		t.Fatalf("%q %v", s, err)
	}
	for name, bad := range map[string]string{
		"no tag":     "Here is a summary of our work.",
		"cut off":    "<state_snapshot><overall_goal>Fix",
		"empty":      "<state_snapshot>  </state_snapshot>",
		"no section": "<state_snapshot>just prose</state_snapshot>",
	} {
		if _, err := ExtractSnapshot(bad); err == nil {
			t.Errorf("%s: accepted %q", name, bad)
		}
	}
	var inf *InflatedError
	if err := CheckSmaller(100, 100); !errors.As(err, &inf) || !strings.Contains(err.Error(), "not smaller") {
		t.Fatalf("inflated summary accepted: %v", err)
	}
	if CheckSmaller(100, 99) != nil {
		t.Fatal("smaller summary rejected")
	}
}

func TestInstructionNamesTheSnapshot(t *testing.T) {
	if !strings.Contains(Instruction, "<state_snapshot>") || !IsInstruction(InstructionMessage().Content) {
		t.Fatal("the instruction must name <state_snapshot>")
	}
	for _, s := range Sections {
		if !strings.Contains(Instruction, "<"+s+">") {
			t.Fatalf("section %s missing from the instruction", s)
		}
	}
	m := SummaryMessage("<state_snapshot>x</state_snapshot>", Kept{Request: "fix the bug"})
	if m.Role != llm.RoleUser || !strings.HasPrefix(m.Content, SummaryPrefix) || !strings.Contains(m.Content, "fix the bug") {
		t.Fatalf("summary message %+v", m)
	}
}

func TestPolicy(t *testing.T) {
	p := Policy{Window: 8000, Threshold: 0.7, KeepTokens: 20000, MaxOutput: 32000}.Normalized()
	if p.KeepTokens != 2800 {
		t.Fatalf("keepTokens not clamped to half the trigger: %d", p.KeepTokens)
	}
	if p.Trigger() != 5600 || p.Reserve() != 2000 || p.RequestBudget() != 6000 {
		t.Fatalf("trigger %d reserve %d budget %d", p.Trigger(), p.Reserve(), p.RequestBudget())
	}
	if !p.ShouldCompact(5601) || p.ShouldCompact(5600) {
		t.Fatal("threshold comparison")
	}
	d := Policy{}.Normalized()
	if d.Window != 128000 || d.Threshold != 0.7 || d.KeepTokens != 20000 {
		t.Fatalf("defaults %+v", d)
	}
}
